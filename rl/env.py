"""A twofold mode as a Gymnasium environment: the human game's rules, deal and commands.

``reset(seed=...)`` derives a game code from the seed (and later resets without one
from Gymnasium's generator, so a seed fixes every episode after it);
``options={"code": "KAF3-Q0D0"}`` plays that code and ``options={"daily": "2026-12-01"}``
that day's daily board of the mode. ``info["command"]`` is the line-protocol command a
step sent (``None`` for a tap that only adds a cell), so ``info["code"]`` of the reset and
the commands, sent to ``twofold play MODE --code CODE --json``, give the same boards and
score. The reward is the score gained (an ``undo`` can give it back: negative). The step
that ends the game gives ``info["result"]``: the game's result with its proof, marked as
played by a program, which ``twofold verify`` checks.

A masked-out action changes nothing and raises nothing: reward 0, ``info["invalid"]``.
The mode's clock (``Mode.time_limit``, 2248 Blitz) does not run here: a step takes no time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import gymnasium as gym
import numpy as np

from twofold.core import plugins
from twofold.core.codes import code_from_text, parse_code
from twofold.core.daily import daily_code
from twofold.core.rules import Mode
from twofold.rl.actions import Table, table_of
from twofold.rl.episode import Episode
from twofold.rl.observe import Encoder, chain_planes, held, observation_space
from twofold.rl.result import result_of
from twofold.rl.taps import Controls, Pending, Press

#: the options ``reset`` reads
OPTIONS = ("code", "daily")


def mode_of(mode: str | Mode) -> Mode:
    """A mode from its id (an installed mode, plugins included) or the mode itself."""
    if isinstance(mode, Mode):
        return mode
    try:
        return plugins.registry().mode(mode)
    except KeyError:
        known = ", ".join(sorted(plugins.registry().modes))
        raise ValueError(f"no mode {mode!r} is installed (modes: {known})") from None


@dataclass(frozen=True)
class Snapshot:
    """An environment's episode, what is being built, its mask and what it observed."""

    episode: Episode
    pending: Pending | None
    mask: np.ndarray
    observed: Any
    encoder: Encoder


class TwofoldEnv(gym.Env[Any, np.int64]):
    """One mode of twofold as an environment (see the module's docstring)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 30}  # noqa: RUF012 (read off the class)

    def __init__(
        self,
        mode: str | Mode = "2048",
        render_mode: str | None = None,
        *,
        results: bool = True,
        quick: bool = True,
    ) -> None:
        self.mode = mode_of(mode)
        #: False: no ``info["result"]`` (its proof replays the game: a few ms an episode)
        self.results = results
        #: False: every action played by ``Rules.apply``, never the proof coder's quick paths
        self.quick = quick
        self.words: dict[str, str | None] = {}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: twofold renders 'ansi' only")
        self.render_mode = render_mode
        self.episode = self._episode(code_from_text(f"twofold-rl:{self.mode.id}"))
        board = self.episode.state.board
        self.table: Table = table_of(self.mode, len(board), len(board[0]))
        self.controls = Controls(self.table, self.mode.judge)
        self.action_space = gym.spaces.Discrete(self.table.size)
        self.observation_space = observation_space(
            self.mode, self.table.rows, self.table.cols, len(self.table.tools)
        )
        self.pending: Pending | None = None
        #: the date of the daily board played (``options={"daily": ...}``), else None
        self.day: date | None = None
        self.encoder = Encoder()
        self._mask = self.controls.mask(self.episode, None)
        self._observed = self._observe()

    # -- the Gymnasium API --------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        code = self._code(options or {})
        self.day = self._day_of(options or {})
        self.episode = self._episode(code)
        self.pending = None
        if self.encoder.ranked:  # exponents hold for every episode, ranks for one
            self.encoder = Encoder()
        self._mask = self.controls.mask(self.episode, None)
        self._observed = self._observe()
        return self._observed, {**self._info(None, False), "code": code}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        index = int(action)
        mask, sends = self._mask, self.controls.sends
        if not (0 <= index < len(mask) and mask[index]):
            press = None
        elif self.pending is None and sends is not None and index < len(sends):
            press = _SENT  # what the mask found legal, sent at once
        else:
            press = self.controls.press(self.episode, self.pending, index)
        if press is None:
            # new data on every call (Gymnasium's check): the caller may keep what it got
            return _fresh(self._observed), 0.0, self._over(), False, self._info(None, True)
        if press is _SENT:
            command, pending = sends[index], None  # type: ignore[index]
        else:
            command, pending = press.command, press.pending
        episode = self.episode
        reward = 0
        if command is not None:
            before = episode.state.score
            episode.play(command)
            reward = episode.state.score - before
        self.pending = pending
        self._mask = self.controls.mask(episode, pending)
        self._observed = self._observe()
        info = self._info(command, False)
        over = pending is None and episode.over
        if over and self.results:
            info["result"] = result_of(episode, self.day)
        return self._observed, float(reward), over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (sb3-contrib's MaskablePPO asks for this)."""
        return self._mask.astype(bool)

    def observation(self) -> Any:
        """What the last reset or step observed (a copy)."""
        return _fresh(self._observed)

    def snapshot(self) -> Snapshot:
        """Everything a step can change, to :meth:`restore` (the test kit tries every
        action from one state so). It holds the game, deal and all: not for an agent."""
        return Snapshot(
            self.episode.copy(),
            self.pending,
            self._mask.copy(),
            self.observation(),
            self.encoder.copy(),
        )

    def restore(self, snapshot: Snapshot) -> None:
        self.episode, self.pending = snapshot.episode.copy(), snapshot.pending
        self._mask, self._observed = snapshot.mask.copy(), _fresh(snapshot.observed)
        self.encoder = snapshot.encoder.copy()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return str(self.mode.rules.render_text(self.episode.state))

    # -- inside -------------------------------------------------------------------------

    def _episode(self, code: str) -> Episode:
        return Episode(self.mode, code, quick=self.quick, words=self.words, proving=self.results)

    def _code(self, options: dict[str, Any]) -> str:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown reset options {unknown}: the options are code and daily")
        if "code" in options and "daily" in options:
            raise ValueError("give a code or a daily date, not both")
        if "code" in options:
            return parse_code(str(options["code"]))
        if "daily" in options:
            day = options["daily"]
            return daily_code(self.mode.id, day if isinstance(day, date) else _day(day))
        drawn = int(self.np_random.integers(1 << 62))
        return code_from_text(f"twofold-rl:{drawn}")

    def _day_of(self, options: dict[str, Any]) -> date | None:
        if "daily" not in options or not self.mode.daily:
            return None
        day = options["daily"]
        return day if isinstance(day, date) else _day(day)

    def _over(self) -> bool:
        return self.pending is None and self.episode.over

    def _observe(self) -> Any:
        state = self.episode.state
        board = self.encoder.encode(state.board)
        if self.mode.controls != "chain":
            return board
        pending = self.pending
        cells = pending.cells if pending is not None else ()
        aimed = pending.tool + 1 if pending is not None and pending.tool >= 0 else 0
        return {
            "board": board,
            "chain": chain_planes(self.table.rows, self.table.cols, cells),
            "powerups": held(self.mode, self.episode.status()),
            "aimed": np.int64(aimed),
        }

    def _info(self, command: str | None, invalid: bool) -> dict[str, Any]:
        return {
            "action_mask": self._mask.copy() if invalid else self._mask,
            "command": command,
            "invalid": invalid,
            "score": int(self.episode.state.score),
        }


#: a step whose action sends its command at once (no Press made: most modes' every step)
_SENT = Press(None, None)


def _fresh(observation: Any) -> Any:
    if isinstance(observation, dict):
        return {key: _fresh(value) for key, value in observation.items()}
    return np.copy(observation) if isinstance(observation, np.ndarray) else observation


def _day(text: Any) -> date:
    try:
        return date.fromisoformat(str(text))
    except ValueError:
        raise ValueError(f"daily: {text!r} is not a date (write it 2026-12-01)") from None
