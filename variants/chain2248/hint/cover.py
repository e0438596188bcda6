"""The cover search: is there a path through every cell of a part, and which?

A blind search that falls one cell short of a part's size tries every way before
it gives up; this one reasons about edges instead. Constraint propagation: the
ends use one edge, every other cell two; a cell with only as many usable edges as
it needs must use them all, a cell whose edges are all decided gives up the rest,
and no edge may close a loop or join the two ends before every cell is on the way.
A contradiction proves a cell must be left out. Past propagation, it branches on
one edge at a time, at the cell with the fewest choices, for a fixed number of
branches at most (a count, not a time, so the hint is the same on every machine).
"""

from __future__ import annotations

from twofold.variants.chain2248.hint.bits import SIZE, TOUCH, bits

#: the made-up free ends of a cover search (real cells are numbered below SIZE): a
#: cell touching every cell, so the path's real end may be any cell
FREE = SIZE

#: what the cover search says when it proved there is no path through every cell
REFUTED: list[int] = []

#: how many branches one cover search may take before it gives up; the plain search
#: then decides
COVER_BUDGET = 30
#: the same, for the one search a query of a whole region starts with
FIRST_BUDGET = 150


class Cover:
    """The edges a path from ``x`` to ``end`` through every cell of ``comp`` would need.

    An end may be ``FREE`` or ``FREE + 1`` (see FREE).
    """

    __slots__ = ("cells", "end", "group", "need", "size", "usable", "used", "x")

    def __init__(self, x: int, end: int, comp: int) -> None:
        self.x, self.end = x, end
        real = bits(comp)
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

    def copy(self) -> Cover:
        twin = object.__new__(Cover)
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

    def propagate(self) -> bool:
        """Decide every edge that the counts force; False on a contradiction."""
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
                    for w in bits(usable[v] & ~used[v]):
                        usable[w] &= ~(1 << v)
                    usable[v] = used[v]
                    changed = True
                elif can == n and has < n:
                    for w in bits(usable[v] & ~used[v]):
                        if not self.force(v, w):
                            return False
                    changed = True
        return True

    def ends_may_join(self) -> bool:
        """The quick test: propagate, then try each way out of each real end in turn.

        False proves there is no path through every cell. Propagates this cover.
        """
        if not self.propagate():
            return False
        for v in (self.x, self.end):
            if self.used[v] or v >= FREE:
                continue
            if not any(
                (trial := self.copy()).force(v, w) and trial.propagate()
                for w in bits(self.usable[v])
            ):
                return False
        return True

    def search(self, budget: list[int]) -> list[int] | None:
        """A path through every cell that keeps the edges decided so far, else REFUTED,
        or None once ``budget[0]`` (branches left) falls below 0."""
        cover = self
        while True:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            if not cover.propagate() or not cover._connected():
                return REFUTED
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
                if found is not REFUTED:
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
            for v in bits(new):
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


def may_cover(x: int, end: int, comp: int) -> bool:
    """False when no path from ``x`` to ``end`` can visit every cell of ``comp``."""
    return Cover(x, end, comp).ends_may_join()


def cover_from(x: int, comp: int, budget: int = 0) -> list[int] | None:
    """A path from ``x`` through every cell of ``comp`` (any other end); REFUTED if
    there is none; None if the search gave up (after ``budget`` or COVER_BUDGET
    branches). The other end is FREE, touching all."""
    cover = Cover(x, FREE, comp)
    if not cover.ends_may_join():
        return REFUTED
    return cover.search([budget or COVER_BUDGET])
