"""The path search: longest simple paths inside regions of equal tiles.

A depth-first search memoised on (current cell, the part of the region still
reachable), cut short as soon as it meets a bound (:mod:`.bits`). From one cell
with a free other end, a big part first asks the cover search (:mod:`.cover`)
whether a path visits every cell; a proof that none does passes down, one less,
to the path from each next cell (a ceiling). Between two cells, a big part that
cannot be covered is asked which one cell to leave out. Each query has a budget of
steps; a query that spends it is answered by the frontier programme
(:mod:`twofold.variants.chain2248.frontier`) instead.
"""

from __future__ import annotations

from typing import NamedTuple

from twofold.variants.chain2248.frontier import longest_path, paths_from
from twofold.variants.chain2248.hint.bits import (
    SIZE,
    TOUCH,
    bits,
    block_bound,
    component,
    free_bound,
    one_neighbour,
    pair_bound,
    region_bound,
    trim,
)
from twofold.variants.chain2248.hint.cover import FIRST_BUDGET, REFUTED, cover_from, may_cover

#: parts at least this big get the costly bounds before their search, not after
#: the first try (a big part that cannot be covered would otherwise be searched
#: through before the proof that it cannot is ever asked for)
EAGER = 20
#: the same for a path from one cell with a free other end
EAGER_FREE = 20

#: a path length the levels ask for: (kind, cell, other cell, region); the kinds:
#: from the cell (other cell 0), from the cell to the other, anywhere (both 0)
Query = tuple[int, int, int, int]
FROM, BETWEEN, ANYWHERE = 0, 1, 2

#: how a memoised best path goes on from its first cell (see Step)
END, STEP, DROP, DEAD_END, COVER = 0, 1, 2, 3, 4


class Step(NamedTuple):
    """How a memoised best path goes on from its first cell, by ``how``: END, it ends
    there; STEP to ``cell``, then on inside ``part``; DROP, on inside ``part`` (some
    cells dropped); DEAD_END, it ends at the dead end ``cell``, searched inside
    ``part``; COVER, it visits every cell (the path is kept whole)."""

    how: int
    cell: int = -1
    part: int = 0


ENDS_HERE = Step(END)
COVERED = Step(COVER)


class Anywhere(NamedTuple):
    """The longest path inside a region: ``length`` cells, from ``start`` inside ``part``
    (``end`` -1), or from ``start`` to ``end`` inside ``part``."""

    length: int
    start: int = -1
    end: int = -1
    part: int = 0


class TooSlow(Exception):
    """A query's search has spent its budget (see RegionPaths.allow)."""


class RegionPaths:
    """Longest simple paths inside the regions of one board, memoised.

    ``entries`` are the cells with a touching tile of half value, where a chain may
    come in, ``exits`` those with a touching tile of double value, where it may climb:
    the frontier programme answers a whole row of queries between them at once.
    """

    def __init__(self, entries: int = 0, exits: int = 0) -> None:
        self.entries, self.exits = entries, exits
        # (best length, how it goes on) by (start, part)
        self._free: dict[tuple[int, int], tuple[int, Step]] = {}
        # the same for paths between two cells, by (start, end, part)
        self._pair_memo: dict[tuple[int, int, int], tuple[int, Step]] = {}
        # paths from a start through every cell of a part, by (start, part)
        self._covers: dict[tuple[int, int], list[int]] = {}
        # proven upper bounds of longest_from, by (start, part): a path from x is one
        # cell more than a path from its next cell, so a bound passes down, less one
        self._ceiling: dict[tuple[int, int], int] = {}
        # paths between two cells found by the frontier programme, by (x, end, part)
        self._pair_paths: dict[tuple[int, int, int], list[int]] = {}
        self._anywhere: dict[int, Anywhere] = {}
        # the entries and exits the frontier programme was asked about, by region
        self._asked: dict[int, list[int]] = {}
        # search steps left before the query gives way to the frontier programme
        self._work = 1 << 62

    def allow(self, steps: int) -> None:
        """Let the next searches take ``steps`` steps, then raise TooSlow (else unbounded)."""
        self._work = steps

    def _spend(self) -> None:
        self._work -= 1
        if self._work < 0:
            raise TooSlow

    # -- from one cell, the other end free ----------------------------------------------

    def longest_from(self, x: int, comp: int) -> int:
        """Cells in the longest path starting at ``x`` inside ``comp`` (connected, holds x)."""
        key = (x, comp)
        known = self._free.get(key)
        if known is not None:
            return known[0]
        self._spend()
        rest = comp & ~(1 << x)
        best, how = 1, ENDS_HERE
        dead = one_neighbour(comp) & rest if rest else 0
        if dead:
            # A dead end can only be the last cell: either the path ends at one of them,
            # searched from that end (the tighter one), or it uses none of them.
            kept = comp & ~dead
            if kept != 1 << x:
                best, how = self.longest_from(x, kept), Step(DROP, part=kept)
            ceiling = self._ceiling.get(key, SIZE)
            for d in bits(dead):
                part = kept | (1 << d)
                if part.bit_count() <= best or best >= ceiling:
                    break
                length = self.longest_between(x, d, part)
                if length > best:
                    best, how = length, Step(DEAD_END, d, part)
        elif rest:
            bound = min(free_bound(x, comp), self._ceiling.get(key, SIZE))
            # a big part that may be covered is asked so at once: a proof that it
            # cannot passes down to every next cell (see _ceiling)
            tight = bound == comp.bit_count() >= EAGER_FREE
            if tight:
                bound, best, how = self._tight_free_bound(x, comp, bound, best, how, FIRST_BUDGET)
            for y in self._order(x, rest) if best < bound else ():
                part = component(1 << y, rest)
                if part.bit_count() + 1 <= best:
                    continue
                ceiling = self._ceiling.get(key)
                if ceiling is not None and ceiling - 1 < self._ceiling.get((y, part), SIZE):
                    self._ceiling[(y, part)] = ceiling - 1
                length = 1 + self.longest_from(y, part)
                if length > best:
                    best, how = length, Step(STEP, y, part)
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
        self, x: int, comp: int, bound: int, best: int, how: Step, budget: int = 0
    ) -> tuple[int, int, Step]:
        """The costlier bounds for a path from ``x``: blocks, then the cover search.

        A path through every cell, or the proof there is none, is far quicker to get
        than from a blind search that falls one cell short. Returns (bound, best, how).
        """
        bound = min(bound, block_bound(x, comp))
        if bound == comp.bit_count() >= EAGER and best < bound:
            cover = cover_from(x, comp, budget)
            if cover is REFUTED:
                bound -= 1
                self._ceiling[(x, comp)] = bound
            elif cover is not None:
                self._covers[(x, comp)] = cover
                best, how = len(cover), COVERED
        return bound, best, how

    def cover_first(self, x: int, comp: int) -> None:
        """Look for a path from ``x`` through every cell of ``comp`` before any search."""
        if (x, comp) in self._free:
            return
        cover = cover_from(x, comp, FIRST_BUDGET)
        if cover:
            self._covers[(x, comp)] = cover
            self._free[(x, comp)] = (len(cover), COVERED)
        elif cover is REFUTED:
            self._ceiling[(x, comp)] = comp.bit_count() - 1

    # -- between two cells --------------------------------------------------------------

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
        best, how = 0, ENDS_HERE
        trimmed = trim(comp, (1 << x) | (1 << end))
        if trimmed != comp:
            best, how = self._pair(x, end, trimmed), Step(DROP, part=trimmed)
        else:
            rest = comp & ~(1 << x)
            size = comp.bit_count()
            bound = pair_bound(x, end, comp)
            tight = size < EAGER
            if not tight:
                bound = min(bound, block_bound(x, comp, end))
                if bound == size and not may_cover(x, end, comp):
                    # Some cell must stay out: a path through all the others is the best
                    # hope, and asking which cell is far quicker than searching blind.
                    best, how = self._skip_one(x, end, comp)
                    bound = size - 1 if best == size - 1 else size - 2
            for y in self._order(x, rest) if best < bound else ():
                part = component(1 << y, rest)
                if not part >> end & 1 or part.bit_count() + 1 <= best:
                    continue
                length = self._pair(y, end, part)
                if length and length + 1 > best:
                    best, how = length + 1, Step(STEP, y, part)
                    if best >= bound:
                        break
                if not tight:
                    tight = True
                    bound = _tight_pair_bound(x, end, comp, bound)
                    if best >= bound:
                        break
        self._pair_memo[key] = (best, how)
        return best

    def _skip_one(self, x: int, end: int, comp: int) -> tuple[int, Step]:
        """The longest path from ``x`` to ``end`` through all cells of ``comp`` but one.

        Cells with fewer neighbours are tried first (they are what blocks a full path).
        """
        best, how = 0, ENDS_HERE
        target = comp.bit_count() - 1
        inner = comp & ~(1 << x) & ~(1 << end)
        for c in sorted(bits(inner), key=lambda c: ((TOUCH[c] & comp).bit_count(), c)):
            self._spend()
            part = comp & ~(1 << c)
            if component(1 << x, part) != part or not may_cover(x, end, part):
                continue
            length = self._pair(x, end, part)
            if length > best:
                best, how = length, Step(DROP, part=part)
                if best >= target:
                    break
        return best, how

    @staticmethod
    def _order(x: int, rest: int) -> list[int]:
        """The next cells to try: fewest onward moves first (Warnsdorff), then reading order."""
        nexts = bits(TOUCH[x] & rest)
        nexts.sort(key=lambda y: (TOUCH[y] & rest).bit_count())
        return nexts

    # -- anywhere in a region -----------------------------------------------------------

    def longest_anywhere(self, comp: int) -> Anywhere:
        """The longest path inside ``comp``: its length and where to rebuild it from."""
        known = self._anywhere.get(comp)
        if known is None:
            known = self._anywhere[comp] = self._longest_anywhere(comp)
        return known

    def _longest_anywhere(self, comp: int) -> Anywhere:
        """A path that visits a dead end ends there, so dead ends are tried as ends first."""
        dead = one_neighbour(comp)
        best = Anywhere(0)
        if dead and comp.bit_count() > 2:
            ends = bits(dead)
            kept = comp & ~dead
            for i, a in enumerate(ends):
                for b in ends[i + 1 :]:
                    part = kept | (1 << a) | (1 << b)
                    if part.bit_count() > best.length:
                        length = self.longest_between(a, b, part)
                        if length > best.length:
                            best = Anywhere(length, a, b, part)
                for_a = kept | (1 << a)
                if for_a.bit_count() > best.length:
                    length = self.longest_from(a, for_a)
                    if length > best.length:
                        best = Anywhere(length, a, -1, for_a)
            if kept.bit_count() > best.length:
                inner = self.longest_anywhere(kept)
                if inner.length > best.length:
                    # rebuilt inside this part's kept cells (the same path: the others
                    # are dead ends of it, trimmed before its search)
                    between = inner.end >= 0
                    best = inner._replace(part=kept) if between else inner
            return best
        bound = region_bound(comp)
        for x in bits(comp):
            length = self.longest_from(x, comp)
            if length > best.length:
                best = Anywhere(length, x, -1, comp)
                if length >= bound:
                    break
        return best

    # -- the frontier programme, once a search has spent its budget ---------------------

    def by_frontier(self, query: Query) -> int:
        """Answer a query with the frontier programme and keep the paths for the rebuild.

        A query about a path between an entry and an exit answers every query from that
        entry to an exit, or from an entry to that exit, at once.
        """
        kind, a, b, comp = query
        if kind == ANYWHERE:
            path = longest_path(comp, ())
            if path:
                self._free[(path[0], comp)] = (len(path), COVERED)
                self._covers[(path[0], comp)] = path
            self._anywhere[comp] = Anywhere(len(path), path[0], -1, comp) if path else Anywhere(0)
            return len(path)
        if kind == FROM:
            path = longest_path(comp, (a,))
            self._free[(a, comp)] = (len(path), COVERED)
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
        for end in bits(targets):
            path = found.get(end, [])
            # kept as the query would ask it: from the entry to the exit
            x, far = self._ends(end, anchor, comp) if anchor == b else self._ends(anchor, end, comp)
            self._pair_memo[(x, far, comp)] = (len(path), COVERED if path else ENDS_HERE)
            self._pair_paths[(x, far, comp)] = path if x == anchor else path[::-1]
        return self._pair_memo[(*self._ends(a, b, comp), comp)][0]

    # -- the paths themselves -----------------------------------------------------------

    def path_from(self, x: int, comp: int) -> list[int]:
        """The cells of the longest path from ``x`` inside ``comp``, from ``x`` on."""
        self.longest_from(x, comp)
        path = [x]
        while True:
            how, cell, part = self._free[(x, comp)][1]
            if how == STEP:
                x, comp = cell, part
                path.append(x)
            elif how == DROP:
                comp = part
            elif how == DEAD_END:
                return path[:-1] + self.path_between(x, cell, part)
            elif how == COVER:
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
            how, cell, part = self._pair_memo[(x, end, comp)][1]
            if how == STEP:
                x, comp = cell, part
                path.append(x)
            elif how == COVER:
                return path[:-1] + self._pair_paths[(x, end, comp)]
            else:
                comp = part
        return path

    def path_anywhere(self, comp: int) -> list[int]:
        """The cells of the longest path inside ``comp``."""
        found = self.longest_anywhere(comp)
        if found.end >= 0:
            return self.path_between(found.start, found.end, found.part)
        return self.path_from(found.start, found.part)


def _tight_pair_bound(x: int, end: int, comp: int, bound: int) -> int:
    """The costlier bounds: blocks, then whether every cell can be on the way."""
    bound = min(bound, block_bound(x, comp, end))
    if bound == comp.bit_count() and not may_cover(x, end, comp):
        bound -= 1
    return bound
