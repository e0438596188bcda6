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
   as it meets an upper bound. The bounds: the reachable cells; dead ends (one
   neighbour), which only an end of the path can use; the alternation limit when
   the part is two-coloured; the block-cut tree (a path runs along one branch of
   it); and, for big parts, edge propagation proving that no path can visit every
   cell, after which the search asks which one cell to leave out. From one cell
   with a free other end, a big part gets a small search over edges (a cover
   search with propagation, a fixed number of branches at most) that finds a path
   through every cell or proves there is none, instead of a blind search that
   falls one cell short at every depth; the proof passes down, one less, to the
   path from each next cell (a ceiling). A path that visits a dead end ends there,
   so each dead end is tried as the far end and otherwise left out. A board of 40
   equal tiles costs one walk;
2. across levels, a dynamic programme over (last cell of a level, carry) that
   keeps the longest chain for each, walking the values upwards. It is planned on
   upper bounds of the path lengths first, and only the searches the winning plan
   leans on are run, again and again until the winner leans on exact lengths
   alone: then no other plan, judged on numbers at least as large as the truth,
   can beat it. Before a search in a big region the plan's number is first cut
   to the block-cut bound, and the plan made again if it fell: that bound is
   often exact where the quick ones are not, and spares searching from every
   start in a region whose paths all fall well short of its size.

Exact always; fast on boards from real play (see benchmarks/bench_2248_hint.py).
The search is exponential in the worst case (a big region whose longest paths fall
well short of every bound, as on boards of 4s among a few 2s and 8s), so each query
it runs for the levels has a budget of steps (WORK_BUDGET, a count, so the hint is
the same on every machine). A query that spends it is answered instead by a frontier
programme (see :mod:`.frontier`), exact in a time bounded by the board's width; one
programme answers every query from the same entry, or to the same exit, at once, and
once a search from a cell has spent its budget in a region, the next ones there go
straight to the programme.
The slowest boards found by an adversarial search are pinned, with their answers, in
tests/chain2248/test_hint.py and the benchmark.

Among chains equal in tile and length the first found wins (a fixed order of
cells and searches), so the hint is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from twofold.variants.chain2248.board import CELLS, COLS, NEIGHBOURS, ROWS, Cell, merge_value
from twofold.variants.chain2248.frontier import longest_path, paths_from

Chain = tuple[Cell, ...]
#: a path length the levels ask for: (kind, cell, other cell, region)
Query = tuple[int, int, int, int]
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


#: the indices of the cells touching each cell, as TOUCH but listed
TOUCH_LIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(r * COLS + c for r, c in NEIGHBOURS[cell]) for cell in CELLS
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


@lru_cache(maxsize=4096)
def _blocks(comp: int) -> tuple[int, ...]:
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
    return tuple(found)


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


#: parts at least this big get the costly bounds before their search, not after
#: the first try (a big part that cannot be covered would otherwise be searched
#: through before the proof that it cannot is ever asked for)
EAGER = 20
#: the same for a path from one cell with a free other end
EAGER_FREE = 20

#: search steps one query may take before the frontier programme answers it instead (a
#: count, not a time, so the hint is the same on every machine): the search is far
#: quicker on almost every board, the programme's time is bounded on all of them
WORK_BUDGET = 1000


class _TooSlow(Exception):
    """A query's search has spent its budget (see WORK_BUDGET)."""


#: how a memoised best path goes on: it ends here; it steps to cell a in part b; it
#: goes on inside a (some cells dropped); it ends at dead end a, searched inside b;
#: it visits every cell, as found by the cover search (kept in RegionPaths._covers)
_END, _STEP, _DROP, _PAIR, _COVER = 0, 1, 2, 3, 4
_NONE = (_END, 0, 0)


class RegionPaths:
    """Longest simple paths inside regions of equal tiles, memoised for one board."""

    def __init__(self) -> None:
        # (best length, how): how says what the best path does first (see _STEP...)
        self._free: dict[tuple[int, int], tuple[int, tuple[int, int, int]]] = {}
        self._pair_memo: dict[tuple[int, int, int], tuple[int, tuple[int, int, int]]] = {}
        # paths from a start through every cell of a part, by (start, part)
        self._covers: dict[tuple[int, int], list[int]] = {}
        # proven upper bounds of longest_from, by (start, part): a path from x is one
        # cell more than a path from its next cell, so a bound passes down, less one
        self._ceiling: dict[tuple[int, int], int] = {}
        # paths between two cells found by the frontier programme, by (x, end, part)
        self._pair_paths: dict[tuple[int, int, int], list[int]] = {}
        self._anywhere: dict[int, tuple[int, tuple[int, int, int]]] = {}
        # the entries and exits the frontier programme was asked about, by region
        self._asked: dict[int, list[int]] = {}
        #: search steps left before the query gives way to the frontier programme (the
        #: hint sets it per query; unbounded for any other use)
        self.work = 1 << 62
        #: cells with a touching tile of double value, where a chain may climb, and cells
        #: with a touching tile of half value, where it may come in (see best_chain)
        self.exits = self.entries = 0

    def _spend(self) -> None:
        self.work -= 1
        if self.work < 0:
            raise _TooSlow

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
        self._spend()
        rest = comp & ~(1 << x)
        best, how = 1, _NONE
        dead = _one_neighbour(comp) & rest if rest else 0
        if dead:
            # A dead end can only be the last cell: either the path ends at one of them,
            # searched from that end (the tighter one), or it uses none of them.
            kept = comp & ~dead
            if kept != 1 << x:
                best, how = self.longest_from(x, kept), (_DROP, kept, 0)
            ceiling = self._ceiling.get(key, SIZE)
            for d in _bits(dead):
                part = kept | (1 << d)
                if part.bit_count() <= best or best >= ceiling:
                    break
                length = self.longest_between(x, d, part)
                if length > best:
                    best, how = length, (_PAIR, d, part)
        elif rest:
            bound = min(self._free_bound(x, comp), self._ceiling.get(key, SIZE))
            # a big part that may be covered is asked so at once: a proof that it
            # cannot passes down to every next cell (see _ceiling)
            tight = bound == comp.bit_count() >= EAGER_FREE
            if tight:
                bound, best, how = self._tight_free_bound(x, comp, bound, best, how, FIRST_BUDGET)
            for y in self._order(x, rest) if best < bound else ():
                part = _component(1 << y, rest)
                if part.bit_count() + 1 <= best:
                    continue
                ceiling = self._ceiling.get(key)
                if ceiling is not None and ceiling - 1 < self._ceiling.get((y, part), SIZE):
                    self._ceiling[(y, part)] = ceiling - 1
                length = 1 + self.longest_from(y, part)
                if length > best:
                    best, how = length, (_STEP, y, part)
                    if best >= bound:
                        break
                if not tight:
                    # the quick bound was not met at once: try the costlier, tighter ones
                    tight = True
                    bound, best, how = self._tight_free_bound(x, comp, bound, best, how)
                    if best >= bound:
                        break
        self._free[key] = (best, how)
        return best

    def _tight_free_bound(
        self,
        x: int,
        comp: int,
        bound: int,
        best: int,
        how: tuple[int, int, int],
        budget: int = 0,
    ) -> tuple[int, int, tuple[int, int, int]]:
        """The costlier bounds for a path from ``x``: blocks, then the cover search.

        A path through every cell, or the proof there is none, is far quicker to get
        than from a blind search that falls one cell short. Returns (bound, best, how).
        """
        bound = min(bound, _block_bound(x, comp))
        if bound == comp.bit_count() >= EAGER and best < bound:
            cover = _cover_from(x, comp, budget)
            if cover is _REFUTED:
                bound -= 1
                self._ceiling[(x, comp)] = bound
            elif cover is not None:
                self._covers[(x, comp)] = cover
                best, how = len(cover), (_COVER, 0, 0)
        return bound, best, how

    def cover_first(self, x: int, comp: int) -> None:
        """Look for a path from ``x`` through every cell of ``comp`` before any search."""
        if (x, comp) in self._free:
            return
        cover = _cover_from(x, comp, FIRST_BUDGET)
        if cover:
            self._covers[(x, comp)] = cover
            self._free[(x, comp)] = (len(cover), (_COVER, 0, 0))
        elif cover is _REFUTED:
            self._ceiling[(x, comp)] = comp.bit_count() - 1

    def longest_between(self, x: int, end: int, comp: int) -> int:
        """Cells in the longest path from ``x`` to ``end`` inside ``comp``; 0 if there is none."""
        a, b = self._ends(x, end, comp)
        return self._pair(a, b, comp)

    @staticmethod
    def _ends(x: int, end: int, comp: int) -> tuple[int, int]:
        """Search from the end with fewer ways out (but not a dead end): found sooner."""
        ways_x, ways_end = (TOUCH[x] & comp).bit_count(), (TOUCH[end] & comp).bit_count()
        # a dead end's one step is forced anyway: start from the other end
        if ways_x == 1 < ways_end or 1 < ways_end < ways_x:
            return end, x
        return x, end

    def _pair(self, x: int, end: int, comp: int) -> int:
        if x == end:
            return 1
        key = (x, end, comp)
        known = self._pair_memo.get(key)
        if known is not None:
            return known[0]
        self._spend()
        best, how = 0, _NONE
        trimmed = _trim(comp, (1 << x) | (1 << end))
        if trimmed != comp:
            best, how = self._pair(x, end, trimmed), (_DROP, trimmed, 0)
        else:
            rest = comp & ~(1 << x)
            size = comp.bit_count()
            bound = self._pair_bound(x, end, comp)
            tight = size < EAGER
            if not tight:
                bound = min(bound, _block_bound(x, comp, end))
                if bound == size and not _may_cover(x, end, comp):
                    # Some cell must stay out: a path through all the others is the best
                    # hope, and asking which cell is far quicker than searching blind.
                    best, how = self._skip_one(x, end, comp)
                    bound = size - 1 if best == size - 1 else size - 2
            for y in self._order(x, rest) if best < bound else ():
                part = _component(1 << y, rest)
                if not part >> end & 1 or part.bit_count() + 1 <= best:
                    continue
                length = self._pair(y, end, part)
                if length and length + 1 > best:
                    best, how = length + 1, (_STEP, y, part)
                    if best >= bound:
                        break
                if not tight:
                    tight = True
                    bound = self._tight_pair_bound(x, end, comp, bound)
                    if best >= bound:
                        break
        self._pair_memo[key] = (best, how)
        return best

    def longest_anywhere(self, comp: int) -> tuple[int, tuple[int, int, int]]:
        known = self._anywhere.get(comp)
        if known is None:
            known = self._anywhere[comp] = self._longest_anywhere(comp)
        return known

    def _longest_anywhere(self, comp: int) -> tuple[int, tuple[int, int, int]]:
        """The longest path inside ``comp``: its length and how to rebuild it.

        ``(_STEP, x, part)``: the longest path from x inside part; ``(_PAIR, a, part)``
        with ``b`` packed as ``part`` holding both: see :meth:`path_anywhere`. A path
        that visits a dead end ends there, so dead ends are tried as ends first.
        """
        dead = _one_neighbour(comp)
        best, how = 0, _NONE
        if dead and comp.bit_count() > 2:
            ends = _bits(dead)
            kept = comp & ~dead
            for i, a in enumerate(ends):
                for b in ends[i + 1 :]:
                    part = kept | (1 << a) | (1 << b)
                    if part.bit_count() > best:
                        length = self.longest_between(a, b, part)
                        if length > best:
                            best, how = length, (_PAIR, a, b)
                for_a = kept | (1 << a)
                if for_a.bit_count() > best:
                    length = self.longest_from(a, for_a)
                    if length > best:
                        best, how = length, (_STEP, a, for_a)
            if kept.bit_count() > best:
                length, inner = self.longest_anywhere(kept)
                if length > best:
                    best, how = length, inner
            return best, how
        bound = self.region_bound(comp)
        for x in _bits(comp):
            length = self.longest_from(x, comp)
            if length > best:
                best, how = length, (_STEP, x, comp)
                if best >= bound:
                    break
        return best, how

    def path_anywhere(self, comp: int, how: tuple[int, int, int]) -> list[int]:
        tag, a, b = how
        if tag == _PAIR:
            part = (comp & ~_one_neighbour(comp)) | (1 << a) | (1 << b)
            return self.path_between(a, b, part)
        return self.path_from(a, b)

    def _skip_one(self, x: int, end: int, comp: int) -> tuple[int, tuple[int, int, int]]:
        """The longest path from ``x`` to ``end`` through all cells of ``comp`` but one.

        Cells with fewer neighbours are tried first (they are what blocks a full path).
        """
        best, how = 0, _NONE
        target = comp.bit_count() - 1
        inner = comp & ~(1 << x) & ~(1 << end)
        for c in sorted(_bits(inner), key=lambda c: ((TOUCH[c] & comp).bit_count(), c)):
            self._spend()
            part = comp & ~(1 << c)
            if _component(1 << x, part) != part or not _may_cover(x, end, part):
                continue
            length = self._pair(x, end, part)
            if length > best:
                best, how = length, (_DROP, part, 0)
                if best >= target:
                    break
        return best, how

    @staticmethod
    def _tight_pair_bound(x: int, end: int, comp: int, bound: int) -> int:
        """The costlier bounds: blocks, then whether every cell can be on the way."""
        bound = min(bound, _block_bound(x, comp, end))
        if bound == comp.bit_count() and not _may_cover(x, end, comp):
            bound -= 1
        return bound

    @staticmethod
    def _order(x: int, rest: int) -> list[int]:
        """The next cells to try: fewest onward moves first (Warnsdorff), then reading order."""
        nexts = _bits(TOUCH[x] & rest)
        nexts.sort(key=lambda y: (TOUCH[y] & rest).bit_count())
        return nexts

    # -- the frontier programme, once a search has spent its budget ---------------------

    def by_frontier(self, query: Query) -> int:
        """Answer a query with the frontier programme and keep the paths for the rebuild.

        A query about a path between an entry and an exit answers every query from that
        entry to an exit, or from an entry to that exit, at once.
        """
        kind, a, b, comp = query
        if kind == _ANYWHERE:
            path = longest_path(comp, ())
            if path:
                self._free[(path[0], comp)] = (len(path), (_COVER, 0, 0))
                self._covers[(path[0], comp)] = path
            self._anywhere[comp] = (len(path), (_STEP, path[0], comp) if path else _NONE)
            return len(path)
        if kind == _FROM:
            path = longest_path(comp, (a,))
            self._free[(a, comp)] = (len(path), (_COVER, 0, 0))
            self._covers[(a, comp)] = path
            return len(path)
        # The levels ask for paths from each entry of a region to each of its exits:
        # one programme from the side with fewer cells answers a whole row of them.
        entries, exits = comp & self.entries | 1 << a, comp & self.exits | 1 << b
        asked = self._asked.setdefault(comp, [0, 0])
        if asked[1] >> b & 1:  # an exit asked before with another entry: all entries
            anchor, targets = b, entries
        elif asked[0] >> a & 1 or exits.bit_count() < entries.bit_count():
            anchor, targets = a, exits
        else:
            anchor, targets = b, entries
        asked[0] |= 1 << a
        asked[1] |= 1 << b
        targets &= ~(1 << anchor)
        found = paths_from(comp, anchor, targets)
        for end in _bits(targets):
            path = found.get(end, [])
            # kept as the query would ask it: from the entry to the exit
            x, far = self._ends(end, anchor, comp) if anchor == b else self._ends(anchor, end, comp)
            self._pair_memo[(x, far, comp)] = (len(path), (_COVER, 0, 0) if path else _NONE)
            self._pair_paths[(x, far, comp)] = path if x == anchor else path[::-1]
        return self._pair_memo[(*self._ends(a, b, comp), comp)][0]

    # -- the paths themselves -----------------------------------------------------------

    def path_from(self, x: int, comp: int) -> list[int]:
        """The cells of the longest path from ``x`` inside ``comp``, from ``x`` on."""
        self.longest_from(x, comp)
        path = [x]
        while True:
            tag, a, b = self._free[(x, comp)][1]
            if tag == _STEP:
                x, comp = a, b
                path.append(x)
            elif tag == _DROP:
                comp = a
            elif tag == _PAIR:
                return path[:-1] + self.path_between(x, a, b)
            elif tag == _COVER:
                return path[:-1] + self._covers[(x, comp)]
            else:
                return path

    def path_between(self, x: int, end: int, comp: int) -> list[int]:
        """The cells of the longest path from ``x`` to ``end`` inside ``comp``."""
        a, b = self._ends(x, end, comp)
        path = self._pair_path(a, b, comp)
        return path if a == x else path[::-1]

    def _pair_path(self, x: int, end: int, comp: int) -> list[int]:
        self._pair(x, end, comp)
        path = [x]
        while x != end:
            tag, a, b = self._pair_memo[(x, end, comp)][1]
            if tag == _STEP:
                x, comp = a, b
                path.append(x)
            elif tag == _COVER:
                return path[:-1] + self._pair_paths[(x, end, comp)]
            else:
                comp = a
        return path


class _Cover:
    """The edges a path from ``x`` to ``end`` through every cell of ``comp`` would need.

    Constraint propagation: the ends use one edge, every other cell two; a cell with
    only as many usable edges as it needs must use them all, a cell whose edges are
    all decided gives up the rest, and no edge may close a loop or join the two ends
    before every cell is on the way. A contradiction proves a cell must be left out.

    An end may be ``FREE`` or ``FREE + 1``: a made-up cell touching every cell, so
    the path's real end may be any cell.
    """

    __slots__ = ("cells", "end", "group", "need", "size", "usable", "used", "x")

    def __init__(self, x: int, end: int, comp: int) -> None:
        self.x, self.end = x, end
        real = _bits(comp)
        free = [v for v in (x, end) if v >= FREE]
        self.cells = real + free
        # by cell index (the free ends after the board's): edges as bit masks of cells
        self.need = [2] * (FREE + 2)
        self.need[x] = self.need[end] = 1
        free_mask = sum(1 << v for v in free)
        self.usable = [0] * (FREE + 2)
        for v in real:
            self.usable[v] = (TOUCH[v] & comp) | free_mask
        for v in free:
            self.usable[v] = comp
        self.used = [0] * (FREE + 2)
        self.group = list(range(FREE + 2))
        self.size = [1] * (FREE + 2)

    def copy(self) -> _Cover:
        twin = object.__new__(_Cover)
        twin.x, twin.end, twin.cells, twin.need = self.x, self.end, self.cells, self.need
        twin.usable, twin.used = self.usable[:], self.used[:]
        twin.group, twin.size = self.group[:], self.size[:]
        return twin

    def _root(self, v: int) -> int:
        group = self.group
        while group[v] != v:
            group[v] = group[group[v]]
            v = group[v]
        return v

    def force(self, v: int, w: int) -> bool:
        """Put the edge v-w on the path; False on a contradiction."""
        a, b = self._root(v), self._root(w)
        if a == b:
            return False  # the edge would close a loop
        used = self.used
        used[v] |= 1 << w
        used[w] |= 1 << v
        if used[v].bit_count() > self.need[v] or used[w].bit_count() > self.need[w]:
            return False
        self.group[a] = b
        self.size[b] += self.size[a]
        joined = self._root(self.x) == self._root(self.end)
        return not joined or self.size[self._root(self.x)] == len(self.cells)

    def propagate_ends(self) -> bool:
        """The quick test of _may_cover on this cover (left unchanged)."""
        trial = self.copy()
        if not trial.propagate():
            return False
        for v in (self.x, self.end):
            if trial.used[v] or v >= FREE:
                continue
            if not any(
                (t := trial.copy()).force(v, w) and t.propagate() for w in _bits(trial.usable[v])
            ):
                return False
        return True

    def search(self, budget: list[int]) -> list[int] | None:
        """A path through every cell that keeps the edges decided so far, else _REFUTED,
        or None once ``budget[0]`` (branches left) falls below 0."""
        cover = self
        while True:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if not cover.propagate() or not cover._connected():
                return _REFUTED
            usable, used, need = cover.usable, cover.used, cover.need
            pick, few = -1, 99
            for v in cover.cells:
                if used[v].bit_count() < need[v]:
                    left = (usable[v] & ~used[v]).bit_count()
                    if left < few:
                        pick, few = v, left
            if pick < 0:
                return cover._walk()
            open_edges = usable[pick] & ~used[pick]
            w = (open_edges & -open_edges).bit_length() - 1
            trial = cover.copy()
            if trial.force(pick, w):
                found = trial.search(budget)
                if found is not _REFUTED:
                    return found
            # no way with that edge: go on without it
            usable[pick] &= ~(1 << w)
            usable[w] &= ~(1 << pick)

    def _connected(self) -> bool:
        """Whether the usable edges still join every cell."""
        usable = self.usable
        seen = new = 1 << self.x
        while new:
            grown = 0
            for v in _bits(new):
                grown |= usable[v]
            new = grown & ~seen
            seen |= new
        return seen.bit_count() == len(self.cells)

    def _walk(self) -> list[int]:
        path, before, v = [self.x], -1, self.x
        while v != self.end:
            onward = self.used[v] & ~(1 << before) if before >= 0 else self.used[v]
            before, v = v, (onward & -onward).bit_length() - 1
            path.append(v)
        return [v for v in path if v < FREE]

    def propagate(self) -> bool:
        usable, used, need = self.usable, self.used, self.need
        changed = True
        while changed:
            changed = False
            for v in self.cells:
                n = need[v]
                can = usable[v].bit_count()
                if can < n:
                    return False
                has = used[v].bit_count()
                if has == n and can > n:
                    for w in _bits(usable[v] & ~used[v]):
                        usable[w] &= ~(1 << v)
                    usable[v] = used[v]
                    changed = True
                elif can == n and has < n:
                    for w in _bits(usable[v] & ~used[v]):
                        if not self.force(v, w):
                            return False
                    changed = True
        return True


def _may_cover(x: int, end: int, comp: int) -> bool:
    """False when no path from ``x`` to ``end`` can visit every cell of ``comp``.

    Propagates (see _Cover), then tries each way out of each end in turn.
    """
    cover = _Cover(x, end, comp)
    if not cover.propagate():
        return False
    for v in (x, end):
        if cover.used[v]:
            continue
        possible = False
        for w in _bits(cover.usable[v]):
            trial = cover.copy()
            if trial.force(v, w) and trial.propagate():
                possible = True
                break
        if not possible:
            return False
    return True


#: the made-up free ends of a cover search (real cells are numbered below SIZE)
FREE = SIZE

#: what the cover search says when it proved there is no path through every cell
_REFUTED: list[int] = []

#: how many branches one cover search may take before it gives up (a count, not a
#: time, so the hint stays the same on every machine); the plain search then decides
COVER_BUDGET = 30
#: the same, for the one search a query of a whole region starts with
FIRST_BUDGET = 150


def _cover_from(x: int, comp: int, budget: int = 0) -> list[int] | None:
    """A path from ``x`` through every cell of ``comp`` (any other end); _REFUTED if
    there is none; None if the search gave up (see COVER_BUDGET).

    Propagation (see _Cover), then a branch on one edge at a time, at the cell with
    the fewest choices, used or forbidden. The other end is FREE, touching all.
    """
    cover = _Cover(x, FREE, comp)
    if not cover.propagate_ends():
        return _REFUTED
    return cover.search([budget or COVER_BUDGET])


def _trim(comp: int, keep: int) -> int:
    """``comp`` without its dead ends, again and again, sparing the cells of ``keep``.

    A cell with one neighbour can be on a path only as one of its ends.
    """
    while True:
        dead = _one_neighbour(comp) & ~keep
        if not dead:
            return comp
        comp &= ~dead


def _next_power(n: int) -> int:
    return 1 << (n - 1).bit_length()


#: regions at least this big are planned on the block-cut bound too: it is often
#: exact where the quick bounds are not, and spares the searches of every start
PLAN_BLOCKS = 12
#: regions at least this big get the block-cut bound on a query's first use
EAGER_BLOCKS = 16
#: the kinds of path length the levels ask for
_FROM, _BETWEEN, _ANYWHERE = 0, 1, 2


class _Lengths:
    """Path lengths for the levels: exact where already searched, else an upper bound.

    The levels are planned on these numbers; only the searches the winning plan
    leans on are run, and the plan is made again until it leans on exact numbers
    alone. It is then the true optimum: every other plan was judged on numbers at
    least as large as the truth and did no better.
    """

    def __init__(self, paths: RegionPaths) -> None:
        self.paths = paths
        self.exact: dict[Query, int] = {}
        self.bounds: dict[Query, int] = {}
        self.tightened: set[Query] = set()
        # (kind, region) whose search from a cell spent its budget: the next such
        # query goes straight to the frontier programme
        self.slow: set[tuple[int, int]] = set()

    def get(self, query: Query) -> int:
        known = self.exact.get(query)
        if known is not None:
            return known
        bound = self.bounds.get(query)
        if bound is None:
            kind, a, b, region = query
            if kind == _FROM:
                bound = self.paths._free_bound(a, region)
            elif kind == _BETWEEN:
                bound = 1 if a == b else self.paths._pair_bound(a, b, region)
            else:
                bound = self.paths.region_bound(region)
            self.bounds[query] = bound
            if kind != _ANYWHERE and region.bit_count() >= EAGER_BLOCKS:
                # a big region's plans would otherwise fall one tightened query at a
                # time, each fall a whole new plan
                self._tighten(query)
                bound = self.bounds[query]
        return bound

    def _tighten(self, query: Query) -> bool:
        """Try the costlier bounds on a query about to be searched; whether it fell.

        Asked only of big regions, and only once the plan leans on the query: the
        block-cut bound is often exact where the quick ones are not, and then spares
        the search of every start the plan would otherwise try in turn.
        """
        kind, a, b, region = query
        size = region.bit_count()
        if size < PLAN_BLOCKS or query in self.tightened:
            return False
        self.tightened.add(query)
        bound = before = self.bounds[query]
        if kind == _FROM:
            bound = min(bound, _block_bound(a, region))
        elif kind == _BETWEEN and a != b:
            bound = min(bound, _block_bound(a, region, b))
        self.bounds[query] = bound
        return bound < before

    def settle(self, queries: list[Query]) -> bool:
        """Search the queries not yet exact; whether there were any.

        If a costlier bound lowers one of them, nothing is searched: the plan is
        made again on the lower numbers first.
        """
        todo = [query for query in queries if query not in self.exact]
        # a list, not a generator: every query gets its costlier bound at once
        if any([self._tighten(query) for query in todo]):
            return True
        for query in todo:
            kind, _a, _b, region = query
            if (kind, region) in self.slow:  # its search spent the budget once already
                self.exact[query] = self.paths.by_frontier(query)
                continue
            self.paths.work = WORK_BUDGET
            try:
                self.exact[query] = self._search(query)
            except _TooSlow:
                if kind == _FROM:  # (a pair's programme answers a whole row at once)
                    self.slow.add((kind, region))
                self.exact[query] = self.paths.by_frontier(query)
        return bool(todo)

    def _search(self, query: Query) -> int:
        """The exact length by the path search (_TooSlow once it spends its budget)."""
        kind, a, b, region = query
        if kind == _FROM:
            if self.bounds.get(query) == region.bit_count() >= EAGER:
                # a path through every cell may be there, and a blind search may
                # not come upon it until it has tried every other way first
                self.paths.cover_first(a, region)
            return self.paths.longest_from(a, region)
        if kind == _BETWEEN:
            return self.paths.longest_between(a, b, region)
        return self.paths.longest_anywhere(region)[0]


Back = tuple[int, int, int] | None


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
    # exits: cells with a touching tile of double value, where a chain may climb
    exits = 0
    for i, v in enumerate(values):
        if TOUCH[i] & by_value.get(2 * v, 0):
            exits |= 1 << i
    paths = RegionPaths()
    paths.exits = exits
    for i, v in enumerate(values):
        if v % 2 == 0 and TOUCH[i] & by_value.get(v // 2, 0):
            paths.entries |= 1 << i
    lengths = _Lengths(paths)
    while True:
        winner, finish, best = _plan(values, by_value, region_of, exits, lengths)
        if not winner[0]:
            return None
        if not lengths.settle(_queries(finish, best, region_of)):
            break
    if finish[0] == "single":
        x = finish[1]
        cells = paths.path_anywhere(region_of[x], paths.longest_anywhere(region_of[x])[1])
    else:
        cells = _rebuild(finish, best, region_of, paths)
    return tuple(CELLS[i] for i in cells)


def _plan(
    values: list[int],
    by_value: dict[int, int],
    region_of: list[int],
    exits: int,
    lengths: _Lengths,
) -> tuple[tuple[int, int], tuple[str, int, int, int], dict[tuple[int, int], tuple[int, Back]]]:
    """The best chain on the lengths known so far: (tile, length), its last step, the levels.

    ``best[(cell, carry)] = (length, back)``: the longest chain whose level ends at
    cell with that carry; back is None for a first level, else (previous cell,
    previous carry, entry cell of this level).
    """
    best: dict[tuple[int, int], tuple[int, Back]] = {}
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
        n = lengths.get((_ANYWHERE, 0, 0, region))
        offer(values[i] * _next_power(n), n, ("single", i, 0, 0))

    # the first level of a longer chain: any path of two or more tiles ending at an exit
    for e in _bits(exits):
        region = region_of[e]
        if region.bit_count() >= 2:
            n = lengths.get((_FROM, e, 0, region))
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
                n = lengths.get((_FROM, s, 0, region))
                offer(2 * v * _next_power(n + half), length + n, ("end", x, carry, s))
                for e in _bits(region & exits):
                    n = lengths.get((_BETWEEN, s, e, region))
                    if not n:
                        continue
                    key = (e, n + half)
                    if length + n > best.get(key, (0, None))[0]:
                        best[key] = (length + n, (x, carry, s))
    return winner, finish, best


def _queries(
    finish: tuple[str, int, int, int],
    best: dict[tuple[int, int], tuple[int, Back]],
    region_of: list[int],
) -> list[Query]:
    """The path lengths the winning plan leans on."""
    how, x, carry, s = finish
    if how == "single":
        return [(_ANYWHERE, 0, 0, region_of[x])]
    queries: list[Query] = [(_FROM, s, 0, region_of[s])]
    while True:
        _length, back = best[(x, carry)]
        if back is None:
            queries.append((_FROM, x, 0, region_of[x]))
            return queries
        px, pcarry, entry = back
        queries.append((_BETWEEN, entry, x, region_of[x]))
        x, carry = px, pcarry


def _rebuild(
    finish: tuple[str, int, int, int],
    best: dict[tuple[int, int], tuple[int, Back]],
    region_of: list[int],
    paths: RegionPaths,
) -> list[int]:
    """The cells of the winning chain, first to last."""
    _how, x, carry, s = finish
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
