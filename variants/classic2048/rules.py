"""The rules of classic 2048 on an n x n board, as pure functions of immutable states.

The deal: every new tile uses exactly one draw, ``d = twofold.plugin.draw(code, draws)``,
where ``draws`` is how many draws the game has used so far (a state carries it, so undo
restores it and never rerolls). The tile lands on empty cell number ``d % e`` of the ``e``
empty cells counted in row-major order (top row first, left to right), and shows a 4 when
``(d >> 32) % 10 == 0`` (one time in ten), else a 2. A new game places two tiles, from
draws 0 and 1; after that each move that changes the board places one.

A move resolves every line from the wall moved towards, inwards (see
:func:`twofold.variants.classic2048.slide.trace_line`); a direction that changes nothing
is no move at all: no events, no new tile, the move counter stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from twofold.plugin import (
    Appeared,
    Board,
    Event,
    Merged,
    Moved,
    Outcome,
    PositionError,
    Refused,
    _,
    draw,
)
from twofold.variants.classic2048.slide import (
    CELL_BITS,
    DIRECTIONS,
    MAX_EXPONENT,
    Cell,
    Engine,
    engine,
    trace_line,
)

UNDO = "undo"
GOAL = 2048
UNDO_DEPTH = 2000
#: one draw in this many makes a 4
FOUR_ODDS = 10
#: boards whose legal directions the rules keep (a bound on their memory)
LEGAL_KEPT = 1 << 14
#: the legal directions for each set of moves that change a board (bit i: DIRECTIONS[i])
LEGAL_SETS = tuple(
    tuple(d for i, d in enumerate(DIRECTIONS) if moved >> i & 1) for moved in range(16)
)

_SPELLINGS: dict[str, tuple[str, ...]] = {
    # arrows, W A S D, and vim's h j k l
    "left": ("left", "a", "h", "arrowleft", "arrow-left", "arrow_left", "arrow left", "←"),
    "right": ("right", "d", "l", "arrowright", "arrow-right", "arrow_right", "arrow right", "→"),
    "up": ("up", "w", "k", "arrowup", "arrow-up", "arrow_up", "arrow up", "↑"),
    "down": ("down", "s", "j", "arrowdown", "arrow-down", "arrow_down", "arrow down", "↓"),
    UNDO: ("undo", "u", "z", "ctrl+z"),
}
_WORDS = {word: action for action, words in _SPELLINGS.items() for word in words}


# -- state ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SlideState:
    """One moment of a 2048 game. ``packed`` holds the board's exponents (see slide.py)."""

    code: str
    size: int
    packed: int
    score: int = 0
    moves: int = 0
    #: how many draws of the deal the game has used
    draws: int = 0

    @property
    def exponents(self) -> tuple[tuple[int, ...], ...]:
        return engine(self.size).unpack(self.packed)

    @property
    def board(self) -> Board:
        """Tile values, rows top first, 0 for an empty cell."""
        return engine(self.size).values(self.packed)

    @property
    def largest(self) -> int:
        return max((v for row in self.board for v in row), default=0)


# -- events --------------------------------------------------------------------------------


#: the core's event vocabulary, in 2048's words
Slide = Moved
Merge = Merged
Spawn = Appeared


@dataclass(frozen=True)
class SlideOutcome(Outcome):
    """An outcome that also says which direction was tried, so a no-move can be announced."""

    direction: str = ""


# -- rules ---------------------------------------------------------------------------------


class ClassicRules:
    """Classic 2048 on a ``size`` x ``size`` board (implements ``twofold.plugin.Rules``)."""

    undo_depth = UNDO_DEPTH

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self.engine: Engine = engine(size)
        #: each board's legal directions, once asked (cleared at LEGAL_KEPT boards)
        self._legal_of: dict[int, tuple[str, ...]] = {}

    # -- starting -----------------------------------------------------------------------

    def new_game(self, code: str) -> SlideState:
        state = SlideState(code=code, size=self.size, packed=0)
        for _tile in range(2):
            state, _cell, _value = self.spawn(state)
        return state

    def from_position(self, data: Mapping[str, Any], code: str) -> SlideState:
        n = self.size
        if not isinstance(data, Mapping):
            raise PositionError(_('a position is a JSON object with a "board"'))
        rows = data.get("board")
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            raise PositionError(_('the position needs "board": a list of rows, each a list'))
        if len(rows) != n or any(len(row) != n for row in rows):
            raise PositionError(_("the board must be {n} rows of {n} cells").format(n=n))
        exponents = []
        for r, row in enumerate(rows, start=1):
            line = []
            for c, value in enumerate(row, start=1):
                line.append(_exponent(value, r, c))
            exponents.append(line)
        score = _count(data, "score")
        moves = _count(data, "moves")
        return SlideState(code, n, self.engine.pack(exponents), score, moves)

    # -- playing ------------------------------------------------------------------------

    def parse(self, text: str) -> str:
        word = " ".join(text.strip().lower().split())
        action = _WORDS.get(word)
        if action is None:
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        return action

    def apply(self, state: SlideState, action: str) -> SlideOutcome:
        moved = self._moved(state, action)
        if moved is None:
            return SlideOutcome(state, (), action)
        after, cell, value = self.spawn(moved)
        events = (*self.move_events(state, action), Spawn(cell, value))
        return SlideOutcome(after, events, action)

    def advance(self, state: SlideState, action: str) -> SlideState:
        """The state after ``action`` without its events (``state`` itself if nothing moves):
        what replaying a proof needs, at a tenth of ``apply``'s cost."""
        move = self.engine.moves.get(action)
        if move is None:
            raise Refused(_("unknown command '{command}'").format(command=action))
        packed, gained = move(state.packed)
        if packed == state.packed:
            return state
        # one state made, not the slid one and then the one with its tile (as apply does)
        packed = self._tile(packed, state.code, state.draws)[0]
        return SlideState(
            state.code, state.size, packed, state.score + gained, state.moves + 1, state.draws + 1
        )

    def legal(self, state: SlideState) -> tuple[str, ...]:
        """The directions that move something, in the order of ``DIRECTIONS``."""
        return self._legal(state.packed)

    def _legal(self, packed: int) -> tuple[str, ...]:
        # memoised: a learning environment asks of each board for its mask, whether the
        # game is over, and for the proof at the game's end
        known = self._legal_of
        found = known.get(packed)
        if found is None:
            if len(known) >= LEGAL_KEPT:
                known.clear()
            found = known[packed] = LEGAL_SETS[self.engine.moving(packed)]
        return found

    def _moved(self, state: SlideState, action: str) -> SlideState | None:
        """The board slid (before its new tile), or None when nothing moves."""
        if action not in DIRECTIONS:
            raise Refused(_("unknown command '{command}'").format(command=action))
        packed, gained = self.engine.slide(state.packed, action)
        if packed == state.packed:
            return None
        return SlideState(
            state.code, state.size, packed, state.score + gained, state.moves + 1, state.draws
        )

    def spawn(self, state: SlideState) -> tuple[SlideState, Cell, int]:
        """Place the next tile of the deal on ``state``; the board must have an empty cell."""
        packed, index, exponent = self._tile(state.packed, state.code, state.draws)
        after = SlideState(
            state.code, state.size, packed, state.score, state.moves, state.draws + 1
        )
        return after, divmod(index, self.size), 1 << exponent

    def _tile(self, packed: int, code: str, draws: int) -> tuple[int, int, int]:
        """The board with draw ``draws``'s tile on it, the tile's cell index and exponent."""
        empty = self.engine.empty_cells(packed)
        d = draw(code, draws)
        index = empty[d % len(empty)]
        exponent = 2 if (d >> 32) % FOUR_ODDS == 0 else 1
        return packed | exponent << (index * CELL_BITS), index, exponent

    def move_events(self, state: SlideState, direction: str) -> list[Event]:
        """Every slide and merge of a move, line by line from the wall inwards."""
        packed = (
            state.packed if direction in ("left", "right") else self.engine.transpose(state.packed)
        )
        # each line is one packed row (of the board, or of its transpose for up and down)
        bits, mask = self.engine.row_bits, self.engine.row_mask
        slides: list[Event] = []
        merges: list[Event] = []
        for index in range(self.size):
            moved, made = line_events(self.size, direction, index, (packed >> index * bits) & mask)
            slides += moved
            merges += made
        return slides + merges

    def batch(self, count: int, log2: bool = False) -> Any:
        """``count`` games stepped at once in compiled code, the learning environments'
        vector (:mod:`.batch`; in Python where it was not compiled: ``compiled`` says)."""
        from twofold.variants.classic2048.batch import games

        return games(self.size, count, log2)

    def undo(self, previous: SlideState, current: SlideState) -> SlideState:
        return previous

    def is_over(self, state: SlideState) -> bool:
        return not self._legal(state.packed)

    # -- telling ------------------------------------------------------------------------

    def report(self, state: SlideState) -> dict[str, Any]:
        largest = state.largest
        return {"won": largest >= GOAL, "size": self.size, "largest": largest}

    def announce(self, before: SlideState, outcome: Outcome) -> str:
        direction = getattr(outcome, "direction", "")
        name = _direction_name(direction) if direction else ""
        if not outcome.changed:
            return _("{direction}: nothing moved.").format(direction=name or _("Move"))
        after = outcome.state
        if not direction:  # undo, or a change this variant did not make itself
            return _("Undone. Score {score}.").format(score=after.score)
        parts = []
        made = [str(e.value) for e in outcome.events if isinstance(e, Merge)]
        if made:
            parts.append(_("{direction}: made {tiles}.").format(direction=name, tiles=_and(made)))
        else:
            parts.append(_("{direction}.").format(direction=name))
        parts.append(_("Score {score}.").format(score=after.score))
        for event in outcome.events:
            if isinstance(event, Spawn):
                row, col = event.cell
                parts.append(
                    _("New {value} at row {row}, column {column}.").format(
                        value=event.value, row=row + 1, column=col + 1
                    )
                )
        if self.is_over(after):
            parts.append(_("No moves left: game over."))
        return " ".join(parts)

    def read_board(self, state: SlideState) -> list[str]:
        lines = []
        for r, row in enumerate(state.board, start=1):
            cells = ", ".join(str(v) if v else _("empty") for v in row)
            lines.append(_("Row {row}: {cells}").format(row=r, cells=cells))
        return lines

    def render_text(self, state: SlideState) -> str:
        """The grid, with its rows numbered on the left and its columns on top, from 1
        (as people count them, and as the announcements name a new tile's cell)."""
        rows = [[str(v) if v else "." for v in row] for row in state.board]
        size = len(rows)
        width = max(2, *(len(text) for row in rows for text in row))
        label = len(str(size))
        header = " " * (label + 1) + " ".join(str(c).rjust(width) for c in range(1, size + 1))
        lines = [
            str(r).rjust(label) + " " + " ".join(text.rjust(width) for text in row)
            for r, row in enumerate(rows, start=1)
        ]
        return "\n".join([header, *lines])

    def stats(self, state: SlideState) -> dict[str, int]:
        return {}


@lru_cache(maxsize=1 << 16)
def line_events(
    size: int, direction: str, index: int, row: int
) -> tuple[tuple[Event, ...], tuple[Event, ...]]:
    """The slides and the merges of line ``index`` of a move, the line read as one packed
    row (memoised: a game meets the same few rows again and again)."""
    eng = engine(size)
    cells = eng.lines(direction)[index]
    exponents = eng.row_cells(row)
    trace = trace_line(exponents[::-1] if direction in ("right", "down") else exponents)
    slides = tuple(Slide(cells[a], cells[b], 1 << e) for a, b, e in trace.slides)
    merges = tuple(Merge(cells[i], 1 << e) for i, e in trace.merges)
    return slides, merges


def _exponent(value: Any, row: int, col: int) -> int:
    where = _("row {row}, column {column}").format(row=row, column=col)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(_("the cell at {where} is not a whole number").format(where=where))
    if value == 0:
        return 0
    if value < 2 or value & (value - 1):
        raise PositionError(
            _("the cell at {where} holds {value}: a tile is a power of two from 2").format(
                where=where, value=value
            )
        )
    exponent = value.bit_length() - 1
    if exponent > MAX_EXPONENT:
        raise PositionError(
            _("the cell at {where} holds {value}: the largest tile is {largest}").format(
                where=where, value=value, largest=1 << MAX_EXPONENT
            )
        )
    return exponent


def _count(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PositionError(_('"{key}" must be a whole number from 0').format(key=key))
    return value


def _direction_name(direction: str) -> str:
    names = {"left": _("Left"), "right": _("Right"), "up": _("Up"), "down": _("Down")}
    return names.get(direction, direction)


def _and(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])
