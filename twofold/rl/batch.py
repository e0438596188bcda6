"""The batched 2048: ``num_envs`` games stepped at once, in compiled code, as one vector.

``gymnasium.make_vec("twofold/2048-v0", num_envs=1024, vectorization_mode=
"vector_entry_point")`` (also 5x5, 6x6 and daily) makes a :class:`BatchEnv`: one call of
``step`` plays one move of every game in C (``ClassicRules.batch``, reached through the
mode's rules object: a mode whose rules have ``batch(count, log2)`` gets one). numpy
arrays in and out, the observations and masks of ``twofold/2048-v0`` stacked; next-step
autoreset, as Gymnasium's own vectors; the human deal, so a game's code and moves replay
in the app; ``result(i)`` gives game ``i``'s last ended episode as a result ``twofold
verify`` accepts. ``threads=2`` steps halves of the batch on two cores (the compiled batch's
own threads, else a pool of Python threads).
"""

from __future__ import annotations

import itertools
import warnings
from concurrent.futures import ThreadPoolExecutor, wait
from datetime import date
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from twofold.core.daily import daily_code, utc_today
from twofold.rl.actions import DIRECTIONS
from twofold.rl.env import REWARDS, _as_day, mode_of, quoted
from twofold.rl.episode import Episode
from twofold.rl.observation import MOST
from twofold.rl.registration import batched
from twofold.rl.result import result_of

#: said once a process where the batch runs in Python
SLOW = (
    "twofold's compiled batch is not built here (no C compiler when it was installed): "
    "the batched 2048 steps its games in Python, about a hundred times slower"
)


class BatchEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` games of one sliding mode, stepped at once (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (read off the class)

    def __init__(
        self,
        mode: str = "2048",
        num_envs: int = 1,
        *,
        reward: str = "score",
        day: date | str | None = None,
        threads: int = 1,
        max_episode_steps: int | None = None,
        **ignored: Any,
    ) -> None:
        self.mode = mode_of(mode)
        if not batched(self.mode):
            raise ValueError(f"mode {quoted(self.mode.id)} has no batch: use async or sync")
        if reward not in REWARDS:
            raise ValueError(f"reward {quoted(reward)}: the rewards are {', '.join(REWARDS)}")
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs {quoted(num_envs)}: a whole number from 1")
        self.num_envs = num_envs
        self.reward = reward
        size = int(self.mode.size or 4)
        self.games = self.mode.rules.batch(num_envs, reward != "score")
        #: False where the batch steps in Python (it was not compiled here)
        self.compiled = bool(getattr(self.games, "compiled", True))
        if not self.compiled:
            warnings.warn(SLOW, RuntimeWarning, stacklevel=2)
        self.day_given = None if day is None else _as_day(day)
        self.day: date | None = None
        self.threads = max(1, int(threads))
        self._pool: ThreadPoolExecutor | None = None
        if self.threads > 1:
            # the compiled batch's own threads where it has them (a step's parts handed over
            # in C, some microseconds), else Python's, each part a call
            own = getattr(self.games, "threads", None)
            if own is None or own(self.threads) < self.threads:
                self._pool = ThreadPoolExecutor(self.threads - 1)
        self.single_action_space = gym.spaces.Discrete(len(DIRECTIONS))
        self.action_space = gym.spaces.MultiDiscrete(np.full(num_envs, len(DIRECTIONS)))
        self.single_observation_space = gym.spaces.Box(0, MOST, (size, size), np.uint8)
        self.observation_space = gym.spaces.Box(0, MOST, (num_envs, size, size), np.uint8)
        self._obs = np.zeros((num_envs, size, size), np.uint8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminated = np.zeros(num_envs, np.bool_)
        self._masks = np.zeros((num_envs, len(DIRECTIONS)), np.int8)
        self._scores = np.zeros(num_envs, np.int64)
        self._actions = np.zeros(num_envs, np.int64)
        #: the arrays step() fills, flat, in the order the batch takes them
        self._stepped = [
            a.reshape(-1)
            for a in (
                self._actions,
                self._obs,
                self._rewards,
                self._terminated,
                self._masks,
                self._scores,
            )
        ]
        self._scale = 1.0 / 11.0 if self.mode.goal is None else 1.0 / np.log2(self.mode.goal)
        self._np_random = np.random.default_rng()

    # -- the Gymnasium API --------------------------------------------------------------

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        options = options or {}
        unknown = sorted(quoted(key) for key in set(options) - {"daily"})
        if unknown:
            raise ValueError(f"unknown reset options {', '.join(unknown[:3])}: the option is daily")
        self.day = None
        if "daily" in options or self.mode.daily:
            day = _as_day(options["daily"]) if "daily" in options else None
            self.day = day or self.day_given or utc_today()
            self.games.fix(daily_code(self.mode.id, self.day))
        else:
            self.games.fix(None)
        # each reset plays new games: those of a key from the seeded generator
        self.games.seed(int(self._np_random.integers(2**63)))
        self._run(self.games.reset, self._obs, self._masks, self._scores)
        return self._obs.copy(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        found = np.asarray(actions)
        if found.shape != (self.num_envs,) or found.dtype.kind not in "iu":
            raise ValueError(
                f"actions are {self.num_envs} whole numbers from 0 to 3, "
                f"not an array of {found.dtype} shaped {found.shape}"
            )
        np.copyto(self._actions, found, casting="unsafe")
        if self._pool is None:
            self.games.step(*self._stepped)
        else:
            self._threaded(self.games.step, self._stepped)
        rewards = self._rewards * self._scale if self.reward == "normalised" else self._rewards
        return (
            self._obs.copy(),
            rewards.copy(),
            self._terminated.copy(),
            np.zeros(self.num_envs, np.bool_),
            self._info(),
        )

    def close_extras(self, **kwargs: Any) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
        if self.threads > 1 and hasattr(self.games, "threads"):
            self.games.threads(1)

    def action_masks(self) -> np.ndarray:
        """The legal moves of every game, as booleans (sb3-contrib's MaskablePPO asks)."""
        return self._masks.astype(bool)

    # -- results ------------------------------------------------------------------------

    def finished(self, index: int) -> tuple[str, tuple[str, ...], int] | None:
        """Game ``index``'s last ended episode: its code, its moves and its score."""
        found = self.games.finished(index)
        if found is None:
            return None
        code, moves, score = found
        return code, tuple(DIRECTIONS[m] for m in moves), int(score)

    def result(self, index: int) -> str | None:
        """The result of game ``index``'s last ended episode, which ``twofold verify``
        accepts (its proof written by replaying it: some milliseconds), or None."""
        found = self.finished(index)
        if found is None:
            return None
        code, moves, _score = found
        return self._result(code, moves)

    def result_now(self, index: int) -> str:
        """The result of game ``index``'s episode so far."""
        code, moves = self.games.playing(index)
        return self._result(code, tuple(DIRECTIONS[m] for m in moves))

    # -- inside -------------------------------------------------------------------------

    def _result(self, code: str, moves: tuple[str, ...]) -> str:
        episode = Episode(self.mode, code, proving=True)
        for move in moves:
            episode.play(move)
        return result_of(episode, self.day)

    def _run(self, call: Any, *arrays: np.ndarray) -> None:
        flat = [array.reshape(-1) for array in arrays]  # views: no copy
        if self._pool is None:
            call(*flat)
            return
        self._threaded(call, flat)

    def _threaded(self, call: Any, flat: list[np.ndarray]) -> None:
        """``call`` on ``threads`` parts of the batch at once: the last part in this thread
        (the compiled batch lets go of the GIL), the others in the pool."""
        assert self._pool is not None
        bounds = np.linspace(0, self.num_envs, self.threads + 1).astype(int).tolist()
        parts = [self._pool.submit(call, *flat, a, b) for a, b in itertools.pairwise(bounds[:-1])]
        try:
            call(*flat, bounds[-2], bounds[-1])
        finally:
            wait(parts)  # no part runs on once this returns, whatever it raises
        for part in parts:
            part.result()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._masks.copy(), "score": self._scores.copy()}
