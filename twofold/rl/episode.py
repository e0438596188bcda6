"""One episode: a game of a mode played through its rules, as the line protocol plays it.

The same calls as :class:`twofold.core.game.Game` (``Rules.parse`` then ``Rules.apply``,
``Rules.undo`` on the state before, an undo history as deep as the mode allows), so an
episode's commands replayed over ``twofold play MODE --code CODE --json`` give the same
boards and score; without what a player needs and a program does not (announcements,
the clock, the tiles reached), which would cost more than the move itself.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from twofold.core._capabilities import LegalActions
from twofold.core._events import Undone
from twofold.core._presentation import Status
from twofold.core._rules import Mode, Outcome, Refused
from twofold.core.game import UNDO, undo_depth
from twofold.core.proof import Proving

#: commands whose normal form an environment keeps (chains are many: a bound on memory)
WORDS_KEPT = 1 << 16


class Episode:
    """A game in play; ``outcome(command)`` asks the rules once per state and command.

    Where the mode's proof coder is a ``LegalActions``, ``accepts`` reads its
    ``legal(state)`` (every action that changes the state, asked once a state) and
    ``play`` its ``advance`` (the state without the events), unless ``quick`` is False;
    ``outcome`` always plays the command through ``Rules.apply``.
    """

    def __init__(
        self,
        mode: Mode,
        code: str,
        *,
        quick: bool = True,
        words: dict[str, str | None] | None = None,
        proving: bool = False,
    ) -> None:
        self.mode = mode
        self.rules = mode.rules
        coder = mode.proof if quick and isinstance(mode.proof, LegalActions) else None
        #: every action that changes a state (the proof coder's), else None: apply each
        self.legal = coder.legal if coder is not None else None
        #: the state after a legal action without its events, else None: apply it
        self.advance = getattr(coder, "advance", None)
        self._legal: frozenset[str] | None = None
        #: each command's normal form (shared by an env's episodes)
        self.words: dict[str, str | None] = {} if words is None else words
        self.code = code
        self.state: Any = self.rules.new_game(code)
        self.history: deque[Any] = deque(maxlen=undo_depth(mode) or None)
        self.depth = undo_depth(mode)
        #: every command that changed the game, in order (``undo`` included)
        self.log: list[str] = []
        #: the game's proof, written as it is played (one choice a step, no replay at the end)
        self.proving: Proving | None = Proving(mode, code, program=True) if proving else None
        self._asked: dict[str, Outcome | None] = {}
        self._status: Status | None = None

    def copy(self) -> Episode:
        twin = Episode.__new__(Episode)
        twin.__dict__.update(self.__dict__)
        twin.history = self.history.copy()
        twin.log = list(self.log)
        twin.proving = None if self.proving is None else self.proving.copy()
        twin._asked = dict(self._asked)
        return twin

    def outcome(self, command: str) -> Outcome | None:
        """What ``command`` does to the current state, or None when it changes nothing."""
        if command in self._asked:
            return self._asked[command]
        found: Outcome | None = None
        if command == UNDO:
            found = self._undo_outcome()
        else:
            action = self._action(command)
            if action is not None:
                try:
                    found = self.rules.apply(self.state, action)
                except Refused:
                    found = None
            if found is not None and not found.changed:
                found = None
        self._asked[command] = found
        return found

    def accepts(self, command: str) -> bool:
        if self.legal is None or command == UNDO or command in self._asked:
            return self.outcome(command) is not None
        if self._legal is None:
            self._legal = frozenset(self.legal(self.state))
        return self._action(command) in self._legal

    def accepted(self, commands: tuple[str, ...]) -> list[bool]:
        """:meth:`accepts` of each command, at once where the mode lists its legal actions."""
        if self.legal is None or self._asked:
            return [self.accepts(command) for command in commands]
        if self._legal is None:
            self._legal = frozenset(self.legal(self.state))
        legal, action = self._legal, self._action
        return [action(command) in legal for command in commands]

    def legal_now(self) -> tuple[str, ...] | None:
        """Every action that changes the state, as the mode lists them (None where it
        lists none): the same tuple, the same mask."""
        if self.legal is None or self._asked:
            return None
        return tuple(self.legal(self.state))

    def _action(self, command: str) -> str | None:
        """``Rules.parse`` of a command (a pure function: asked once a command), or None."""
        words = self.words
        if command in words:
            return words[command]
        try:
            action: str | None = self.rules.parse(command)
        except Refused:
            action = None
        if len(words) > WORDS_KEPT:
            words.clear()
        words[command] = action
        return action

    def play(self, command: str) -> None:
        """Play a command :meth:`accepts`."""
        if self.advance is not None and command != UNDO and command not in self._asked:
            # the state without the events, which no agent reads
            after = self.advance(self.state, self._action(command))
        else:
            outcome = self.outcome(command)
            assert outcome is not None, f"{command!r} changes nothing"
            after = outcome.state
        if command == UNDO:
            self.history.pop()
        elif self.depth:
            self.history.append(self.state)
        self.state = after
        self.log.append(command)
        if self.proving is not None:
            try:
                self.proving.played(command, after)
            except Exception:  # a mode's coder that fails: the proof is replayed at the end
                self.proving = None
        if self._asked:
            self._asked = {}
        self._status = None
        self._legal = None

    def status(self) -> Status:
        """The mode's status of the current state (asked once a state)."""
        if self._status is None:
            self._status = self.mode.status_of(self.state)
        return self._status

    def holds(self, powerup: str) -> bool:
        """Whether a power-up can be used now: some held, or offered for nothing."""
        status = self.status()
        return status.powerups.get(powerup, 0) > 0 or powerup in status.free

    def _undo_outcome(self) -> Outcome | None:
        if not self.history:
            return None
        try:
            return Outcome(self.rules.undo(self.history[-1], self.state), (Undone(),))
        except Refused:
            return None

    @property
    def over(self) -> bool:
        return bool(self.rules.is_over(self.state))
