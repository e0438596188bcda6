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
programme (see :mod:`..frontier`), exact in a time bounded by the board's width; one
programme answers every query from the same entry, or to the same exit, at once, and
once a search from a cell has spent its budget in a region, the next ones there go
straight to the programme.
The slowest boards found by an adversarial search are pinned, with their answers, in
tests/chain2248/test_hint.py and the benchmark.

Among chains equal in tile and length the first found wins (a fixed order of
cells and searches), so the hint is deterministic.

The modules, one algorithm each: :mod:`.bits` (cells as bit masks, the quick and the
block-cut bounds), :mod:`.cover` (the cover search), :mod:`.paths` (the path search,
and the frontier programme's answers kept for the rebuild), :mod:`.levels` (the
dynamic programme across levels, and best_chain itself).
"""

from __future__ import annotations

from collections.abc import Sequence

from twofold.variants.chain2248.board import merge_value
from twofold.variants.chain2248.hint.levels import Chain, best_chain

__all__ = ["Chain", "best_chain", "chain_key"]


def chain_key(board: Sequence[Sequence[int]], chain: Chain | None) -> tuple[int, int]:
    """(tile made, length) of a chain, for comparing hints."""
    if not chain:
        return (0, 0)
    return (merge_value(sum(board[r][c] for r, c in chain)), len(chain))
