"""The rules of the Fibonacci sliding game, as pure functions of immutable states.

Tiles are Fibonacci numbers: 1, 2, 3, 5, 8, 13, ... A move pushes every line towards
one wall. Walking each line from that wall inwards, a tile *adds up* with the tile it
meets when the two are neighbours in the sequence (1 and 2, 2 and 3, 3 and 5, ...) or
both are 1; the new tile is their sum, the next Fibonacci number, and it does not add
up again in the same move. Two equal tiles other than 1s never join.

Every event is one of twofold's vocabulary (``twofold.core.events``), so the app
animates a push like any slide: a tile that moves is ``Moved``, two tiles that add up
are ``Merged`` (``cells`` are where the two came from, the one nearer the wall first),
and a birth is ``Appeared``.

The deal: a birth (a new tile) uses two draws of ``twofold.core.deal``: draw ``n`` picks
the empty cell (``below(code, n, empties)``, cells counted row by row from the top
left), draw ``n + 1`` its value (a 2 when ``chance(code, n + 1) < 0.1``, else a 1). A
new game has two births, every move that changes the board one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    Appeared,
    Board,
    Cell,
    Event,
    Merged,
    Moved,
    Outcome,
    PositionError,
    Refused,
    _,
    below,
    chance,
)


def _sequence(count: int) -> tuple[int, ...]:
    terms = [1, 2]
    while len(terms) < count:
        terms.append(terms[-1] + terms[-2])
    return tuple(terms)


#: 1, 2, 3, 5, 8 ... far beyond anything a board can hold
SEQUENCE = _sequence(40)
RANK: dict[int, int] = {value: rank for rank, value in enumerate(SEQUENCE)}
GOAL = 2584
#: one birth in this many is a 2
TWO_CHANCE = 0.1
UNDO = "undo"

_SPELLINGS: dict[str, tuple[str, ...]] = {
    # the keys twofold's own sliding boards take: arrows, W A S D and vim's h j k l
    "left": ("left", "a", "h", "←", "arrow left", "arrowleft"),
    "right": ("right", "d", "l", "→", "arrow right", "arrowright"),
    "up": ("up", "w", "k", "↑", "arrow up", "arrowup"),
    "down": ("down", "s", "j", "↓", "arrow down", "arrowdown"),
    UNDO: ("undo", "u", "z", "ctrl+z"),
}
_WORDS = {word: action for action, words in _SPELLINGS.items() for word in words}


def add_up(a: int, b: int) -> int:
    """The tile that ``a`` and ``b`` make when they meet, or 0 if they stay apart."""
    if not (a and b):
        return 0
    if a == b == 1 or abs(RANK[a] - RANK[b]) == 1:
        return a + b
    return 0


# -- state and outcome -----------------------------------------------------------------------


@dataclass(frozen=True)
class FibState:
    """One moment of a Fibonacci game (the board holds the tiles, 0 for an empty cell)."""

    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far: undo brings it back, so a redo meets the same births
    draws: int = 0
    #: how many times two tiles added up in this game (kept in the records)
    sums: int = 0

    @property
    def largest(self) -> int:
        return max((v for row in self.board for v in row), default=0)


@dataclass(frozen=True)
class Push(Outcome):
    """An outcome that remembers the direction pushed, so 'nothing moved' can be told."""

    direction: str = ""


# -- one line --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settled:
    """One line after a push, positions counted from the wall."""

    values: tuple[int, ...]
    #: (from, to, value) for every tile that moved
    shifts: tuple[tuple[int, int, int], ...]
    #: (where, first's start, second's start, made) for every sum
    sums: tuple[tuple[int, int, int, int], ...]


def settle(line: Sequence[int]) -> Settled:
    """Push one line towards position 0 and let neighbouring Fibonacci numbers add up."""
    kept: list[int] = []
    fresh: list[bool] = []  # whether kept[i] was made in this push
    starts: list[int] = []  # where kept[i] started
    shifts: list[tuple[int, int, int]] = []
    sums: list[tuple[int, int, int, int]] = []
    for start, value in enumerate(line):
        if not value:
            continue
        made = add_up(kept[-1], value) if kept and not fresh[-1] else 0
        if made:
            where = len(kept) - 1
            sums.append((where, starts[-1], start, made))
            kept[-1], fresh[-1] = made, True
        else:
            where = len(kept)
            kept.append(value)
            fresh.append(False)
            starts.append(start)
        if start != where:
            shifts.append((start, where, value))
    padded = tuple(kept) + (0,) * (len(line) - len(kept))
    return Settled(padded, tuple(shifts), tuple(sums))


def lines(size: int, direction: str) -> list[list[Cell]]:
    """The board's lines for a push, each listed from the wall pushed towards."""
    near = range(size)
    far = range(size - 1, -1, -1)
    if direction == "left":
        return [[(r, c) for c in near] for r in near]
    if direction == "right":
        return [[(r, c) for c in far] for r in near]
    if direction == "up":
        return [[(r, c) for r in near] for c in near]
    return [[(r, c) for r in far] for c in near]


# -- the rules -------------------------------------------------------------------------------


class FibonacciRules:
    """The Fibonacci game on a ``size`` x ``size`` board (``twofold.core.rules.Rules``)."""

    def __init__(self, size: int = 4, *, undo_depth: int = 500) -> None:
        self.size = size
        self.undo_depth = undo_depth

    # -- starting

    def new_game(self, code: str) -> FibState:
        empty: Board = tuple((0,) * self.size for _row in range(self.size))
        state = FibState(code, empty)
        for _birth in range(2):
            state, _event = self.birth(state)
        return state

    def from_position(self, data: Mapping[str, Any], code: str) -> FibState:
        rows = data.get("board") if isinstance(data, Mapping) else None
        n = self.size
        if not isinstance(rows, list) or len(rows) != n:
            raise PositionError(_("a Fibonacci board is {n} rows of {n} cells").format(n=n))
        board = []
        for r, row in enumerate(rows, start=1):
            if not isinstance(row, list) or len(row) != n:
                raise PositionError(_("a Fibonacci board is {n} rows of {n} cells").format(n=n))
            for c, value in enumerate(row, start=1):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise PositionError(
                        _("row {row}, column {column} is not a whole number").format(
                            row=r, column=c
                        )
                    )
                if value and value not in RANK:
                    raise PositionError(
                        _(
                            "row {row}, column {column} holds {value}, not a Fibonacci number"
                        ).format(row=r, column=c, value=value)
                    )
            board.append(tuple(row))
        score = data.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise PositionError(_('"score" must be a whole number from 0'))
        return FibState(code, tuple(board), score=score)

    def birth(self, state: FibState) -> tuple[FibState, Appeared]:
        """A new tile from the deal on an empty cell; the board must have one."""
        empty = [(r, c) for r, row in enumerate(state.board) for c, v in enumerate(row) if not v]
        r, c = empty[below(state.code, state.draws, len(empty))]
        value = 2 if chance(state.code, state.draws + 1) < TWO_CHANCE else 1
        rows = [list(row) for row in state.board]
        rows[r][c] = value
        board = tuple(tuple(row) for row in rows)
        return replace(state, board=board, draws=state.draws + 2), Appeared((r, c), value)

    # -- playing

    def parse(self, text: str) -> str:
        word = " ".join(text.strip().lower().split())
        if word not in _WORDS:
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        return _WORDS[word]

    def apply(self, state: FibState, action: str) -> Push:
        if action not in ("left", "right", "up", "down"):
            raise Refused(_("unknown command '{command}'").format(command=action))
        rows = [list(row) for row in state.board]
        shifts: list[Event] = []
        sums: list[Merged] = []
        for cells in lines(self.size, action):
            settled = settle([state.board[r][c] for r, c in cells])
            for (r, c), value in zip(cells, settled.values, strict=True):
                rows[r][c] = value
            shifts += [Moved(cells[a], cells[b], v) for a, b, v in settled.shifts]
            sums += [
                Merged(cells[at], made, (cells[a], cells[b])) for at, a, b, made in settled.sums
            ]
        if not shifts:
            return Push(state, direction=action)
        pushed = replace(
            state,
            board=tuple(tuple(row) for row in rows),
            score=state.score + sum(event.value for event in sums),
            moves=state.moves + 1,
            sums=state.sums + len(sums),
        )
        after, born = self.birth(pushed)
        return Push(after, direction=action, events=(*shifts, *sums, born))

    def undo(self, previous: FibState, current: FibState) -> FibState:
        return previous

    def is_over(self, state: FibState) -> bool:
        board = state.board
        for r, row in enumerate(board):
            for c, value in enumerate(row):
                if not value:
                    return False
                if c + 1 < self.size and add_up(value, row[c + 1]):
                    return False
                if r + 1 < self.size and add_up(value, board[r + 1][c]):
                    return False
        return True

    # -- telling

    def report(self, state: FibState) -> dict[str, Any]:
        return {"won": state.largest >= GOAL, "largest": state.largest, "sums": state.sums}

    def announce(self, before: FibState, outcome: Outcome) -> str:
        direction = getattr(outcome, "direction", "")
        where = direction_name(direction)
        if not outcome.changed:
            return _("{direction}: nothing moved.").format(direction=where)
        after: FibState = outcome.state
        if not direction:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        # a Merged event names the cells the two tiles came from: their values are in `before`
        said = [
            _("{a} and {b} made {c}").format(
                a=before.board[e.cells[0][0]][e.cells[0][1]],
                b=before.board[e.cells[1][0]][e.cells[1][1]],
                c=e.value,
            )
            for e in outcome.events
            if isinstance(e, Merged)
        ]
        if said:
            parts = [_("{direction}: {sums}.").format(direction=where, sums="; ".join(said))]
        else:
            parts = [_("{direction}.").format(direction=where)]
        parts.append(_("Score {score}.").format(score=after.score))
        for event in outcome.events:
            if isinstance(event, Appeared):
                parts.append(
                    _("A {value} was born at row {row}, column {column}.").format(
                        value=event.value, row=event.cell[0] + 1, column=event.cell[1] + 1
                    )
                )
        if self.is_over(after):
            parts.append(_("Nothing can move or add up: game over."))
        return " ".join(parts)

    def read_board(self, state: FibState) -> list[str]:
        return [
            _("Row {row}: {cells}").format(
                row=r, cells=", ".join(str(v) if v else _("empty") for v in row)
            )
            for r, row in enumerate(state.board, start=1)
        ]

    def render_text(self, state: FibState) -> str:
        width = max(len(str(state.largest)), 1)
        return "\n".join(
            " ".join((str(v) if v else ".").rjust(width) for v in row) for row in state.board
        )

    def stats(self, state: FibState) -> dict[str, int]:
        return {"sums": state.sums}


def direction_name(direction: str) -> str:
    names = {"left": _("Left"), "right": _("Right"), "up": _("Up"), "down": _("Down")}
    return names.get(direction, _("Push"))
