"""The rules of Twofold Drop, as pure functions of immutable states.

The board is 5 columns of 7 rows, filled from the bottom. A move picks a column: the
shown block falls to the lowest empty cell of it. Blocks of one value that touch it
(sideways, up or down, not across) merge with it: N equal blocks of value v become one
block v × 2^(N-1) in the cell of the block that moved last, the others leave, blocks
above fall into the gaps, and any block that fell or was made merges again the same
way, as long as equal blocks touch. The score grows by every block made. A full column
takes no block; the game is over when every column is full.

Every event is one of twofold's vocabulary (``twofold.plugin``): the dropped block
is ``Appeared`` where it lands, each merge is ``Merged`` (its blocks in order, the one
that stays last) and each block that drops into a gap is ``Fell``.

The deal: each block takes one draw of ``twofold.plugin``: ``below(code, n, k)``
gives the block 2^(1 + draw), where ``k`` is 3 while the largest block is below 64
(2, 4 or 8), then one more kind for each doubling above it, at most 6 (up to 64). The
next two blocks are always known (``upcoming``); a new game draws them with draws 0
and 1, and each drop draws one more.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    Appeared,
    Board,
    Cell,
    Event,
    Fell,
    Merged,
    Outcome,
    PositionError,
    Refused,
    _,
    below,
)

ROWS = 7
COLUMNS = 5
GOAL = 1024
UNDO = "undo"
#: how many blocks of the deal are shown before they fall
SHOWN = 2
_PLACE = re.compile(r"place\s+(-?\d{1,9})")


@dataclass(frozen=True)
class DropState:
    """One moment of a Twofold Drop game."""

    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far: undo brings it back, so a redo meets the same blocks
    draws: int = 0
    #: the blocks that fall next, the nearest first
    upcoming: tuple[int, ...] = ()
    #: merges made in this game, and the most made by one drop (kept in the records)
    merges: int = 0
    combo: int = 0


# -- the board ---------------------------------------------------------------------------------


def frozen(grid: Sequence[Sequence[int]]) -> Board:
    return tuple(tuple(row) for row in grid)


def column_words(column: int) -> str:
    """A column as people count it: from 1."""
    return _("column {column}").format(column=column + 1)


def landing(board: Board, column: int) -> int | None:
    """The row a block dropped into ``column`` lands on, or None when the column is full."""
    for row in range(ROWS - 1, -1, -1):
        if not board[row][column]:
            return row
    return None


def kinds(board: Board) -> int:
    """How many kinds of block the deal gives on this board (2, 4, 8 first)."""
    largest = max((v for row in board for v in row), default=0)
    return max(3, min(6, largest.bit_length() - 4))


def dealt(code: str, index: int, board: Board) -> int:
    """Block ``index`` of the deal, for a board whose largest block is known."""
    return 2 ** (1 + below(code, index, kinds(board)))


def group(grid: Sequence[Sequence[int]], start: Cell) -> list[Cell]:
    """The blocks of ``start``'s value joined to it side by side, ``start`` last."""
    value = grid[start[0]][start[1]]
    seen = {start}
    order: list[Cell] = []
    todo = [start]
    while todo:
        r, c = todo.pop(0)
        for nr, nc in ((r + 1, c), (r, c - 1), (r, c + 1), (r - 1, c)):
            near = (nr, nc)
            inside = 0 <= nr < ROWS and 0 <= nc < COLUMNS
            if inside and near not in seen and grid[nr][nc] == value:
                seen.add(near)
                order.append(near)
                todo.append(near)
    return [*order, start]


def fall(grid: list[list[int]], moved: list[Cell]) -> list[Event]:
    """Blocks drop into the gaps below them; ``moved`` follows each block that falls."""
    events: list[Event] = []
    for c in range(COLUMNS):
        target = ROWS - 1
        for r in range(ROWS - 1, -1, -1):
            value = grid[r][c]
            if not value:
                continue
            if r != target:
                grid[target][c], grid[r][c] = value, 0
                events.append(Fell((r, c), (target, c), value))
                moved[:] = [(target, c) if cell == (r, c) else cell for cell in moved]
                moved.append((target, c))
            target -= 1
    return events


def cascade(grid: list[list[int]], start: Cell) -> tuple[list[Event], int, int]:
    """Merge from ``start`` again and again: the events, the points made, the merges."""
    events: list[Event] = []
    points = merges = 0
    active = [start]
    while active:
        cell = active.pop(0)
        value = grid[cell[0]][cell[1]]
        joined = group(grid, cell) if value else [cell]
        if len(joined) < 2:
            continue
        made = value * 2 ** (len(joined) - 1)
        for r, c in joined[:-1]:
            grid[r][c] = 0
        grid[cell[0]][cell[1]] = made
        events.append(Merged(cell, made, tuple(joined)))
        points += made
        merges += 1
        moved = [cell, *active]
        events += fall(grid, moved)
        active = list(dict.fromkeys(moved))  # the made block first, then what fell
    return events, points, merges


def drop(state: DropState, column: int) -> tuple[DropState, list[Event], int]:
    """Drop the next block into ``column``: the new state, the events and the merges."""
    if not 0 <= column < COLUMNS:
        raise Refused(
            _("there is no column {column} (columns 0 to {last})").format(
                column=column, last=COLUMNS - 1
            )
        )
    row = landing(state.board, column)
    if row is None:
        raise Refused(_("{column} is full").format(column=column_words(column)))
    block = state.upcoming[0]
    grid = [list(r) for r in state.board]
    grid[row][column] = block
    events: list[Event] = [Appeared((row, column), block)]
    more, points, merges = cascade(grid, (row, column))
    events += more
    board = frozen(grid)
    upcoming = (*state.upcoming[1:], dealt(state.code, state.draws, board))
    after = replace(
        state,
        board=board,
        score=state.score + points,
        moves=state.moves + 1,
        draws=state.draws + 1,
        upcoming=upcoming,
        merges=state.merges + merges,
        combo=max(state.combo, merges),
    )
    return after, events, merges


def parse_column(action: str) -> int:
    found = _PLACE.fullmatch(action.strip().lower())
    if found is None:
        raise Refused(_("write a drop as: place C (a column)"))
    return int(found[1])


# -- the rules ---------------------------------------------------------------------------------


class DropRules:
    """Twofold Drop's rules (the ``Rules`` protocol of ``twofold.plugin``)."""

    undo_depth = 100

    def new_game(self, code: str) -> DropState:
        board = frozen([[0] * COLUMNS for _row in range(ROWS)])
        upcoming = tuple(dealt(code, n, board) for n in range(SHOWN))
        return DropState(code, board, draws=SHOWN, upcoming=upcoming)

    def from_position(self, data: Mapping[str, Any], code: str) -> DropState:
        rows = data.get("board")
        shape = _("a Twofold Drop board is 7 rows of 5 blocks: 0 or a power of two from 2")
        if not (
            isinstance(rows, list)
            and len(rows) == ROWS
            and all(isinstance(row, list) and len(row) == COLUMNS for row in rows)
        ):
            raise PositionError(shape)
        for row in rows:
            for v in row:
                if isinstance(v, bool) or not isinstance(v, int) or v < 0 or v == 1:
                    raise PositionError(shape)
                if v & (v - 1):
                    raise PositionError(shape)
        grid = [list(row) for row in rows]
        if fall(grid, []):
            raise PositionError(_("a block floats over an empty cell: blocks rest on others"))
        start = self.new_game(code)
        upcoming = data.get("upcoming", list(start.upcoming))
        if not (
            isinstance(upcoming, list)
            and len(upcoming) == SHOWN
            and all(type(v) is int and v >= 2 and not v & (v - 1) for v in upcoming)
        ):
            raise PositionError(_('"upcoming" must be two powers of two from 2'))
        return replace(start, board=frozen(rows), upcoming=tuple(upcoming))

    def parse(self, text: str) -> str:
        """``"Place  3"`` → ``"place 3"``, ``"u"`` → ``"undo"``."""
        word = text.strip().lower()
        if word in ("undo", "u", "z") or word == "ctrl+z":
            return UNDO
        return f"place {parse_column(word)}"

    def apply(self, state: DropState, action: str) -> Outcome:
        after, events, _merges = drop(state, parse_column(action))
        return Outcome(after, tuple(events))

    def undo(self, previous: DropState, current: DropState) -> DropState:
        return previous

    def is_over(self, state: DropState) -> bool:
        return all(state.board[0])

    # -- telling

    def report(self, state: DropState) -> dict[str, Any]:
        return {"merges": state.merges, "combo": state.combo}

    def announce(self, before: DropState, outcome: Outcome) -> str:
        after: DropState = outcome.state
        landed = [e for e in outcome.events if isinstance(e, Appeared)]
        if not landed:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        block = landed[0]
        parts = [
            _("Block {value} fell into {column}.").format(
                value=block.value, column=column_words(block.cell[1])
            )
        ]
        merged = [e for e in outcome.events if isinstance(e, Merged)]
        if len(merged) == 1:
            parts.append(_("It made {value}.").format(value=merged[0].value))
        elif merged:
            parts.append(
                _("{count} merges in a row, up to {value}.").format(
                    count=len(merged), value=max(e.value for e in merged)
                )
            )
        parts.append(_("Score {score}.").format(score=after.score))
        if self.is_over(after):
            parts.append(_("Every column is full: game over."))
        return " ".join(parts)

    def read_board(self, state: DropState) -> list[str]:
        return [
            _("Row {row}: {cells}").format(
                row=r, cells=", ".join(str(v) if v else _("empty") for v in row)
            )
            for r, row in enumerate(state.board, start=1)
        ]

    def render_text(self, state: DropState) -> str:
        width = max(2, *(len(str(v)) for row in state.board for v in row))
        head = " ".join(str(c).rjust(width) for c in range(1, COLUMNS + 1))
        rows = [" ".join((str(v) if v else ".").rjust(width) for v in row) for row in state.board]
        return "\n".join([head, *rows])

    def stats(self, state: DropState) -> dict[str, int]:
        return {"merges": state.merges, "combo": state.combo}
