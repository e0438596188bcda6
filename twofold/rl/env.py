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

A masked-out action changes nothing and raises nothing: reward 0, ``info["invalid"]``;
an action that is not a whole number of the action space is refused (``ValueError``).
A daily mode plays the daily board of the day given (``day=``, else the UTC day of the
reset), whatever the seed, so its result is one ``twofold verify`` accepts. A timed mode's
clock (``Mode.time_limit``, 2248 Blitz) counts ``step_seconds`` a step: the step that
spends the last of it ends the episode (``terminated``), as time running out ends the game.
"""

from __future__ import annotations

import copy
import math
import warnings
from collections import deque
from dataclasses import dataclass
from datetime import date
from typing import Any

import gymnasium as gym
import numpy as np

from twofold.core import plugins
from twofold.core._events import Merged
from twofold.core._rules import Mode
from twofold.core.codes import CodeError, code_from_text, parse_code
from twofold.core.daily import daily_code, utc_today
from twofold.core.game import UNDO, undo_depth
from twofold.core.palette import rgb, tile_colours, vivid_rgb
from twofold.core.verify import day_of
from twofold.rl.actions import Table, table_of
from twofold.rl.episode import Episode
from twofold.rl.observation import Encoder, chain_planes, held, observation_space
from twofold.rl.result import result_of
from twofold.rl.taps import Controls, Pending, Press

#: the options ``reset`` reads
OPTIONS = ("code", "daily")
#: what a step pays: the score gained; log2 of each tile a merge makes; that over log2(goal)
REWARDS = ("score", "log2", "normalised")
#: float64 holds every whole number up to here exactly; a score reward past it is rounded
EXACT = 1 << 53
#: the characters of a caller's text an error message quotes (a bound on its length)
QUOTED = 40
#: an image's pixels a cell, and between cells
CELL_PIXELS, GAP_PIXELS = 32, 4
BACKGROUND = rgb("#bbada0")
EMPTY_CELL = rgb("#cdc1b4")


def quoted(value: Any) -> str:
    """``repr(value)``, cut to a bounded length: what an error message quotes of its input."""
    text = repr(value) if not isinstance(value, str) else repr(value[: QUOTED + 1])
    return text if len(text) <= QUOTED else text[: QUOTED - 3] + "..."


def mode_of(mode: str | Mode) -> Mode:
    """A mode from its id (an installed mode, plugins included) or the mode itself."""
    if isinstance(mode, Mode):
        return mode
    try:
        return plugins.registry().mode(mode)
    except (KeyError, TypeError):
        known = ", ".join(sorted(plugins.registry().modes))
        raise ValueError(f"no mode {quoted(mode)} is installed (modes: {known})") from None


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

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        mode: str | Mode = "2048",
        render_mode: str | None = None,
        *,
        results: bool = True,
        quick: bool = True,
        reward: str = "score",
        day: date | str | None = None,
        step_seconds: float = 1.0,
    ) -> None:
        self.mode = mode_of(mode)
        if reward not in REWARDS:
            raise ValueError(f"reward {quoted(reward)}: the rewards are {', '.join(REWARDS)}")
        self.reward = reward
        #: what a merge of the goal tile pays with reward="normalised" (log2 of the goal)
        self.scale = math.log2(self.mode.goal) if (self.mode.goal or 0) > 1 else 11.0
        #: the daily board's day (None: the UTC day of each reset); daily modes only
        self.day_given = None if day is None else _as_day(day)
        if not step_seconds > 0:
            raise ValueError(f"step_seconds {quoted(step_seconds)}: a step takes some time")
        #: a timed mode's clock: what a step spends of ``Mode.time_limit``
        self.step_seconds = float(step_seconds)
        self.steps = 0
        self._warned = False
        #: what each step an undo can take back paid (reward="log2", "normalised")
        self._paid: deque[float] = deque(maxlen=undo_depth(self.mode) or 1)
        #: False: no ``info["result"]`` (its proof replays the game: a few ms an episode)
        self.results = results
        #: False: every action played by ``Rules.apply``, never the proof coder's quick paths
        self.quick = quick
        self.words: dict[str, str | None] = {}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode {quoted(render_mode)}: twofold renders 'ansi' and 'rgb_array'"
            )
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
        options = _options(options)
        self.day = self._day_of(options)
        code = self._code(options)
        self.episode = self._episode(code)
        self.pending = None
        self.steps = 0
        self._paid.clear()
        if self.encoder.ranked:  # exponents hold for every episode, ranks for one
            self.encoder = Encoder()
        self._mask = self._mask_now()
        self._observed = self._observe()
        return self._observed, {**self._info(None, False), "code": code}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        index = self._index(action)
        mask, sends = self._mask, self.controls.sends
        if not mask[index]:
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
        reward = 0.0
        if command is not None:
            reward = self._play(command)
        self.pending = pending
        self.steps += 1
        self._mask = self._mask_now()
        self._observed = self._observe()
        info = self._info(command, False)
        over = self._over()
        if over and self.results:
            info["result"] = result_of(episode, self.day)
        return self._observed, reward, over, False, info

    def result(self) -> str:
        """The result of the episode so far (``info["result"]`` gives it at its end): what a
        truncated episode can still have verified."""
        return result_of(self.episode, self.day)

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

    def render(self) -> Any:
        if self.render_mode == "ansi":
            return str(self.mode.rules.render_text(self.episode.state))
        if self.render_mode == "rgb_array":
            return self.image()
        return None

    def image(self) -> np.ndarray:
        """The board as an image, ``(height, width, 3)`` of uint8, in the app's colours
        (the classic palette; chain modes' vivid one), without the numbers: each cell at its
        layout's position (a hexagon's offset rows), nothing where there is no cell."""
        board = self.episode.state.board
        layout = self.mode.layout_of(board)
        step = CELL_PIXELS + GAP_PIXELS
        height, width = math.ceil(layout.height) * step, math.ceil(layout.width) * step
        found = np.empty((height + GAP_PIXELS, width + GAP_PIXELS, 3), np.uint8)
        found[:] = BACKGROUND
        vivid = self.mode.controls == "chain"
        for (r, c), (x, y) in zip(layout.cells, layout.positions, strict=True):
            value = board[r][c]
            if value > 0:
                colour = vivid_rgb(value) if vivid else rgb(tile_colours(value)[0])
            else:
                colour = EMPTY_CELL
            top, left = GAP_PIXELS + round(y * step), GAP_PIXELS + round(x * step)
            found[top : top + CELL_PIXELS, left : left + CELL_PIXELS] = colour
        return found

    # -- copies -------------------------------------------------------------------------

    def __deepcopy__(self, memo: dict[int, Any]) -> TwofoldEnv:
        """A twin that plays on alone: its own game, deal and all (the mode is shared)."""
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        twin.__dict__.update(self.__dict__)
        twin.restore(self.snapshot())
        twin._paid = copy.copy(self._paid)
        twin._np_random = copy.deepcopy(self._np_random, memo)
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle holds: the mode's id, the options, and the game as its commands
        (an installed mode's, so another process can make it again)."""
        return {
            "init": (self.mode.id, self.render_mode),
            "options": {
                "results": self.results,
                "quick": self.quick,
                "reward": self.reward,
                "day": self.day_given,
                "step_seconds": self.step_seconds,
            },
            "code": self.episode.code,
            "log": list(self.episode.log),
            "day": self.day,
            "pending": self.pending,
            "encoder": self.encoder,
            "steps": self.steps,
            "paid": self._paid,
            "random": (self._np_random, self._np_random_seed),
            "spec": self.spec,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(*state["init"], **state["options"])  # type: ignore[misc]
        self.day, self.steps, self._paid = state["day"], state["steps"], state["paid"]
        self.episode = self._episode(state["code"])
        for command in state["log"]:
            self.episode.play(command)
        self.pending, self.encoder = state["pending"], state["encoder"]
        self._np_random, self._np_random_seed = state["random"]
        self.spec = state["spec"]
        self._mask = self._mask_now()
        self._observed = self._observe()

    # -- inside -------------------------------------------------------------------------

    def _episode(self, code: str) -> Episode:
        return Episode(self.mode, code, quick=self.quick, words=self.words, proving=self.results)

    def _code(self, options: dict[str, Any]) -> str:
        if "code" in options:
            text = str(options["code"])
            if len(text) > QUOTED:  # the code's own message would quote all of it
                raise CodeError(f"{quoted(text)} is not a game code (8 characters)")
            code = parse_code(text)
            if self.mode.daily:
                self.day = day_of(self.mode.id, code)
                if self.day is None:
                    raise ValueError(
                        f"{code} is not a daily code of {self.mode.id}: give daily=DATE"
                    )
            return code
        if "daily" in options:
            return daily_code(self.mode.id, _as_day(options["daily"]))
        if self.day is not None:  # a daily mode: the day's board, whatever the seed
            return daily_code(self.mode.id, self.day)
        drawn = int(self.np_random.integers(1 << 62))
        return code_from_text(f"twofold-rl:{drawn}")

    def _day_of(self, options: dict[str, Any]) -> date | None:
        if "daily" in options:
            return _as_day(options["daily"]) if self.mode.daily else None
        if not self.mode.daily:
            return None
        return self.day_given or utc_today()

    def _index(self, action: Any) -> int:
        """The action as an index of the action space, or a one-line ``ValueError``."""
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action[()]
        size = self.table.size
        if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
            raise ValueError(
                f"an action is a whole number from 0 to {size - 1}, not {quoted(action)}"
            )
        if not 0 <= action < size:
            raise ValueError(f"action {int(action)} is not in Discrete({size}): 0 to {size - 1}")
        return int(action)

    def _play(self, command: str) -> float:
        """Play ``command``; its reward."""
        episode = self.episode
        before = episode.state.score
        made: tuple[int, ...] = ()
        if self.reward != "score" and command != UNDO:
            outcome = episode.outcome(command)  # the events: each tile a merge made
            made = (
                tuple(e.value for e in outcome.events if isinstance(e, Merged)) if outcome else ()
            )
        episode.play(command)
        gained = episode.state.score - before
        if self.reward == "score":
            if abs(gained) > EXACT and not self._warned:
                self._warned = True
                warnings.warn(
                    f"a reward of {gained} is past float64's exact whole numbers (2**53) and "
                    "is rounded; reward='log2' keeps rewards small",
                    RuntimeWarning,
                    stacklevel=3,
                )
            return float(gained)
        if command == UNDO:  # an undo gives back what the step it undoes paid
            return -self._paid.pop() if self._paid else 0.0
        found = sum(math.log2(v) for v in made if v > 0)
        if self.reward == "normalised":
            found /= self.scale
        self._paid.append(found)
        return found

    def _mask_now(self) -> np.ndarray:
        if self._over():
            return np.zeros(self.table.size, dtype=np.int8)  # an ended game takes no action
        return self.controls.mask(self.episode, self.pending)

    def _over(self) -> bool:
        limit = self.mode.time_limit
        if limit is not None and self.steps * self.step_seconds >= limit:
            return True  # the clock has run out, whatever was being built
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


def _as_day(day: Any) -> date:
    if isinstance(day, date):
        return day
    try:
        return date.fromisoformat(str(day)[:QUOTED])
    except ValueError:
        raise ValueError(f"daily: {quoted(day)} is not a date (write it 2026-12-01)") from None


def _options(options: Any) -> dict[str, Any]:
    """``reset``'s options, checked: a dict of known keys, a code or a day, not both."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise ValueError(f"reset options are a dict, not {quoted(options)}")
    unknown = sorted(quoted(key) for key in set(options) - set(OPTIONS))
    if unknown:
        shown = ", ".join(unknown[:3]) + (", ..." if len(unknown) > 3 else "")
        raise ValueError(f"unknown reset options {shown}: the options are code and daily")
    if "code" in options and "daily" in options:
        raise ValueError("give a code or a daily date, not both")
    return options
