"""Sets of cells as bit masks, and the quick bounds on a path inside one.

A set of cells of the 2248 board is an int: bit ``row * COLS + col`` is that cell.
A region of equal tiles, the part of it a path may still reach, the dead ends of a
part: all are masks, and growing, splitting or counting them is a few shifts. The
bounds below say at most how many cells a simple path may visit inside a part;
the path search (:mod:`.paths`) stops as soon as it meets one.
"""

from __future__ import annotations

from functools import lru_cache

from twofold.variants.chain2248.board import CELLS, COLS, NEIGHBOURS, ROWS

SIZE = ROWS * COLS
FULL = (1 << SIZE) - 1
_COL0 = sum(1 << (r * COLS) for r in range(ROWS))
_COL_LAST = _COL0 << (COLS - 1)
_NOT_COL0 = FULL & ~_COL0
_NOT_COL_LAST = FULL & ~_COL_LAST

#: the bit mask of the cells touching each cell, by index ``row * COLS + col``
TOUCH: tuple[int, ...] = tuple(
    sum(1 << (r * COLS + c) for r, c in NEIGHBOURS[cell]) for cell in CELLS
)


def bits(mask: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def spread(mask: int) -> int:
    """The cells of ``mask`` and every cell touching one of them."""
    row = mask | ((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL_LAST)
    return (row | (row << COLS) | (row >> COLS)) & FULL


def component(start: int, allowed: int) -> int:
    """The cells of ``allowed`` connected to the cell bit ``start`` (which is in it)."""
    comp = start
    while True:
        grown = spread(comp) & allowed
        if grown == comp:
            return comp
        comp = grown


def one_neighbour(mask: int) -> int:
    """The cells of ``mask`` with exactly one touching cell inside ``mask``."""
    ones = twos = 0
    for moved in (
        (mask >> 1) & _NOT_COL_LAST,
        (mask << 1) & _NOT_COL0,
        (mask << COLS) & FULL,
        mask >> COLS,
        (mask << (COLS - 1)) & _NOT_COL_LAST & FULL,
        (mask << (COLS + 1)) & _NOT_COL0 & FULL,
        (mask >> (COLS + 1)) & _NOT_COL_LAST,
        (mask >> (COLS - 1)) & _NOT_COL0,
    ):
        twos |= ones & moved
        ones |= moved
    return mask & ones & ~twos


def touching(mask: int) -> int:
    """Cells touching a cell of ``mask`` (a cell of ``mask`` itself only if it touches another)."""
    row = ((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL_LAST)
    both = row | mask
    return (row | (both << COLS) | (both >> COLS)) & FULL


def two_colours(start: int, mask: int) -> tuple[int, int] | None:
    """The two sides of a connected ``mask`` if no two cells of one side touch, else None.

    Sides by distance from ``start`` (even, odd); ``start``'s side first.
    """
    even, odd = start, 0
    frontier, seen, parity = start, start, 0
    while frontier:
        frontier = spread(frontier) & mask & ~seen
        seen |= frontier
        parity ^= 1
        if parity:
            odd |= frontier
        else:
            even |= frontier
    if touching(even) & even or touching(odd) & odd:
        return None
    return even, odd


def trim(comp: int, keep: int) -> int:
    """``comp`` without its dead ends, again and again, sparing the cells of ``keep``.

    A cell with one neighbour can be on a path only as one of its ends.
    """
    while True:
        dead = one_neighbour(comp) & ~keep
        if not dead:
            return comp
        comp &= ~dead


# -- the quick bounds -------------------------------------------------------------------


def free_bound(x: int, comp: int) -> int:
    """At most how many cells a path from ``x`` may visit inside ``comp`` (x included)."""
    size = comp.bit_count()
    # a dead end (one neighbour) other than x can only be the path's last cell
    dead = (one_neighbour(comp) & ~(1 << x)).bit_count()
    bound = size - max(0, dead - 1)
    sides = two_colours(1 << x, comp)
    if sides is not None:
        mine, other = sides[0].bit_count(), sides[1].bit_count()
        bound = min(bound, 2 * other + 1 if mine > other else 2 * mine)
    return bound


def pair_bound(x: int, end: int, comp: int) -> int:
    """At most how many cells a path from ``x`` to ``end`` may visit inside ``comp``."""
    size = comp.bit_count()
    # a dead end other than the two ends can never be on the path
    dead = (one_neighbour(comp) & ~(1 << x) & ~(1 << end)).bit_count()
    bound = size - dead
    sides = two_colours(1 << x, comp)
    if sides is not None:
        mine, other = sides[0].bit_count(), sides[1].bit_count()
        if sides[0] >> end & 1:
            bound = min(bound, 2 * min(mine - 1, other) + 1)
        else:
            bound = min(bound, 2 * min(mine, other))
    return bound


def region_bound(comp: int) -> int:
    """At most how many cells any path inside ``comp`` may visit."""
    size = comp.bit_count()
    bound = size - max(0, one_neighbour(comp).bit_count() - 2)
    sides = two_colours(comp & -comp, comp)
    if sides is not None:
        a, b = sorted((sides[0].bit_count(), sides[1].bit_count()))
        bound = min(bound, 2 * a + (1 if b > a else 0))
    return bound


# -- the block-cut bound (costlier, often exact where the quick ones are not) -----------


@lru_cache(maxsize=4096)
def blocks(comp: int) -> tuple[int, ...]:
    """The blocks (biconnected parts, bridges included) of a connected set of cells."""
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    found: list[int] = []

    def visit(v: int, parent: int) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in bits(TOUCH[v] & comp):
            if w not in order:
                visit(w, v)
                low[v] = min(low[v], low[w])
                if low[w] >= order[v]:
                    block = 1 << v
                    while True:
                        u = stack.pop()
                        block |= 1 << u
                        if u == w:
                            break
                    found.append(block)
            elif w != parent:
                low[v] = min(low[v], order[w])

    visit((comp & -comp).bit_length() - 1, -1)
    return tuple(found)


def block_bound(x: int, comp: int, end: int = -1) -> int:
    """At most how many cells a path from ``x`` (to ``end``, if given) visits inside ``comp``.

    A path leaves a block only through a cut cell and never comes back, so it runs
    along one branch of the block-cut tree: every block off that branch is lost.
    """
    found = blocks(comp)
    if not found:
        return 1

    def value(block: int, entry: int) -> int:
        # cells of ``block`` after ``entry``, plus the best branch hanging below it
        if end >= 0 and block >> end & 1:
            return block.bit_count() - 1
        below = -SIZE if end >= 0 else 0
        for cut in bits(block & ~(1 << entry)):
            for other in found:
                if other != block and other >> cut & 1:
                    below = max(below, value(other, cut))
        return block.bit_count() - 1 + below

    return 1 + max(value(b, x) for b in found if b >> x & 1)
