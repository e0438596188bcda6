"""The hint: the chain that makes the largest tile, found by search.

A chain's tile is N*v, so the best chain is the longest path through one group of
equal touching tiles, and the best group is the one whose value times size is
largest. The search goes through the groups best bound first and, in each, tries
every start with a depth-first search that visits the cells with the fewest free
neighbours first (so a path through the whole group is found early). It stops as
soon as no group left can beat the chain in hand, or a path covers its whole group.
On 6x6 the groups of a game in play are small and the search is exact; a budget of
steps keeps a pathological board (all 36 tiles equal) quick, giving the best path
found within it.
"""

from __future__ import annotations

from twofold.plugin import Board, Cell, Hint, eight_neighbours
from twofold.plugin import groups as touching_groups
from twofold_chainsum.rules import CELLS, SumState, neighbours

#: depth-first steps allowed for one hint
BUDGET = 20_000


def groups(board: Board) -> list[list[Cell]]:
    """The groups of at least two equal touching tiles, each sorted, in board order."""
    return touching_groups(board, CELLS, eight_neighbours)


class _Search:
    """The longest path in one group, within a shared budget of steps."""

    def __init__(self, group: list[Cell], budget: list[int]) -> None:
        members = set(group)
        self.links = {cell: [n for n in neighbours(cell) if n in members] for cell in group}
        self.size = len(group)
        self.budget = budget
        self.best: list[Cell] = []

    def longest(self) -> list[Cell]:
        for start in sorted(self.links):
            self._walk([start], {start})
            if len(self.best) == self.size or self.budget[0] <= 0:
                break
        return self.best

    def _walk(self, path: list[Cell], used: set[Cell]) -> None:
        self.budget[0] -= 1
        if len(path) > len(self.best):
            self.best = list(path)
        if len(self.best) == self.size or self.budget[0] <= 0:
            return
        free = [n for n in self.links[path[-1]] if n not in used]
        # fewest onward moves first (Warnsdorff): dead ends are used before they strand
        free.sort(key=lambda n: (sum(m not in used for m in self.links[n]), n))
        for cell in free:
            path.append(cell)
            used.add(cell)
            self._walk(path, used)
            used.discard(cell)
            path.pop()
            if len(self.best) == self.size or self.budget[0] <= 0:
                return


def best_chain(board: Board) -> tuple[Cell, ...]:
    """The chain that makes the largest tile (the longest one of equal value); () if none."""
    ranked = sorted(groups(board), key=lambda g: -board[g[0][0]][g[0][1]] * len(g))
    budget = [BUDGET]
    best: list[Cell] = []
    best_value = 0
    for group in ranked:
        value = board[group[0][0]][group[0][1]]
        if value * len(group) <= best_value:
            break  # sorted by bound: no group left can beat it
        path = _Search(group, budget).longest()
        if value * len(path) > best_value:
            best, best_value = path, value * len(path)
    return tuple(best)


def hint(state: SumState) -> Hint | None:
    """The mode's hint: ``chain R,C ...`` for the best chain, or None when none is left."""
    chain = best_chain(state.board)
    if not chain:
        return None
    return Hint("chain " + " ".join(f"{r},{c}" for r, c in chain), chain)
