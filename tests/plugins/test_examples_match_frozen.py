"""The shipped examples, rewritten on the building blocks, play the very games their frozen
copies (tests/plugins/frozen/, as they shipped) play: for the same codes and actions the
same states, scores, events and words, and the same actions allowed and refused (with the
same reason), over many seeded random games."""

from __future__ import annotations

import dataclasses
import importlib
import random
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import twofold_chainsum
import twofold_drop
import twofold_fibonacci

from twofold.core.codes import code_from_text
from twofold.plugin import Mode, Refused

FROZEN = Path(__file__).resolve().parent / "frozen"


@pytest.fixture(scope="module")
def frozen_copies(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    """Each frozen example imported as ``frozen_NAME``, beside today's ``NAME``: the copies
    are the files as they shipped, with only their own package's name changed."""
    folder = tmp_path_factory.mktemp("frozen")
    loaded: dict[str, ModuleType] = {}
    sys.path.insert(0, str(folder))
    try:
        for name in ("twofold_fibonacci", "twofold_chainsum", "twofold_drop"):
            shutil.copytree(FROZEN / name, folder / f"frozen_{name}")
            for source in (folder / f"frozen_{name}").glob("*.py"):
                text = source.read_text(encoding="utf-8")
                source.write_text(text.replace(name, f"frozen_{name}"), encoding="utf-8")
            loaded[name] = importlib.import_module(f"frozen_{name}")
        yield loaded
    finally:
        sys.path.remove(str(folder))


def fields(state: Any) -> tuple[Any, ...]:
    return dataclasses.astuple(state)


def outcome_of(mode: Mode, state: Any, action: str) -> tuple[Any, ...]:
    """What an action does, as comparable data: the refusal's reason, or the new state,
    the events and the words said."""
    try:
        outcome = mode.rules.apply(state, mode.rules.parse(action))
    except Refused as refusal:
        return ("refused", str(refusal))
    said = mode.rules.announce(state, outcome)
    direction = getattr(outcome, "direction", None)
    return (fields(outcome.state), outcome.events, said, direction)


def looks(mode: Mode, state: Any) -> tuple[Any, ...]:
    """Everything the modes say of a state besides its actions."""
    rules = mode.rules
    hint = mode.hint(state) if mode.hint else None
    return (
        fields(state),
        rules.is_over(state),
        rules.report(state),
        rules.stats(state),
        rules.read_board(state),
        rules.render_text(state),
        mode.status_of(state),
        hint,
    )


def slide_actions(state: Any, rng: random.Random) -> list[str]:
    return ["left", "right", "up", "down", "h", "arrow  up", "ctrl+z", "sideways", "chain 0,0 0,1"]


def walk(state: Any, rng: random.Random, size: tuple[int, int]) -> list[tuple[int, int]]:
    rows, columns = size
    cell = (rng.randrange(rows), rng.randrange(columns))
    chain = [cell]
    for _step in range(rng.randrange(1, 6)):
        r, c = chain[-1]
        chain.append((r + rng.choice((-1, 0, 1)), c + rng.choice((-1, 0, 1))))
    return chain


def chain_actions(state: Any, rng: random.Random) -> list[str]:
    """Chains of two touching cells (which chains may start), and random walks."""
    size = len(state.board)
    pairs = [
        [(r, c), (r + dr, c + dc)]
        for r in range(size)
        for c in range(size)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size
    ]
    walks = [walk(state, rng, (size + 1, size + 1)) for _walk in range(12)]
    texts = [" ".join(f"{r},{c}" for r, c in chain) for chain in rng.sample(pairs, 40) + walks]
    return [f"chain {text}" for text in texts] + ["chain 0,0", "chain x", "u", "left"]


def drop_actions(state: Any, rng: random.Random) -> list[str]:
    return [f"place {c}" for c in range(-1, 7)] + ["Place  2", "drop", "u"]


def judged(mode: Mode, state: Any, rng: random.Random) -> list[Any]:
    """The judge's verdicts on chains being drawn (a chain mode) or columns aimed at."""
    if mode.judge is None:
        return []
    size = len(state.board)
    if mode.controls == "place":
        return [mode.judge(state, [(0, c)]) for c in range(-1, size + 2)]
    verdicts = []
    for _chain in range(10):
        chain = walk(state, rng, (size, size))
        # a preview is asked of a chain whose every cell but the last has joined
        for end in range(1, len(chain) + 1):
            verdict = mode.judge(state, chain[:end])
            verdicts.append(verdict)
            if not verdict.fits:
                break
    return verdicts


def compare(
    today: Mode,
    frozen: Mode,
    actions: Callable[[Any, random.Random], list[str]],
    seed: int,
    length: int,
) -> int:
    """Play one seeded game (and more while the actions last) in both; the actions played."""
    rng = random.Random(seed)
    code = code_from_text(f"frozen {seed}")
    state, old = today.rules.new_game(code), frozen.rules.new_game(code)
    played = 0
    for number in range(length):
        assert looks(today, state) == looks(frozen, old), (seed, number)
        assert judged(today, state, random.Random(number)) == judged(
            frozen, old, random.Random(number)
        )
        allowed = []
        for action in actions(state, rng):
            got = outcome_of(today, state, action)
            assert got == outcome_of(frozen, old, action), (seed, number, action)
            if got[0] != "refused" and got[1] and today.rules.parse(action) != "undo":
                allowed.append(action)
        if today.rules.is_over(state) or not allowed:
            code = code_from_text(f"frozen {seed} {number}")
            state, old = today.rules.new_game(code), frozen.rules.new_game(code)
            continue
        action = rng.choice(allowed)
        state = today.rules.apply(state, today.rules.parse(action)).state
        old = frozen.rules.apply(old, frozen.rules.parse(action)).state
        played += 1
    return played


#: each example, the actions tried at each step, the seeds and the actions a seed plays
CASES = {
    "twofold_fibonacci": (twofold_fibonacci, slide_actions, 12, 80),
    "twofold_chainsum": (twofold_chainsum, chain_actions, 8, 50),
    "twofold_drop": (twofold_drop, drop_actions, 20, 100),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_an_example_on_the_blocks_plays_the_games_it_shipped_playing(
    name: str, frozen_copies: dict[str, ModuleType]
) -> None:
    package, actions, seeds, length = CASES[name]
    today, frozen = package.modes(), frozen_copies[name].modes()
    assert [mode.id for mode in today] == [mode.id for mode in frozen]
    for mode, old in zip(today, frozen, strict=True):
        played = sum(compare(mode, old, actions, seed, length) for seed in range(seeds))
        assert played > seeds * length // 2  # most steps really played an action


#: the most lines each example's rules module may take, written on the blocks (it shipped
#: with 323, 278 and 302: each wrote its own slide, gravity, chains and position reading)
RULES_LINES = 190


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_example_writes_only_what_its_game_changes(name: str) -> None:
    package = CASES[name][0]
    rules = Path(package.__file__).parent / "rules.py"
    assert len(rules.read_text(encoding="utf-8").splitlines()) <= RULES_LINES
