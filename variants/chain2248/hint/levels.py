"""The level planning: the best chain across levels, on upper bounds first.

A dynamic programme over (last cell of a level, carry) keeps the longest chain for
each, walking the values upwards (see the package's docstring for the carry). It is
planned on upper bounds of the path lengths first, and only the searches the winning
plan leans on are run, again and again until the winner leans on exact lengths alone:
then no other plan, judged on numbers at least as large as the truth, can beat it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from twofold.variants.chain2248.board import CELLS, Cell
from twofold.variants.chain2248.hint.bits import (
    SIZE,
    TOUCH,
    bits,
    block_bound,
    component,
    free_bound,
    pair_bound,
    region_bound,
)
from twofold.variants.chain2248.hint.paths import (
    ANYWHERE,
    BETWEEN,
    EAGER,
    FROM,
    Query,
    RegionPaths,
    TooSlow,
)

Chain = tuple[Cell, ...]

#: search steps one query may take before the frontier programme answers it instead (a
#: count, not a time, so the hint is the same on every machine): the search is far
#: quicker on almost every board, the programme's time is bounded on all of them
WORK_BUDGET = 1000
#: regions at least this big are planned on the block-cut bound too: it is often
#: exact where the quick bounds are not, and spares the searches of every start
PLAN_BLOCKS = 12
#: regions at least this big get the block-cut bound on a query's first use
EAGER_BLOCKS = 16


class Lengths:
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
            if kind == FROM:
                bound = free_bound(a, region)
            elif kind == BETWEEN:
                bound = 1 if a == b else pair_bound(a, b, region)
            else:
                bound = region_bound(region)
            self.bounds[query] = bound
            if kind != ANYWHERE and region.bit_count() >= EAGER_BLOCKS:
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
        if kind == FROM:
            bound = min(bound, block_bound(a, region))
        elif kind == BETWEEN and a != b:
            bound = min(bound, block_bound(a, region, b))
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
            self.paths.allow(WORK_BUDGET)
            try:
                self.exact[query] = self._search(query)
            except TooSlow:
                if kind == FROM:  # (a pair's programme answers a whole row at once)
                    self.slow.add((kind, region))
                self.exact[query] = self.paths.by_frontier(query)
        return bool(todo)

    def _search(self, query: Query) -> int:
        """The exact length by the path search (TooSlow once it spends its budget)."""
        kind, a, b, region = query
        if kind == FROM:
            if self.bounds.get(query) == region.bit_count() >= EAGER:
                # a path through every cell may be there, and a blind search may
                # not come upon it until it has tried every other way first
                self.paths.cover_first(a, region)
            return self.paths.longest_from(a, region)
        if kind == BETWEEN:
            return self.paths.longest_between(a, b, region)
        return self.paths.longest_anywhere(region).length


#: where a level of a chain came from: (the previous level's last cell, its carry, the
#: entry cell of this level); a plain tuple, as the plan makes one at every step
Back = tuple[int, int, int]
#: the longest chain whose level ends at (cell, carry): (length, back); back is None
#: for a first level
Levels = dict[tuple[int, int], tuple[int, Back | None]]


class Finish(NamedTuple):
    """The last step of the winning plan: a chain of one level (``single``) in the
    region of ``cell``; or a last level from ``start``, climbing from the level that
    ends at ``cell`` with ``carry``."""

    single: bool
    cell: int = -1
    carry: int = 0
    start: int = -1


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
            comp = component(left & -left, mask)
            for i in bits(comp):
                region_of[i] = comp
            left &= ~comp
    # exits: cells with a touching tile of double value, where a chain may climb;
    # entries: cells with a touching tile of half value, where it may come in
    exits = entries = 0
    for i, v in enumerate(values):
        if TOUCH[i] & by_value.get(2 * v, 0):
            exits |= 1 << i
    for i, v in enumerate(values):
        if v % 2 == 0 and TOUCH[i] & by_value.get(v // 2, 0):
            entries |= 1 << i
    paths = RegionPaths(entries, exits)
    lengths = Lengths(paths)
    while True:
        winner, finish, best = _plan(values, by_value, region_of, exits, lengths)
        if not winner[0]:
            return None
        if not lengths.settle(_queries(finish, best, region_of)):
            break
    if finish.single:
        cells = paths.path_anywhere(region_of[finish.cell])
    else:
        cells = _rebuild(finish, best, region_of, paths)
    return tuple(CELLS[i] for i in cells)


def _next_power(n: int) -> int:
    return 1 << (n - 1).bit_length()


def _plan(
    values: list[int],
    by_value: dict[int, int],
    region_of: list[int],
    exits: int,
    lengths: Lengths,
) -> tuple[tuple[int, int], Finish, Levels]:
    """The best chain on the lengths known so far: (tile, length), its last step, the levels."""
    best: Levels = {}
    winner: tuple[int, int] = (0, 0)
    # the winner's Finish, as plain fields until the end (a plan offers many)
    finish: tuple[bool, int, int, int] = (False, -1, 0, -1)

    # chains of one level: the longest path in each region of two or more tiles
    for i in range(SIZE):
        region = region_of[i]
        if region.bit_count() < 2 or region & ((1 << i) - 1):
            continue  # single tile, or not the region's first cell
        n = lengths.get((ANYWHERE, 0, 0, region))
        offer = (values[i] * _next_power(n), n)
        if offer > winner:
            winner, finish = offer, (True, i, 0, -1)

    # the first level of a longer chain: any path of two or more tiles ending at an exit
    for e in bits(exits):
        region = region_of[e]
        if region.bit_count() >= 2:
            n = lengths.get((FROM, e, 0, region))
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
            for s in bits(TOUCH[x] & upper):
                region = region_of[s]
                n = lengths.get((FROM, s, 0, region))
                offer = (2 * v * _next_power(n + half), length + n)
                if offer > winner:
                    winner, finish = offer, (False, x, carry, s)
                for e in bits(region & exits):
                    n = lengths.get((BETWEEN, s, e, region))
                    if not n:
                        continue
                    key = (e, n + half)
                    if length + n > best.get(key, (0, None))[0]:
                        best[key] = (length + n, (x, carry, s))
    return winner, Finish(*finish), best


def _queries(finish: Finish, best: Levels, region_of: list[int]) -> list[Query]:
    """The path lengths the winning plan leans on."""
    if finish.single:
        return [(ANYWHERE, 0, 0, region_of[finish.cell])]
    x, carry, s = finish.cell, finish.carry, finish.start
    queries: list[Query] = [(FROM, s, 0, region_of[s])]
    while True:
        back = best[(x, carry)][1]
        if back is None:
            queries.append((FROM, x, 0, region_of[x]))
            return queries
        before, before_carry, entry = back
        queries.append((BETWEEN, entry, x, region_of[x]))
        x, carry = before, before_carry


def _rebuild(finish: Finish, best: Levels, region_of: list[int], paths: RegionPaths) -> list[int]:
    """The cells of the winning chain, first to last."""
    x, carry, s = finish.cell, finish.carry, finish.start
    tail = paths.path_from(s, region_of[s])
    while True:
        back = best[(x, carry)][1]
        if back is None:
            return paths.path_from(x, region_of[x])[::-1] + tail
        before, before_carry, entry = back
        tail = paths.path_between(entry, x, region_of[x]) + tail
        x, carry = before, before_carry
