"""The mode as a learning environment: Gymnasium's own check, and masks that are exactly right.

Both need the ``rl`` extra (gymnasium and numpy); they import it when called, so the
rest of the kit works without it.
"""

from __future__ import annotations

import random
from typing import Any

from twofold.core._capabilities import LegalActions
from twofold.core._rules import Mode, Refused


def check_environment(mode: Mode, *, seed: int = 0) -> None:
    """Gymnasium's ``check_env`` passes on the mode's environment (spaces, seeding, reset,
    step, render), and it observes no game code."""
    from functools import partial

    from gymnasium.envs.registration import EnvSpec
    from gymnasium.utils.env_checker import check_env

    from twofold.rl import TwofoldEnv, env_id

    env = TwofoldEnv(mode, render_mode="ansi")
    # a spec, as gymnasium.make gives one, so check_env also tries the other render modes
    env.spec = EnvSpec(env_id(mode.id), entry_point=partial(TwofoldEnv, mode))
    check_env(env)
    observation, info = env.reset(seed=seed)
    assert info["code"] not in repr(observation), f"{mode.id}: the observation shows the code"


def check_masks(mode: Mode, *, steps: int = 40, seed: int = 0) -> None:
    """``mask[a]`` is true exactly when action ``a`` changes the game, over random play.

    At each state every action is tried from a snapshot: a legal one sends a command the
    rules take (asked afresh of ``Rules.apply``) or adds a cell to what is being built (a
    chain the rules take, from two cells on); a masked one changes nothing, gives reward
    0 and ``info["invalid"]``. A ``LegalActions`` proof coder's ``legal`` and ``advance``
    give the masks and states that playing every action through ``Rules.apply`` gives;
    the hint's chain can be tapped, cell by cell; a power-up the mask keeps from aiming is
    refused by the rules wherever it is aimed.
    """
    import numpy as np

    from twofold.rl import TwofoldEnv

    # the rules' masks, not the clock's: a timed mode's clock (counted in steps) barely runs
    env = TwofoldEnv(mode, step_seconds=1e-9)
    played = (
        TwofoldEnv(mode, quick=False, step_seconds=1e-9)
        if isinstance(mode.proof, LegalActions)
        else None
    )
    rng = random.Random(seed)
    _observation, info = env.reset(seed=seed)
    if played is not None:
        played.reset(seed=seed)
    for number in range(steps):
        mask = info["action_mask"]
        where = f"{mode.id} (step {number}, code {env.episode.code})"
        if played is not None:
            assert (played.action_masks() == mask.astype(bool)).all(), (
                f"{where}: the proof coder's legal gives the mask {mask.tolist()}, playing every "
                f"action gives {played.action_masks().astype(int).tolist()}"
            )
        _check_each_action(env, mask, where)
        _check_hint_taps(env, where)
        legal = np.flatnonzero(mask)
        if not len(legal):
            _observation, info = env.reset(seed=seed + number + 1)
            if played is not None:
                played.reset(seed=seed + number + 1)
            continue
        action = int(legal[rng.randrange(len(legal))])
        _observation, _reward, over, _cut, info = env.step(action)
        if played is not None:
            played.step(action)
            assert played.episode.state == env.episode.state, (
                f"{where}: action {action} gives another state played by Rules.apply "
                "than by its proof coder's advance"
            )
        if over:
            _observation, info = env.reset(seed=seed + number + 1)
            if played is not None:
                played.reset(seed=seed + number + 1)


def _check_each_action(env: Any, mask: Any, where: str) -> None:
    import numpy as np

    rules = env.mode.rules
    before = env.snapshot()
    state, pending = env.episode.state, env.pending
    observed = _plain(env.observation())
    for action in range(env.action_space.n):
        env.restore(before)
        name = env.table.name(action)
        observation, reward, _over, _cut, info = env.step(action)
        changed = info["command"] is not None or _plain(observation) != observed
        assert changed == bool(mask[action]), (
            f"{where}: {name} is {'legal' if mask[action] else 'masked out'} but "
            f"{'changes' if changed else 'does not change'} the game"
        )
        if not mask[action]:
            assert reward == 0 and info["invalid"], f"{where}: masked {name} gave {reward}"
            continue
        command = info["command"]
        if command is not None and command != "undo":
            assert _taken(rules, state, command), f"{where}: {name} sent {command!r}, refused"
        cells = env.pending.cells if env.pending is not None else ()
        if env.pending is not None and env.pending.tool < 0 and len(cells) > 1:
            chain = "chain " + " ".join(f"{r},{c}" for r, c in cells)
            assert _taken(rules, state, chain), f"{where}: {name} built {chain!r}, refused"
    env.restore(before)
    if pending is None:
        _check_held_back(env, mask, state, where)
    assert np.array_equal(env.action_masks(), mask.astype(bool))


def _check_held_back(env: Any, mask: Any, state: Any, where: str) -> None:
    """A power-up the mask does not let aim is refused by the rules on every target."""
    table, rules = env.table, env.mode.rules
    cells = [(r, c) for r in range(table.rows) for c in range(table.cols)]
    for index, tool in enumerate(table.tools):
        if mask[table.first + index] or tool.takes in ("none", "undo"):
            continue
        if tool.takes == "cell":
            targets = [f"{r},{c}" for r, c in cells]
        elif tool.takes == "column":
            targets = [str(c) for c in range(table.cols)]
        elif tool.takes == "pair":
            targets = [f"{a[0]},{a[1]} {b[0]},{b[1]}" for a in cells for b in cells if a != b]
        else:
            continue  # a command of cells: too many to try; its taps are checked above
        taken = [t for t in targets if _taken(rules, state, f"{tool.word} {t}")]
        assert not taken, f"{where}: aim {tool.word} is masked out, the rules take {taken[:3]}"


def _check_hint_taps(env: Any, where: str) -> None:
    """A chain mode's hint can be tapped cell by cell, and sent by its last cell again."""
    mode = env.mode
    if mode.controls != "chain" or mode.hint is None or env.pending is not None:
        return
    hint = mode.hint(env.episode.state)
    if hint is None or not hint.action.startswith("chain ") or not hint.cells:
        return
    before = env.snapshot()
    table = env.table
    for cell in (*hint.cells, hint.cells[-1]):
        action = cell[0] * table.cols + cell[1]
        assert env.action_masks()[action], f"{where}: the hint {hint.action!r} is masked at {cell}"
        env.step(action)
    env.restore(before)


def _taken(rules: Any, state: Any, command: str) -> bool:
    try:
        return bool(rules.apply(state, rules.parse(command)).changed)
    except Refused:
        return False


def _plain(observation: Any) -> Any:
    if isinstance(observation, dict):
        return {key: _plain(value) for key, value in observation.items()}
    return observation.tolist() if hasattr(observation, "tolist") else observation
