"""The contract between the core and a variant: modes, rules, states and events.

A variant registers :class:`Mode` objects through the ``twofold_register_modes``
hook. Each mode carries a :class:`Rules` object: pure functions from an immutable
state and an action (a line of text, the same words as the JSON protocol) to a new
state and a list of :class:`Event` values describing what happened.

The core never looks inside a state beyond the :class:`State` protocol below. What
the app shows of a mode comes from the mode too: see :mod:`twofold.core._presentation`
for help, statistics, the top bar, power-ups and tutorials,
:mod:`twofold.core._capabilities` for the optional hint, autoplayer, sample and chain
judge, and :mod:`twofold.core._events` for the event vocabulary.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from twofold.core._capabilities import (
    ActionCoder,
    AutoplayerFactory,
    ChainJudge,
    HintFunction,
    SampleFunction,
    StateCodec,
)
from twofold.core._events import Event
from twofold.core._layout import Layout, layout_of
from twofold.core._presentation import (
    DEFAULT_GAUGES,
    DEFAULT_STATISTICS,
    FOUR_DIRECTIONS,
    Command,
    Direction,
    Gauge,
    PowerUp,
    Statistic,
    Status,
    TutorialPage,
)

Board = tuple[tuple[int, ...], ...]
#: the input styles of the contract: four directions, paths of touching cells, or a place
Controls = Literal["slide", "chain", "place"]
CONTROLS: tuple[str, ...] = get_args(Controls)
#: what a player picks with ``controls="place"``: a cell (``place R,C``) or a column (``place C``)
Place = Literal["cell", "column"]
PLACES: tuple[str, ...] = get_args(Place)


class Refused(Exception):
    """An action the rules do not allow; the message is a short reason for the player."""


class PositionError(ValueError):
    """A starting position (``--position``) that the rules cannot use; one-line message."""


@runtime_checkable
class State(Protocol):
    """What the core reads of every variant's state. States are immutable values."""

    @property
    def code(self) -> str: ...

    @property
    def board(self) -> Board:
        """Rows top first, ``0`` for an empty cell."""
        ...

    @property
    def score(self) -> int: ...

    @property
    def moves(self) -> int:
        """Actions that changed the game (2048 moves, 2248 merges and power-ups)."""
        ...


@dataclass(frozen=True)
class Outcome:
    """The result of applying an action: the new state and what happened on the way."""

    state: Any
    """the state after the action (the same state when nothing changed)"""
    events: tuple[Event, ...] = ()
    """what happened, in order (see the event vocabulary); none means no change"""

    @property
    def changed(self) -> bool:
        return bool(self.events)


@runtime_checkable
class Rules(Protocol):
    """The pure rules of one mode. Every method is a function of its arguments only.

    Runtime-checkable: ``isinstance(rules, Rules)`` says whether an object has every
    member; the plugin manager names the missing ones (RULES_MEMBERS) to refuse a mode.
    """

    undo_depth: int
    """how many earlier states undo may return to (0 for none)"""

    def new_game(self, code: str) -> Any:
        """The opening state for ``code``."""
        ...

    def from_position(self, data: Mapping[str, Any], code: str) -> Any:
        """A state from a JSON position (``{"board": [[...]], ...}``); raise PositionError."""
        ...

    def parse(self, text: str) -> str:
        """Normalise a typed command (``"l"`` → ``"left"``); raise Refused if unknown."""
        ...

    def apply(self, state: Any, action: str) -> Outcome:
        """Apply a normalised action. Raise Refused if illegal; no events means no change."""
        ...

    def undo(self, previous: Any, current: Any) -> Any:
        """The state that undoing ``current`` gives, ``previous`` being the one before it.

        Raise Refused when undo is not allowed now (for example no Undo power-up).
        """
        ...

    def is_over(self, state: Any) -> bool:
        """Whether no action can change the game any more."""
        ...

    def report(self, state: Any) -> dict[str, Any]:
        """Extra JSON protocol fields for this mode (``won``, ``powerups``, ...)."""
        ...

    def announce(self, before: Any, outcome: Outcome) -> str:
        """One line that tells a player what the action did."""
        ...

    def read_board(self, state: Any) -> list[str]:
        """The whole board in words, one line per row, for R and screen readers."""
        ...

    def render_text(self, state: Any) -> str:
        """The board as aligned plain text, for ``--plain``."""
        ...

    def stats(self, state: Any) -> dict[str, int]:
        """Per-game numbers for records beyond score and largest tile (may be empty)."""
        ...


def protocol_members(protocol: type) -> tuple[str, ...]:
    """The attributes, then the methods, that a Protocol class declares, in its order."""
    attributes = list(vars(protocol).get("__annotations__", {}))
    methods = [n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")]
    return (*attributes, *methods)


#: what every mode's rules must have, read off the Protocol (so the two cannot drift)
RULES_MEMBERS = protocol_members(Rules)
#: Mode.extras when a plugin passes none (the one a plugin that passes one is warned of)
_NO_EXTRAS: Mapping[str, Any] = MappingProxyType({})


#: what a plugin that passes Mode(extras=...) is told (stacklevel 3: its Mode(...) call)
EXTRAS_DEPRECATED = (
    "Mode.extras is deprecated and will be removed: twofold never reads it; keep your "
    "plugin's own data on its rules object (Mode.rules) or in its own module instead"
)


@dataclass(frozen=True)
class Mode:
    """One playable mode: its own menu entry, save slot and records."""

    id: str
    """the mode's id: command line (``twofold play fib``), saves, records, share strings;
    matched case-insensitively; no spaces, no ``/``
    """
    title: str
    """the name a player sees (menu, top bar, ``--plain``); pass it through ``_()``"""
    rules: Rules
    """the rules object (may be shared by several modes)"""
    family: str = ""
    """modes of one family share a name on the command line: ``play 2048 --size 5`` picks
    ``2048-5x5``; the mode's ``id`` when not given. A tutorial is shown once per family
    """
    size: int | None = None
    """the board size, for ``--size``"""
    description: str = ""
    """one sentence for the menu"""
    daily: bool = False
    """a daily mode: its code comes from the UTC date, the same for every player; a save
    from an earlier day is not resumed (today's board starts, the earlier game is
    recorded); the day's first game counts, later tries that day are practice, never
    counted; a day joins the streak when its daily game is over or reaches the goal
    """
    time_limit: float | None = None
    """seconds of play after which the game ends (``Refused("the time is up")``), or None;
    the top bar's ``clock`` gauge counts it down
    """
    controls: str = "slide"
    """how the app takes input: "slide" (its ``directions``), "chain" (paths of cells) or
    "place" (one place on the board: a cell or a column, as ``place`` says)
    """
    place: str = "cell"
    """for place controls: "cell" (the action is ``place R,C``) or "column" (``place C``)"""
    goal: int | None = None
    """the tile whose first appearance is announced as a win ("You reached 2584!", Keep
    going), or None for a game with no goal
    """
    next_goal: int | None = None
    """the tile the win dialog names as the next aim ("Keep going towards 4181"); None: twice
    the goal when the goal is a power of two, else no number at all
    """
    milestone: int = 0
    """new highest tiles from this value up are celebrated with a banner over a chain board
    (2248: 512); 0 for none
    """
    help: str = ""
    """the rules in the mode's own words, as Markdown, for Help (its keys too); "" shows only
    the keys every mode shares
    """
    statistics: tuple[Statistic, ...] = DEFAULT_STATISTICS
    """what Statistics and ``twofold stats`` show beyond the figures every mode has"""
    gauges: tuple[Gauge, ...] = DEFAULT_GAUGES
    """the top bar's items, in order; by default score, best, moves and code"""
    powerups: tuple[PowerUp, ...] = ()
    """the power-ups the mode offers (their counts come from ``status``); () shows no
    power-up bar at all
    """
    tutorial: tuple[TutorialPage, ...] = ()
    """pages shown once on the first game of the mode's family, and again from Help"""
    status: Callable[[Any], Status] | None = None
    """what a state shows beyond board and score: the values of the mode's own gauges,
    power-ups held, rescues, why the game ended (``status_of`` gives an empty ``Status``
    for a mode without one)
    """
    hint: HintFunction | None = None
    """the hint capability (H on a chain screen, I on a slide screen where H moves left;
    ``hint`` in the line modes), or None
    """
    autoplayer: AutoplayerFactory | None = None
    """makes the autoplayer of Watch the solver and ``twofold solve``, or None"""
    sample: SampleFunction | None = None
    """the mode's stored game to watch (Sample), or None"""
    judge: ChainJudge | None = None
    """for chain controls: judges a chain while it is drawn (its preview value, or why a
    tile cannot join), or None: no preview; for a place mode, the cell or column aimed at
    """
    commands: tuple[Command, ...] = ()
    """commands the rules take beyond those of the controls and power-ups: the line modes
    list them, and the app offers each that takes nothing in its palette, on its keys
    """
    extras: Mapping[str, Any] = field(default_factory=lambda: _NO_EXTRAS)
    """deprecated: twofold never reads it, and passing it warns; it still reads back as
    given. Keep a plugin's own data on its rules object or in its own module
    """
    codec: StateCodec | None = None
    """writes states as JSON, so a long save resumes from a checkpoint (None: full replay)"""
    proof: ActionCoder | None = None
    """writes actions as a few choices each, for short proofs (None: each as its text)"""
    directions: tuple[Direction, ...] = ()
    """a slide mode's own directions, any number, each with its keys, glyph and swipe angle
    (see the how-to on controls); (): 2048's four (``FOUR_DIRECTIONS``)
    """
    layout: Layout | None = None
    """the board's shape: which places of its rows are cells and where each is drawn
    (``Layout.hexagon(2)``, ``Layout.at({...})``; see the how-to on board shapes); every
    other place holds ``NO_CELL``. None: every place is a cell, a rectangle"""

    def __post_init__(self) -> None:
        if not self.family:
            object.__setattr__(self, "family", self.id)
        if self.extras is not _NO_EXTRAS:
            warnings.warn(EXTRAS_DEPRECATED, DeprecationWarning, stacklevel=3)

    def slide_directions(self) -> tuple[Direction, ...]:
        """The directions a slide mode moves in: its own, or 2048's four."""
        return self.directions or FOUR_DIRECTIONS

    def layout_of(self, board: Board) -> Layout:
        """The board's layout: the mode's own, or the rectangle of ``board``'s rows."""
        return layout_of(self.layout, board)

    def status_of(self, state: Any) -> Status:
        """The mode's status of ``state`` (empty when the mode shows none)."""
        return self.status(state) if self.status is not None else Status()

    def aim_after_goal(self) -> int | None:
        """The tile named after the goal is reached: ``next_goal``, or the goal doubled
        when it is a power of two (2048 -> 4096), else None (the dialog names no number)."""
        if self.next_goal is not None:
            return self.next_goal
        goal = self.goal
        if goal is not None and goal > 1 and goal & (goal - 1) == 0:
            return goal * 2
        return None


def largest_tile(board: Board) -> int:
    return max((v for row in board for v in row), default=0)


def tile_values(board: Board) -> set[int]:
    """The tiles on ``board``: neither its empty cells, nor its stones, nor its no-cells."""
    return {v for row in board for v in row if v > 0}


def as_board(rows: Sequence[Sequence[int]]) -> Board:
    return tuple(tuple(int(v) for v in row) for row in rows)
