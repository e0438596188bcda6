"""The 2048 solver: expectimax over the new tile, with a per-row heuristic.

The search alternates the player's move (take the best of the moves that change the
board) and the deal's chance node (every empty cell equally likely, a 2 nine times in
ten, a 4 the tenth). It looks ``depth`` player moves ahead, deeper when the board is
crowded (where mistakes end games) and shallower when it is open, prunes branches whose
probability has become negligible, and caches chance nodes by board for the length of
one decision. Leaves are scored by a heuristic summed over every row and every column,
each looked up in a table filled lazily per row: empty cells, merges available,
monotone lines (which pulls the big tiles to an edge and into a corner), minus a
penalty growing with the tiles' size.

The solver is deterministic (the same state always gives the same move, ties going to
the first of left, right, up, down) and never picks a move that changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from twofold.core.i18n import _
from twofold.variants.classic2048.rules import SlideState
from twofold.variants.classic2048.slide import CELL_BITS, CELL_MASK, DIRECTIONS, LazyTable, engine

# Heuristic weights (after nneonneo's well-tested 2048 AI), applied per line.
#: every live line starts here, so any live board scores far above a lost one (0)
LINE_BASE = 200_000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0

#: branches less likely than this are scored by the heuristic instead of searched
PRUNE_PROBABILITY = 1e-4
MAX_DEPTH = 6


def line_score(line: tuple[int, ...]) -> float:
    """The heuristic value of one row or column of exponents."""
    total = 0.0
    empty = merges = 0
    previous = counter = 0
    for rank in line:
        total += rank**SUM_POWER
        if rank == 0:
            empty += 1
            continue
        if rank == previous:
            counter += 1
        elif counter:
            merges += 1 + counter
            counter = 0
        previous = rank
    if counter:
        merges += 1 + counter
    falling = rising = 0.0
    for a, b in pairwise(line):
        if a > b:
            falling += a**MONOTONICITY_POWER - b**MONOTONICITY_POWER
        else:
            rising += b**MONOTONICITY_POWER - a**MONOTONICITY_POWER
    return (
        LINE_BASE
        + EMPTY_WEIGHT * empty
        + MERGES_WEIGHT * merges
        - MONOTONICITY_WEIGHT * min(falling, rising)
        - SUM_WEIGHT * total
    )


class Solver:
    """Chooses moves for boards of one size.

    ``depth`` is how many player moves to look ahead, the one being chosen included
    (1 is greedy); None adapts it to the board, from 2 on an open board to 4 on a
    crowded one.
    """

    def __init__(self, size: int = 4, depth: int | None = None) -> None:
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(_("the search depth is from 1 to {most}").format(most=MAX_DEPTH))
        self.size = size
        self.depth = depth
        self.engine = engine(size)
        self._shifts = tuple(i * CELL_BITS for i in range(size * size))
        #: leaf values by board: the same leaves recur under many spawns and decisions
        self._leaves = LazyTable(self._compile_evaluate())  # type: ignore[arg-type]

    def _compile_evaluate(self) -> Callable[[int], float]:
        e = self.engine
        table = LazyTable(lambda row: line_score(e.row_cells(row)))  # type: ignore[arg-type]

        def lines(var: str) -> str:
            middle = [f"H[({var} >> {i * e.row_bits}) & RM]" for i in range(1, e.size - 1)]
            last = f"H[{var} >> {(e.size - 1) * e.row_bits}]"
            return " + ".join([f"H[{var} & RM]", *middle, last])

        # Unrolled like the moves: rows of the board, then rows of its transpose.
        source = f"def evaluate(b):\n    t = transpose(b)\n    return {lines('b')} + {lines('t')}\n"
        names: dict[str, Any] = {"H": table, "RM": e.row_mask, "transpose": e.transpose}
        exec(compile(source, f"<twofold 2048 heuristic {e.size}x{e.size}>", "exec"), names)
        return names["evaluate"]  # type: ignore[no-any-return]

    # -- choosing -----------------------------------------------------------------------

    def choose(self, state: SlideState) -> str | None:
        """The move to make in ``state`` (a SlideState), or None when no move changes it."""
        return self.choose_packed(state.packed)

    def depth_for(self, packed: int) -> int:
        """How many moves ahead to look: deeper as the board fills and its tiles diversify."""
        if self.depth is not None:
            return self.depth
        empty = sum(1 for s in self._shifts if not (packed >> s) & CELL_MASK)
        distinct = len({(packed >> s) & CELL_MASK for s in self._shifts} - {0})
        if empty <= 2 and distinct >= 8:
            return 4
        if empty <= 6 or distinct >= 9:
            return 3
        return 2

    def choose_packed(self, packed: int) -> str | None:
        scores = self.scores(packed)
        if not scores:
            return None
        return max(scores, key=lambda d: (scores[d], -DIRECTIONS.index(d)))

    def scores(self, packed: int, depth: int | None = None) -> dict[str, float]:
        """The expected heuristic value of each move that changes the board."""
        depth = self.depth_for(packed) if depth is None else depth
        moves = self.engine.board_moves
        successors = self.engine.successors
        leaves = self._leaves
        shifts = self._shifts
        cache: dict[int, tuple[int, float]] = {}

        def chance(board: int, depth: int, probability: float) -> float:
            if depth == 0 or probability < PRUNE_PROBABILITY:
                return leaves[board]
            known = cache.get(board)
            if known is not None and known[0] >= depth:
                return known[1]
            empty = [s for s in shifts if not (board >> s) & CELL_MASK]
            share = probability / len(empty)
            two, four = share * 0.9, share * 0.1
            total = 0.0
            for s in empty:
                total += 0.9 * best(board | 1 << s, depth, two)
                total += 0.1 * best(board | 2 << s, depth, four)
            value = total / len(empty)
            cache[board] = (depth, value)
            return value

        def best(board: int, depth: int, probability: float) -> float:
            top = 0.0  # no move left: the game is lost
            if depth == 1 or probability < PRUNE_PROBABILITY:  # the moves lead to leaves
                for moved in successors(board):
                    if moved != board:
                        value = leaves[moved]
                        if value > top:
                            top = value
                return top
            for moved in successors(board):
                if moved != board:
                    value = chance(moved, depth - 1, probability)
                    if value > top:
                        top = value
            return top

        found: dict[str, float] = {}
        for direction, move in zip(DIRECTIONS, moves, strict=True):
            moved = move(packed)
            if moved != packed:
                found[direction] = chance(moved, depth - 1, 1.0)
        return found


_solvers: dict[tuple[int, int | None], Solver] = {}


def solver(size: int, depth: int | None = None) -> Solver:
    """A shared solver for ``size`` (its heuristic table fills as boards are seen)."""
    key = (size, depth)
    found = _solvers.get(key)
    if found is None:
        found = _solvers[key] = Solver(size, depth)
    return found


def choose(state: SlideState, depth: int | None = None) -> str | None:
    """The solver's move for a 2048 state (None when no move changes it)."""
    return solver(state.size, depth).choose(state)
