"""Optional capabilities a mode may offer: a hint, an autoplayer, a sample game, a chain judge,
a state codec, an action coder for proofs.

Each is a field of :class:`twofold.core._rules.Mode` that is ``None`` when the mode
does not offer it; the app shows an action only where the mode offers it (Hint,
Watch the solver and ``twofold solve``, Sample, the chain preview). Like the rules,
each is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from twofold.core._events import Cell


@dataclass(frozen=True)
class Hint:
    """A suggested action: the command (``"left"``, ``"chain 0,0 0,1"``) and the cells it uses."""

    action: str
    """the suggested command, as ``Rules.apply`` takes it"""
    cells: tuple[Cell, ...] = ()
    """the cells it uses, for the board to show"""


class Autoplayer(Protocol):
    """Plays a mode by itself (Watch the solver, ``twofold solve``).

    It may also have a ``compiled`` attribute (read with :func:`compiled_search`): True when
    its compiled part runs, False when it has one that was not built here (it plays the
    same, only slower, and ``twofold solve`` and ``twofold --version`` say so), and None,
    or no attribute at all, when it has no compiled part.
    """

    def choose(self, state: Any) -> str | None:
        """The next action (as ``Rules.apply`` takes it), or None to stop playing."""
        ...


def compiled_search(autoplayer: Autoplayer) -> bool | None:
    """An autoplayer's ``compiled`` fact: True, False (not built: slower), or None (none)."""
    found = getattr(autoplayer, "compiled", None)
    return None if found is None else bool(found)


#: makes an autoplayer; the argument is ``--depth`` (None for the mode's default)
AutoplayerFactory = Callable[[int | None], Autoplayer]


@dataclass(frozen=True)
class Sample:
    """A stored game to watch: its code and actions. Games on its code never count."""

    code: str
    """the game code the sample is played on"""
    actions: tuple[str, ...]
    """its actions, as the log keeps them"""


@dataclass(frozen=True)
class Verdict:
    """A partial chain judged by the mode's rules.

    ``value`` is the tile the chain would make if released now (0 while it is not a
    chain yet); ``reason`` says why the last cell cannot join ("" when it can).
    """

    value: int = 0
    """the tile the chain would make if released now (0 while it is not a chain yet)"""
    reason: str = ""
    """why the last cell cannot join ("" when it can)"""

    @property
    def fits(self) -> bool:
        return not self.reason


#: judges the cells of a chain being drawn on a state's board
ChainJudge = Callable[[Any, Sequence[Cell]], Verdict]
#: the hint for a state, or None when there is nothing to suggest
HintFunction = Callable[[Any], Hint | None]
#: the mode's sample game, loaded when asked for (None when it has none for this board)
SampleFunction = Callable[[], Sample | None]


@runtime_checkable
class StateCodec(Protocol):
    """Writes a mode's states as JSON values and reads them back (``Mode.codec``).

    With it, a save keeps a checkpoint of the game every so many actions, and resuming
    replays only the actions since (see :mod:`twofold.core.checkpoint`); without it a
    save is replayed from its first action, as always. ``decode(encode(s)) == s`` must
    hold for every state the rules make, and ``decode`` raises ValueError (or KeyError,
    TypeError) for data it did not write: such a checkpoint is ignored, never trusted.
    """

    def encode(self, state: Any) -> Any:
        """``state`` as a JSON value (dicts, lists, strings, ints, floats, bools, None)."""
        ...

    def decode(self, data: Any) -> Any:
        """The state ``encode`` wrote as ``data``; raise ValueError if it is not one."""
        ...


#: the weights of one choice's options (an option of weight 0 cannot be chosen)
Weights = Sequence[int]
#: reads one choice of a proof back: called with the options' weights, gives the index chosen
Pick = Callable[[Weights], int]


@runtime_checkable
class ActionCoder(Protocol):
    """Writes a mode's actions as choices, for compact proofs (``Mode.proof``).

    A proof (:mod:`twofold.core.proof`) is a game's whole log. Without this capability
    each action is written as its text (about 8 bits a character, less for an action
    seen before); with it, as the few choices that pick it out in its state: ``encode``
    gives ``(index, weights)`` pairs, and ``decode`` asks for the same choices, in the
    same order, through ``pick``. An option costs about ``log2(total / weight)`` bits,
    so an action that is one of four legal ones costs two. Both are pure functions of
    the state. ``version`` names the rules: raise it whenever a logged action would play
    differently, so an old proof is refused by name rather than replayed wrongly.

    It may also have ``advance(state, action)``: the state after a legal action without
    its events (the same state for an action that changes nothing), which verifying
    uses instead of ``Rules.apply`` where it is faster.
    """

    version: int

    def encode(self, state: Any, action: str) -> Sequence[tuple[int, Weights]] | None:
        """``action`` (as the log keeps it) as choices, or None to write it as its text."""
        ...

    def decode(self, state: Any, pick: Pick) -> str:
        """The action ``encode`` wrote, read back with ``pick``; raise ValueError if none."""
        ...


class LegalActions:
    """An :class:`ActionCoder` from the mode's legal actions in order: an action is its rank.

    ``legal(state)`` lists every action that changes ``state``, the same list for the
    same state; an action not in it is written as its text.
    """

    def __init__(
        self,
        legal: Callable[[Any], Sequence[str]],
        version: int = 1,
        advance: Callable[[Any, str], Any] | None = None,
    ) -> None:
        self.legal = legal
        self.version = version
        if advance is not None:
            self.advance = advance

    def encode(self, state: Any, action: str) -> Sequence[tuple[int, Weights]] | None:
        actions = list(self.legal(state))
        if action not in actions:
            return None
        return [(actions.index(action), [1] * len(actions))]

    def decode(self, state: Any, pick: Pick) -> str:
        actions = list(self.legal(state))
        if not actions:
            raise ValueError("no action is legal here")
        return actions[pick([1] * len(actions))]
