"""The reference the exact hint is tested against: every chain, one by one."""

from __future__ import annotations

from collections.abc import Sequence

from twofold.variants.chain2248.board import CELLS, NEIGHBOURS, Cell, merge_value
from twofold.variants.chain2248.hint import Chain


def brute_force_chain(board: Sequence[Sequence[int]]) -> Chain | None:
    """The chain that makes the biggest tile and, among those, the longest; None if stuck.

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
