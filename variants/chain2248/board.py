"""The 2248 board: 8 rows of 5 tiles, touching cells, chain values and gravity.

Cells are ``(row, column)`` counted from the top left, both from 0. A grid is a
list of rows while an action is being worked out; a state's board is the same as
tuples. ``0`` marks a cell that is empty for a moment (after a merge, before the
refill); a board in a state is always full.
"""

from __future__ import annotations

from collections.abc import Sequence

from twofold.plugin import Board, _

ROWS = 8
COLS = 5
Cell = tuple[int, int]
Grid = list[list[int]]

CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(ROWS) for c in range(COLS))


def _neighbours(cell: Cell) -> tuple[Cell, ...]:
    r, c = cell
    return tuple(
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < ROWS and 0 <= c + dc < COLS
    )


#: the cells touching each cell, in 8 directions, in a fixed order
NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {cell: _neighbours(cell) for cell in CELLS}


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < ROWS and 0 <= cell[1] < COLS


def touching(a: Cell, b: Cell) -> bool:
    """Whether two different cells touch, diagonals included."""
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def merge_value(total: int) -> int:
    """A chain's sum rounded up to the next power of two (a power of two stays itself)."""
    return 1 << (total - 1).bit_length()


def is_power_of_two(value: int) -> bool:
    return value >= 2 and value & (value - 1) == 0


def exponent(value: int) -> int:
    return value.bit_length() - 1


def grid_of(board: Board) -> Grid:
    return [list(row) for row in board]


def board_of(grid: Sequence[Sequence[int]]) -> Board:
    return tuple(tuple(row) for row in grid)


def has_pair(board: Sequence[Sequence[int]]) -> bool:
    """Whether two equal tiles touch somewhere: exactly when at least one chain exists."""
    for r in range(ROWS):
        row = board[r]
        below = board[r + 1] if r + 1 < ROWS else None
        for c in range(COLS):
            v = row[c]
            if c + 1 < COLS and row[c + 1] == v:
                return True
            if below is not None and (
                below[c] == v
                or (c + 1 < COLS and below[c + 1] == v)
                or (c > 0 and below[c - 1] == v)
            ):
                return True
    return False


def pair_near(grid: Sequence[Sequence[int]], cells: Sequence[Cell]) -> bool:
    """Whether one of ``cells`` touches an equal tile (a quick check after a local change)."""
    for r, c in cells:
        v = grid[r][c]
        if any(grid[nr][nc] == v for nr, nc in NEIGHBOURS[(r, c)]):
            return True
    return False


def gravity(grid: Grid) -> list[tuple[Cell, Cell, int]]:
    """Let tiles fall straight down into empty cells; the moves made, as (from, to, value).

    Each column keeps its order; empty cells end up at the top of their column.
    """
    falls: list[tuple[Cell, Cell, int]] = []
    for c in range(COLS):
        target = ROWS - 1
        for r in range(ROWS - 1, -1, -1):
            v = grid[r][c]
            if v:
                if r != target:
                    grid[target][c] = v
                    grid[r][c] = 0
                    falls.append(((r, c), (target, c), v))
                target -= 1
    return falls


def empty_cells(grid: Sequence[Sequence[int]]) -> list[Cell]:
    """Empty cells in refill order: column by column from the left, each from the bottom up."""
    return [(r, c) for c in range(COLS) for r in range(ROWS - 1, -1, -1) if not grid[r][c]]


def highest_on(grid: Sequence[Sequence[int]]) -> int:
    return max((v for row in grid for v in row), default=0)


def cell_words(cell: Cell) -> str:
    """A cell for people: rows and columns count from 1 (row 1 is the top row)."""
    return _("row {row}, column {col}").format(row=cell[0] + 1, col=cell[1] + 1)
