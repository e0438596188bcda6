"""The hint: the chain that makes the biggest tile and, among those, the longest. Exact.

Why it can be exact and fast
----------------------------
Along a chain values never fall (each tile equals the previous one or doubles it),
so a chain is a run of *levels*: a simple path P0 through tiles of value ``a``
(at least 2 of them), then a path P1 through tiles ``2a`` (at least 1), then P2
through ``4a``, and so on, the last cell of one level touching the first of the
next. Tiles of different levels differ in value, so a cell can never be reused
across levels: each level is a simple path inside one *region* (a connected
group of equal touching tiles), and nothing but its two ends and its length
matters to the rest of the chain.

Rounding needs only one small number per level. With ``n_j`` tiles on level j,
the sum is ``a * 2**k * c_k`` where ``c_0 = n_0`` and ``c_j = n_j + c_(j-1)/2``;
the tile made is ``a * 2**k`` times the next power of two at or above ``c_k``.
Powers of two at or above 1 are whole numbers, so that power is the same for
``ceil(c_k)``, and ``ceil(n + x/2) = n + ceil(ceil(x)/2)``; so the *carry*
``C_j = n_j + ceil(C_(j-1) / 2)`` (a whole number below 60) is all the lower
levels pass up. The made tile is ``a * 2**k * next_power(C_k)``.

The carry and the length both grow with every ``n_j``, and the made tile grows
with the carry, so for given ends of a level its *longest* path beats every
shorter one: longer never hurts the value and always helps the length. Hence:

1. inside each region, the longest simple path between two given cells (or from
   one cell with a free other end), found by a depth-first search memoised on
   (current cell, the part of the region still reachable) and cut short as soon
   as it meets an upper bound (reachable cells, minus dead ends that only an end
   can use, and the alternation limit when the region is two-coloured), so a
   board of 40 equal tiles costs one walk;
2. across levels, a dynamic programme over (last cell of a level, carry) that
   keeps the longest chain for each, walking the values upwards.

Among chains equal in tile and length the first found wins (cells in reading
order), so the hint is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from twofold.variants.chain2248.board import CELLS, COLS, NEIGHBOURS, ROWS, Cell, merge_value

Chain = tuple[Cell, ...]
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


def _bits(mask: int) -> list[int]:
    """The indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _spread(mask: int) -> int:
    """The cells of ``mask`` and every cell touching one of them."""
    row = mask | ((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL_LAST)
    return (row | (row << COLS) | (row >> COLS)) & FULL


def _component(start: int, allowed: int) -> int:
    """The cells of ``allowed`` connected to the cell bit ``start`` (which is in it)."""
    comp = start
    while True:
        grown = _spread(comp) & allowed
        if grown == comp:
            return comp
        comp = grown


def _one_neighbour(mask: int) -> int:
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


def _two_colours(start: int, mask: int) -> tuple[int, int] | None:
    """The two sides of a connected ``mask`` if no two cells of one side touch, else None.

    Sides by distance from ``start`` (even, odd); ``start``'s side first.
    """
    even, odd = start, 0
    frontier, seen, parity = start, start, 0
    while frontier:
        frontier = _spread(frontier) & mask & ~seen
        seen |= frontier
        parity ^= 1
        if parity:
            odd |= frontier
        else:
            even |= frontier
    if _touching(even) & even or _touching(odd) & odd:
        return None
    return even, odd


def _touching(mask: int) -> int:
    """Cells touching a cell of ``mask`` (a cell of ``mask`` itself only if it touches another)."""
    row = ((mask << 1) & _NOT_COL0) | ((mask >> 1) & _NOT_COL_LAST)
    both = row | mask
    return (row | (both << COLS) | (both >> COLS)) & FULL


def _blocks(comp: int) -> list[int]:
    """The blocks (biconnected parts, bridges included) of a connected set of cells."""
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    found: list[int] = []

    def visit(v: int, parent: int) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in _bits(TOUCH[v] & comp):
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
    return found


def _block_bound(x: int, comp: int, end: int = -1) -> int:
    """At most how many cells a path from ``x`` (to ``end``, if given) visits inside ``comp``.

    A path leaves a block only through a cut cell and never comes back, so it runs
    along one branch of the block-cut tree: every block off that branch is lost.
    """
    blocks = _blocks(comp)
    if not blocks:
        return 1

    def value(block: int, entry: int) -> int:
        # cells of ``block`` after ``entry``, plus the best branch hanging below it
        if end >= 0 and block >> end & 1:
            return block.bit_count() - 1
        below = -SIZE if end >= 0 else 0
        for cut in _bits(block & ~(1 << entry)):
            for other in blocks:
                if other != block and other >> cut & 1:
                    below = max(below, value(other, cut))
        return block.bit_count() - 1 + below

    return 1 + max(value(b, x) for b in blocks if b >> x & 1)


class RegionPaths:
    """Longest simple paths inside regions of equal tiles, memoised for one board."""

    def __init__(self) -> None:
        self._free: dict[tuple[int, int], tuple[int, int]] = {}
        self._pair: dict[tuple[int, int, int], tuple[int, int]] = {}

    # -- bounds -------------------------------------------------------------------------

    @staticmethod
    def _free_bound(x: int, comp: int) -> int:
        """At most how many cells a path from ``x`` may visit inside ``comp`` (x included)."""
        size = comp.bit_count()
        # a dead end (one neighbour) other than x can only be the path's last cell
        dead = (_one_neighbour(comp) & ~(1 << x)).bit_count()
        bound = size - max(0, dead - 1)
        sides = _two_colours(1 << x, comp)
        if sides is not None:
            mine, other = sides[0].bit_count(), sides[1].bit_count()
            bound = min(bound, 2 * other + 1 if mine > other else 2 * mine)
        return bound

    @staticmethod
    def _pair_bound(x: int, end: int, comp: int) -> int:
        """At most how many cells a path from ``x`` to ``end`` may visit inside ``comp``."""
        size = comp.bit_count()
        # a dead end other than the two ends can never be on the path
        dead = (_one_neighbour(comp) & ~(1 << x) & ~(1 << end)).bit_count()
        bound = size - dead
        sides = _two_colours(1 << x, comp)
        if sides is not None:
            mine, other = sides[0].bit_count(), sides[1].bit_count()
            if sides[0] >> end & 1:
                bound = min(bound, 2 * min(mine - 1, other) + 1)
            else:
                bound = min(bound, 2 * min(mine, other))
        return bound

    @staticmethod
    def region_bound(comp: int) -> int:
        """At most how many cells any path inside ``comp`` may visit."""
        size = comp.bit_count()
        bound = size - max(0, _one_neighbour(comp).bit_count() - 2)
        sides = _two_colours(comp & -comp, comp)
        if sides is not None:
            a, b = sorted((sides[0].bit_count(), sides[1].bit_count()))
            bound = min(bound, 2 * a + (1 if b > a else 0))
        return bound

    # -- searches -----------------------------------------------------------------------

    def longest_from(self, x: int, comp: int) -> int:
        """Cells in the longest path starting at ``x`` inside ``comp`` (connected, holds x)."""
        key = (x, comp)
        known = self._free.get(key)
        if known is not None:
            return known[0]
        rest = comp & ~(1 << x)
        best, step = 1, -1
        if rest:
            bound = self._free_bound(x, comp)
            tight = False
            for y in self._order(x, rest):
                part = _component(1 << y, rest)
                if part.bit_count() + 1 <= best:
                    continue
                length = 1 + self.longest_from(y, part)
                if length > best:
                    best, step = length, y
                    if best >= bound:
                        break
                if not tight:
                    # the quick bound was not met at once: try the costlier, tighter one
                    tight = True
                    bound = min(bound, _block_bound(x, comp))
                    if best >= bound:
                        break
        self._free[key] = (best, step)
        return best

    def longest_between(self, x: int, end: int, comp: int) -> int:
        """Cells in the longest path from ``x`` to ``end`` inside ``comp``; 0 if there is none."""
        if x == end:
            return 1
        key = (x, end, comp)
        known = self._pair.get(key)
        if known is not None:
            return known[0]
        rest = comp & ~(1 << x)
        best, step = 0, -1
        bound = self._pair_bound(x, end, comp)
        tight = False
        for y in self._order(x, rest):
            part = _component(1 << y, rest)
            if not part >> end & 1 or part.bit_count() + 1 <= best:
                continue
            length = self.longest_between(y, end, part)
            if length and length + 1 > best:
                best, step = length + 1, y
                if best >= bound:
                    break
            if not tight:
                tight = True
                bound = min(bound, _block_bound(x, comp, end))
                if best >= bound:
                    break
        self._pair[key] = (best, step)
        return best

    @staticmethod
    def _order(x: int, rest: int) -> list[int]:
        """The next cells to try: fewest onward moves first (Warnsdorff), then reading order."""
        nexts = _bits(TOUCH[x] & rest)
        nexts.sort(key=lambda y: (TOUCH[y] & rest).bit_count())
        return nexts

    # -- the paths themselves -----------------------------------------------------------

    def path_from(self, x: int, comp: int) -> list[int]:
        self.longest_from(x, comp)
        path = [x]
        while True:
            step = self._free[(x, comp)][1]
            if step < 0:
                return path
            comp = _component(1 << step, comp & ~(1 << x))
            x = step
            path.append(x)

    def path_between(self, x: int, end: int, comp: int) -> list[int]:
        self.longest_between(x, end, comp)
        path = [x]
        while x != end:
            step = self._pair[(x, end, comp)][1]
            comp = _component(1 << step, comp & ~(1 << x))
            x = step
            path.append(x)
        return path


def _next_power(n: int) -> int:
    return 1 << (n - 1).bit_length()


def best_chain(board: Sequence[Sequence[int]]) -> Chain | None:
    """The chain that makes the biggest tile and, among those, the longest; None if stuck."""
    values = [board[r][c] for r, c in CELLS]
    by_value: dict[int, int] = {}
    for i, v in enumerate(values):
        by_value[v] = by_value.get(v, 0) | (1 << i)
    region_of = [0] * SIZE
    for mask in by_value.values():
        left = mask
        while left:
            comp = _component(left & -left, mask)
            for i in _bits(comp):
                region_of[i] = comp
            left &= ~comp
    paths = RegionPaths()

    # exits: cells with a touching tile of double value, where a chain may climb
    exits = 0
    for i, v in enumerate(values):
        if TOUCH[i] & by_value.get(2 * v, 0):
            exits |= 1 << i

    # best[(cell, carry)] = (length, back): back is None for a first level ending at
    # cell, else (previous cell, previous carry, entry cell of this level)
    best: dict[tuple[int, int], tuple[int, tuple[int, int, int] | None]] = {}
    winner: tuple[int, int] = (0, 0)
    finish: tuple[str, int, int, int] = ("", -1, -1, -1)

    def offer(value: int, length: int, how: tuple[str, int, int, int]) -> None:
        nonlocal winner, finish
        if (value, length) > winner:
            winner, finish = (value, length), how

    # chains of one level: the longest path in each region of two or more tiles
    for i in range(SIZE):
        region = region_of[i]
        if region.bit_count() < 2 or region & ((1 << i) - 1):
            continue  # single tile, or not the region's first cell
        bound = paths.region_bound(region)
        top, n = -1, 0
        for x in _bits(region):
            length = paths.longest_from(x, region)
            if length > n:
                top, n = x, length
                if n >= bound:
                    break
        offer(values[top] * _next_power(n), n, ("single", top, 0, 0))

    # the first level of a longer chain: any path of two or more tiles ending at an exit
    for e in _bits(exits):
        region = region_of[e]
        if region.bit_count() >= 2:
            n = paths.longest_from(e, region)
            best[(e, n)] = (n, None)

    for v in sorted(by_value):
        upper = by_value.get(2 * v, 0)
        if not upper:
            continue
        states = sorted(
            (key, item) for key, item in best.items() if values[key[0]] == v and item[0]
        )
        for (x, carry), (length, _back) in states:
            half = (carry + 1) // 2
            for s in _bits(TOUCH[x] & upper):
                region = region_of[s]
                n = paths.longest_from(s, region)
                made = 2 * v * _next_power(n + half)
                offer(made, length + n, ("end", x, carry, s))
                for e in _bits(region & exits):
                    n = paths.longest_between(s, e, region)
                    if not n:
                        continue
                    key = (e, n + half)
                    if length + n > best.get(key, (0, None))[0]:
                        best[key] = (length + n, (x, carry, s))

    if not winner[0]:
        return None
    return tuple(CELLS[i] for i in _rebuild(finish, best, region_of, paths))


def _rebuild(
    finish: tuple[str, int, int, int],
    best: dict[tuple[int, int], tuple[int, tuple[int, int, int] | None]],
    region_of: list[int],
    paths: RegionPaths,
) -> list[int]:
    """The cells of the winning chain, first to last."""
    how, x, carry, s = finish
    if how == "single":
        return paths.path_from(x, region_of[x])
    tail = paths.path_from(s, region_of[s])
    while True:
        _length, back = best[(x, carry)]
        if back is None:
            return paths.path_from(x, region_of[x])[::-1] + tail
        px, pcarry, entry = back
        tail = paths.path_between(entry, x, region_of[x]) + tail
        x, carry = px, pcarry


def brute_force_chain(board: Sequence[Sequence[int]]) -> Chain | None:
    """Every chain, one by one: the reference the fast search is tested against.

    Exponential; only for small or sparse boards.
    """
    best: tuple[int, int] = (0, 0)
    found: list[Cell] = []
    path: list[Cell] = []
    used: set[Cell] = set()

    def walk(cell: Cell, value: int, total: int) -> None:
        nonlocal best, found
        if len(path) >= 2:
            key = (merge_value(total), len(path))
            if key > best:
                best, found = key, path[:]
        for n in NEIGHBOURS[cell]:
            if n in used:
                continue
            v = board[n[0]][n[1]]
            if v == value or (len(path) >= 2 and v == 2 * value):
                used.add(n)
                path.append(n)
                walk(n, v, total + v)
                path.pop()
                used.discard(n)

    for start in CELLS:
        v = board[start[0]][start[1]]
        used.add(start)
        path.append(start)
        walk(start, v, v)
        path.pop()
        used.discard(start)
    return tuple(found) if found else None


def chain_key(board: Sequence[Sequence[int]], chain: Chain | None) -> tuple[int, int]:
    """(tile made, length) of a chain, for comparing hints."""
    if not chain:
        return (0, 0)
    return (merge_value(sum(board[r][c] for r, c in chain)), len(chain))
