"""New tiles, the opening board and the shuffle, all drawn from the deal.

Every draw is ``twofold.plugin``'s deal at the state's draw count, so the same code and
the same actions give the same tiles everywhere, and undo (which restores the
count) never rerolls.

New tiles: with H the exponent of the highest tile on the board, the powers
``2**lo .. 2**hi`` with ``hi = max(6, H - 4)`` and ``lo = hi - 5`` may appear,
never a retired value; each power is half as likely as the one below it. One
draw picks one tile: ``below(code, index, 2**k - 1)`` over weights
``2**(k-1), ..., 2, 1`` for the k allowed powers, lowest first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from twofold.plugin import Appeared, Event, Fell, below
from twofold.variants.chain2248.board import (
    CELLS,
    COLS,
    NEIGHBOURS,
    ROWS,
    Cell,
    Grid,
    empty_cells,
    exponent,
    gravity,
    has_pair,
    highest_on,
)

SPAWN_SPAN = 6
#: the lowest top of the spawn range: 2..64 at the start of a game
MIN_HI = 6
#: whole fresh boards tried for the opening before a tile is moved next to its twin
OPENING_ATTEMPTS = 64
#: shuffles tried before a tile is moved next to its twin
SHUFFLE_ATTEMPTS = 16


def spawn_exponents(highest: int, retired: Iterable[int]) -> list[int]:
    """The exponents new tiles may have, lowest first, given the highest tile on the board."""
    gone = set(retired)
    hi = max(MIN_HI, exponent(highest) - 4) if highest else MIN_HI
    lo = hi - (SPAWN_SPAN - 1)
    exps = [e for e in range(lo, hi + 1) if (1 << e) not in gone]
    if not exps:
        # Only reachable from a custom position that retired the whole range.
        start = max(exponent(v) for v in gone) + 1
        exps = list(range(start, start + SPAWN_SPAN))
    return exps


def spawn_value(code: str, index: int, exps: Sequence[int]) -> int:
    """The tile of draw ``index``: the k-th allowed power is half as likely as the (k-1)-th."""
    k = len(exps)
    roll = below(code, index, (1 << k) - 1)
    weight = 1 << (k - 1)
    for e in exps:
        if roll < weight:
            return 1 << e
        roll -= weight
        weight >>= 1
    return 1 << exps[-1]  # unreachable: the weights add up to 2**k - 1


def refill(
    code: str, draws: int, grid: Grid, retired: Iterable[int]
) -> tuple[int, list[tuple[Cell, int]]]:
    """Fill every empty cell from the deal; the new draw count and the tiles placed.

    Cells fill column by column from the left, each column from its lowest empty
    cell up (tiles drop in from the top). The range is set once, from the board
    before the refill.
    """
    exps = spawn_exponents(highest_on(grid), retired)
    placed: list[tuple[Cell, int]] = []
    for r, c in empty_cells(grid):
        value = spawn_value(code, draws, exps)
        draws += 1
        grid[r][c] = value
        placed.append(((r, c), value))
    return draws, placed


def settle(code: str, draws: int, grid: Grid, retired: Sequence[int], events: list[Event]) -> int:
    """Let tiles fall and refill from the top, telling it in ``events``; the new draw count."""
    events.extend(Fell(a, b, v) for a, b, v in gravity(grid))
    draws, placed = refill(code, draws, grid, retired)
    events.extend(Appeared(cell, v) for cell, v in placed)
    return draws


def set_twin_beside(grid: Grid) -> bool:
    """Move a tile next to an equal one so a chain exists; False if every value is unique.

    Deterministic: the first value (reading order) seen twice; its second tile swaps
    with the first neighbour of the first tile.
    """
    seen: dict[int, Cell] = {}
    for cell in CELLS:
        v = grid[cell[0]][cell[1]]
        if v in seen:
            first = seen[v]
            spot = next(n for n in NEIGHBOURS[first] if n != cell)
            (sr, sc), (cr, cc) = spot, cell
            grid[sr][sc], grid[cr][cc] = grid[cr][cc], grid[sr][sc]
            return True
        seen[v] = cell
    return False


def opening(code: str) -> tuple[int, Grid]:
    """The opening board and the draws it used.

    40 tiles from the starting range (2..64) in reading order; if no two equal
    tiles touch, a whole new board is drawn with the next 40 draws, up to 64
    times, and after that a tile is moved next to its twin (with 40 tiles of 6
    values there always is one).
    """
    exps = spawn_exponents(0, ())
    draws = 0
    grid: Grid = []
    for _attempt in range(OPENING_ATTEMPTS):
        grid = [[0] * COLS for _ in range(ROWS)]
        for r, c in CELLS:
            grid[r][c] = spawn_value(code, draws, exps)
            draws += 1
        if has_pair(grid):
            return draws, grid
    set_twin_beside(grid)
    return draws, grid


def has_twins(grid: Sequence[Sequence[int]]) -> bool:
    """Whether some value appears twice, so some arrangement of the tiles has a chain."""
    values = [v for row in grid for v in row]
    return len(set(values)) < len(values)


def shuffle(code: str, draws: int, grid: Sequence[Sequence[int]]) -> tuple[int, Grid, list[int]]:
    """Mix all tiles; the new draw count, the new grid and where each cell's tile went.

    A Fisher-Yates shuffle of the tiles in reading order (39 draws); repeated with
    fresh draws until a chain exists, up to 16 times, then a tile is moved next to
    its twin. ``moved[i]`` is the reading-order index that tile ``i`` ended on.
    The caller makes sure some value appears twice.
    """
    size = ROWS * COLS
    order = list(range(size))
    flat = [grid[r][c] for r, c in CELLS]
    result: Grid = []
    for _attempt in range(SHUFFLE_ATTEMPTS):
        order = list(range(size))
        for i in range(size - 1, 0, -1):
            j = below(code, draws, i + 1)
            draws += 1
            order[i], order[j] = order[j], order[i]
        # order[k] is the old index of the tile that now sits at k
        result = [[flat[order[r * COLS + c]] for c in range(COLS)] for r in range(ROWS)]
        if has_pair(result):
            break
    else:
        before = [row[:] for row in result]
        set_twin_beside(result)
        order = _follow_swap(order, before, result)
    moved = [0] * size
    for new_index, old_index in enumerate(order):
        moved[old_index] = new_index
    return draws, result, moved


def _follow_swap(order: list[int], before: Grid, after: Grid) -> list[int]:
    """Apply to ``order`` the one swap that turned ``before`` into ``after``."""
    changed = [i for i, (r, c) in enumerate(CELLS) if before[r][c] != after[r][c]]
    if len(changed) == 2:
        a, b = changed
        order = order[:]
        order[a], order[b] = order[b], order[a]
    return order
