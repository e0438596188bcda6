"""A game in play: the current state, its undo history, its log and its clock.

A game *is* its log: the mode, the code (or a starting position) and the actions
taken, ``undo`` included. :meth:`Game.replay` folds the log through the rules and
so rebuilds the board, the score and the undo history exactly.
"""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from twofold.core._events import Undone
from twofold.core._i18n import _
from twofold.core._rules import Event, Mode, Outcome, Refused, largest_tile, tile_values

Clock = Callable[[], float]
UNDO = "undo"
#: the most states undo can step back through, whatever a variant asks for
MAX_HISTORY = 2000


def undo_depth(mode: Mode) -> int:
    """How many states undo can step back through in a game of ``mode``."""
    return min(mode.rules.undo_depth, MAX_HISTORY)


class ReplayError(ValueError):
    """A log that does not replay under the current rules."""


@dataclass(frozen=True)
class Step:
    """What one command did to a game."""

    action: str
    outcome: Outcome
    announcement: str
    #: the first time the mode's goal tile appeared in this game
    reached_goal: bool = False

    @property
    def changed(self) -> bool:
        return self.outcome.changed

    @property
    def events(self) -> tuple[Event, ...]:
        return self.outcome.events


@dataclass
class Flags:
    """Facts about a game that its log alone does not say."""

    won: bool = False
    kept_going: bool = False
    #: never counted towards records (a position, the Sample, the solver)
    uncounted: bool = False
    #: played by a program (Watch the solver, an agent): a proof says so
    solver: bool = False
    #: the mode's hint was shown during the game: a proof says so
    hinted: bool = False
    #: a later try of a daily board already played that day (never counted)
    practice: bool = False
    #: the player ended the game (End game on a stuck board): it is over, whatever the board
    ended: bool = False

    def as_dict(self) -> dict[str, bool]:
        return {k: v for k, v in vars(self).items() if v}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Flags:
        return cls(**{k: bool(data[k]) for k in vars(cls()) if k in data})


@dataclass
class Game:
    mode: Mode
    code: str
    state: Any
    position: Mapping[str, Any] | None = None
    log: list[str] = field(default_factory=list)
    flags: Flags = field(default_factory=Flags)
    clock: Clock = time.monotonic
    history: deque[Any] = field(default_factory=deque)
    #: every tile value this game has shown on its way to the current state (the records'
    #: tile strip); an undone action takes its tiles back with it
    reached: set[int] = field(default_factory=set)
    #: ``reached`` before each state of ``history``, so undo gives it back too
    reached_history: deque[frozenset[int]] = field(default_factory=deque)
    #: identifies this game's row in the history of finished games
    game_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    _banked: float = 0.0
    _running_since: float | None = None

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(
        cls,
        mode: Mode,
        code: str,
        *,
        position: Mapping[str, Any] | None = None,
        clock: Clock = time.monotonic,
    ) -> Game:
        """A new game of ``mode`` from ``code``, or from a starting ``position``."""
        state = (
            mode.rules.from_position(position, code)
            if position is not None
            else mode.rules.new_game(code)
        )
        game = cls(mode=mode, code=code, state=state, position=position, clock=clock)
        if position is not None:
            game.flags.uncounted = True
        game.flags.won = game._goal_reached()
        game.reached = tile_values(state.board)
        return game

    @classmethod
    def replay(
        cls,
        mode: Mode,
        code: str,
        actions: Iterable[str],
        *,
        position: Mapping[str, Any] | None = None,
        clock: Clock = time.monotonic,
    ) -> Game:
        """Rebuild a game from its log; raise ReplayError if any action is refused."""
        game = cls.start(mode, code, position=position, clock=clock)
        game.play_on(actions)
        return game

    def play_on(self, actions: Iterable[str]) -> None:
        """Replay ``actions`` after those of the log; raise ReplayError if any is refused."""
        for number, action in enumerate(actions, start=len(self.log) + 1):
            try:
                step = self.act(action)
            except Refused as refusal:
                raise ReplayError(f"action {number} ({action!r}) was refused: {refusal}") from None
            if not step.changed:
                raise ReplayError(f"action {number} ({action!r}) changed nothing")

    # -- play ---------------------------------------------------------------------------

    @property
    def rules(self) -> Any:
        return self.mode.rules

    @property
    def undo_depth(self) -> int:
        return undo_depth(self.mode)

    def act(self, text: str) -> Step:
        """Apply one command. Raises Refused, leaving the game untouched, if not allowed."""
        if self.time_up:
            raise Refused(_("the time is up"))
        if self.flags.ended:
            raise Refused(_("The game is over."))
        action = self.rules.parse(text)
        before = self.state
        if action == UNDO:
            outcome = self._undo()
        else:
            outcome = self.rules.apply(before, action)
            if outcome.changed:
                if self.undo_depth:
                    self.history.append(before)
                    self.reached_history.append(frozenset(self.reached))
                    while len(self.history) > self.undo_depth:
                        self.history.popleft()
                    while len(self.reached_history) > len(self.history):
                        self.reached_history.popleft()
                self.state = outcome.state
                self.reached |= tile_values(self.state.board)
        if outcome.changed:
            self.log.append(action)
        reached = False
        if outcome.changed and not self.flags.won and self._goal_reached():
            self.flags.won = reached = True
        return Step(action, outcome, self.rules.announce(before, outcome), reached)

    @contextmanager
    def all_or_nothing(self) -> Iterator[None]:
        """A block of play that completes, or leaves the game as it was before it.

        For a fault of the rules (anything but ``Refused``, which never changes the game):
        the state, the undo history, the log, the tiles reached and the flags come back.
        """
        state, history, log_length = self.state, self.history.copy(), len(self.log)
        reached, reached_history = set(self.reached), self.reached_history.copy()
        flags = dataclasses.replace(self.flags)
        try:
            yield
        except Refused:
            raise
        except Exception:
            self.state, self.history, self.flags = state, history, flags
            self.reached, self.reached_history = reached, reached_history
            del self.log[log_length:]
            raise

    def _undo(self) -> Outcome:
        if not self.history:
            raise Refused(_("nothing to undo"))
        state = self.rules.undo(self.history[-1], self.state)
        self.history.pop()
        if self.reached_history:
            self.reached = set(self.reached_history.pop())
        self.state = state
        return Outcome(state, (Undone(),))

    def _goal_reached(self) -> bool:
        goal = self.mode.goal
        return goal is not None and largest_tile(self.state.board) >= goal

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    @property
    def over(self) -> bool:
        return self.flags.ended or self.time_up or self.rules.is_over(self.state)

    @property
    def started(self) -> bool:
        """Whether any action has been taken (a game worth counting or confirming)."""
        return bool(self.log)

    # -- the clock ----------------------------------------------------------------------

    @property
    def elapsed(self) -> float:
        seconds = self._banked
        if self._running_since is not None:
            seconds += max(0.0, self.clock() - self._running_since)
        limit = self.mode.time_limit
        # a timed game is never played longer than its limit, however late the clock is read
        return seconds if limit is None else min(seconds, limit)

    @elapsed.setter
    def elapsed(self, seconds: float) -> None:
        self._banked = seconds
        if self._running_since is not None:
            self._running_since = self.clock()

    @property
    def running(self) -> bool:
        return self._running_since is not None

    def resume(self) -> None:
        if self._running_since is None:
            self._running_since = self.clock()

    def pause(self) -> None:
        if self._running_since is not None:
            self._banked = self.elapsed
            self._running_since = None

    @property
    def time_left(self) -> float | None:
        limit = self.mode.time_limit
        return None if limit is None else max(0.0, limit - self.elapsed)

    @property
    def time_up(self) -> bool:
        left = self.time_left
        return left is not None and left <= 0.0
