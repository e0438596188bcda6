"""The 2048 solver: expectimax over the new tile, with a per-row heuristic.

The search alternates the player's move (take the best of the moves that change the
board) and the deal's chance node (every empty cell equally likely, a 2 nine times in
ten, a 4 the tenth). It looks ``depth`` player moves ahead, prunes branches whose
probability has become negligible, and caches chance nodes by board for the length of
one decision. Leaves are scored by a heuristic summed over every row and every column,
each looked up in a table of row values: empty cells, merges available, monotone lines
(which pulls the big tiles to an edge and into a corner), minus a penalty growing with
the tiles' size. On 4x4 boards a line pays a little more for rising towards its end than
towards its start, so the big tiles gather in one corner (the top left) and never in two
opposite ones: at a fixed depth of three it lost 37 games in 1,000 before 2048, against 58.

How deep: on 4x4 boards, two moves fewer than the board has kinds of tile (at least
three; nneonneo's 2048 AI looks one move further, at a third of the speed): a board of
many kinds is one where a wrong move strands a tile, and the probability pruning keeps
open boards cheap however deep the limit. A crowded 4x4 board (two cells empty or fewer,
or two moves open or fewer) is searched at least five moves ahead whatever its kinds of
tile, as far as nneonneo's looks on boards of up to six kinds: that is where a game dies,
and a crowded board's few spawns keep the deeper search cheap (six moves ahead cost half
as much again in a game to 2048). The 5x5 and 6x6
boards, roomy enough that two to four moves play well, adapt the depth to how full they
are.

Where a branch is pruned as too unlikely, the search scores the board by the heuristic
times the chance that the next tile leaves a move, so a spawn that ends the game is
never pruned away: only a board with one empty cell can be filled with no move left,
and a lost board is worth 0. A lost game scores less the sooner it comes, so a board
lost whatever happens still plays for time.

4x4 boards are searched by ``_expectimax.c``, compiled where the package is installed
(setup.py), which makes the same moves as the Python search here about 100 times
sooner: it adds the same doubles in the same order, and the tests hold the two equal.
Where no compiler was found, or a board holds a 65536, the Python search plays.

The solver is deterministic (the same state always gives the same move, ties going to
the first of left, right, up, down) and never picks a move that changes nothing.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import pairwise
from typing import Any

from twofold.plugin import _
from twofold.variants.classic2048.rules import SlideState
from twofold.variants.classic2048.slide import CELL_BITS, CELL_MASK, DIRECTIONS, LazyTable, engine

try:  # built by setup.py where a C compiler is found
    from twofold.variants.classic2048 import _expectimax
except ImportError:  # the same search in Python: the same moves, only slower
    _expectimax = None

# Heuristic weights (after nneonneo's well-tested 2048 AI), applied per line.
#: every live line starts here, so any live board scores far above a lost one (0)
LINE_BASE = 200_000.0
MONOTONICITY_POWER = 4.0
MONOTONICITY_WEIGHT = 47.0
SUM_POWER = 3.5
SUM_WEIGHT = 11.0
MERGES_WEIGHT = 700.0
EMPTY_WEIGHT = 270.0
#: on 4x4 boards a line also pays this for each rise towards its end (right in a row, down
#: in a column), so the big tiles keep one corner, the top left: nneonneo's lines may rise
#: either way, which lets the two largest tiles settle in opposite corners and lose the game
CORNER_WEIGHT = 15.0
#: and never more than this a line, so that the eight lines together cannot take a live board
#: down to a lost one's value (0), whichever corner its big tiles were forced into
CORNER_MOST = LINE_BASE / 4

#: branches less likely than this are scored by the heuristic instead of searched
PRUNE_PROBABILITY = 1e-4
#: the deepest ``--depth`` a player may ask for (the 4x4 default goes deeper where it pays)
MAX_DEPTH = 6
#: 4x4 depth: the board's kinds of tile less DEEP_FEWER, and never under DEEP_LEAST
DEEP_FEWER = 2
DEEP_LEAST = 3
#: a 4x4 board with at most CROWDED cells empty, or at most CROWDED moves open, is searched
#: at least CROWDED_LEAST moves ahead, however few kinds of tile it holds
CROWDED = 2
CROWDED_LEAST = 5


def corner_weight(size: int) -> float:
    """The corner term's weight on a board of this size (see CORNER_WEIGHT)."""
    # measured on 4x4 only: the bigger boards keep nneonneo's lines, free to rise either way
    return CORNER_WEIGHT if size == 4 else 0.0


def line_score(line: tuple[int, ...], corner: float = CORNER_WEIGHT) -> float:
    """The heuristic value of one row or column of exponents, its first cell the corner's."""
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
        - min(corner * rising, CORNER_MOST)
        - SUM_WEIGHT * total
    )


class Solver:
    """Chooses moves for boards of one size.

    ``depth`` is how many player moves to look ahead, the one being chosen included
    (1 is greedy); None adapts it to the board (see the module's docstring).
    """

    def __init__(self, size: int = 4, depth: int | None = None, compiled: bool = True) -> None:
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(_("the search depth is from 1 to {most}").format(most=MAX_DEPTH))
        self.size = size
        self.depth = depth
        #: the Autoplayer's ``compiled`` fact: whether the compiled 4x4 search runs (same
        #: moves, sooner); None on the other sizes, which have no compiled search
        self.compiled: bool | None = (compiled and _expectimax is not None) if size == 4 else None
        if self.compiled:
            _configure_compiled()
        self.engine = engine(size)
        self._shifts = tuple(i * CELL_BITS for i in range(size * size))
        evaluate = self._compile_evaluate()
        #: leaf values by board: the same leaves recur under many spawns and decisions
        self._leaves = LazyTable(evaluate)  # type: ignore[arg-type]
        #: the leaves of pruned branches, by board (see horizon)
        self._horizons = LazyTable(self._compile_horizon(evaluate))  # type: ignore[arg-type]

    def _compile_evaluate(self) -> Callable[[int], float]:
        e = self.engine
        corner = corner_weight(e.size)
        table = LazyTable(lambda row: line_score(e.row_cells(row), corner))  # type: ignore[arg-type]

        def lines(var: str) -> str:
            middle = [f"H[({var} >> {i * e.row_bits}) & RM]" for i in range(1, e.size - 1)]
            last = f"H[{var} >> {(e.size - 1) * e.row_bits}]"
            return " + ".join([f"H[{var} & RM]", *middle, last])

        # Unrolled like the moves: rows of the board, then rows of its transpose.
        source = f"def evaluate(b):\n    t = transpose(b)\n    return {lines('b')} + {lines('t')}\n"
        names: dict[str, Any] = {"H": table, "RM": e.row_mask, "transpose": e.transpose}
        exec(compile(source, f"<twofold 2048 heuristic {e.size}x{e.size}>", "exec"), names)
        return names["evaluate"]  # type: ignore[no-any-return]

    def _compile_horizon(self, evaluate: Callable[[int], float]) -> Callable[[int], float]:
        """The value of a board whose branch is pruned: the heuristic, times the chance that
        the next tile leaves a move (only a board with one empty cell can be filled dead), so
        the pruning never hides a tile that ends the game."""
        successors = self.engine.successors
        shifts = self._shifts

        def alive(full: int) -> bool:
            return any(moved != full for moved in successors(full))

        def horizon(board: int) -> float:
            value = evaluate(board)
            empty = [s for s in shifts if not (board >> s) & CELL_MASK]
            if len(empty) != 1:
                return value
            two, four = alive(board | 1 << empty[0]), alive(board | 2 << empty[0])
            if two and four:
                return value
            return value * (0.9 if two else 0.1 if four else 0.0)

        return horizon

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
        if self.size == 4:
            depth = max(DEEP_LEAST, distinct - DEEP_FEWER)
            if depth < CROWDED_LEAST and (empty <= CROWDED or self._open(packed) <= CROWDED):
                return CROWDED_LEAST
            return depth
        if empty <= 2 and distinct >= 8:
            return 4
        if empty <= 6 or distinct >= 9:
            return 3
        return 2

    def _open(self, packed: int) -> int:
        """How many moves change the board."""
        return sum(1 for moved in self.engine.successors(packed) if moved != packed)

    def choose_packed(self, packed: int) -> str | None:
        scores = self.scores(packed)
        if not scores:
            return None
        return max(scores, key=lambda d: (scores[d], -DIRECTIONS.index(d)))

    def scores(self, packed: int, depth: int | None = None) -> dict[str, float]:
        """The expected heuristic value of each move that changes the board."""
        depth = self.depth_for(packed) if depth is None else depth
        if self.compiled:
            board = nibbles(packed)
            found = None if board is None else _expectimax.scores(board, depth, PRUNE_PROBABILITY)
            if found is not None:
                return {d: v for d, v in zip(DIRECTIONS, found, strict=True) if v is not None}
        return self._search(packed, depth)

    def _search(self, packed: int, depth: int) -> dict[str, float]:
        """The search itself, in Python; _expectimax.c is the same, node for node."""
        moves = self.engine.board_moves
        successors = self.engine.successors
        leaves = self._leaves
        horizons = self._horizons
        shifts = self._shifts
        cache: dict[int, tuple[int, float]] = {}

        def chance(board: int, depth: int, probability: float) -> float:
            if depth == 0:
                return leaves[board]
            if probability < PRUNE_PROBABILITY:
                return horizons[board]
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
            # no move left: the game is lost, the sooner the worse (see horizon), so a board
            # that loses whatever happens still plays for time
            top = float(-depth)
            if depth == 1 or probability < PRUNE_PROBABILITY:  # the moves lead to leaves
                ends = horizons if probability < PRUNE_PROBABILITY else leaves
                for moved in successors(board):
                    if moved != board:
                        value = ends[moved]
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


def nibbles(packed: int) -> int | None:
    """A 4x4 board packed four bits a cell, for the compiled search; None past a 32768."""
    board = 0
    for cell in range(16):
        exponent = (packed >> (cell * CELL_BITS)) & CELL_MASK
        if exponent > 15:
            return None
        board |= exponent << (cell * 4)
    return board


#: whether the compiled search has its heuristic table (it is handed over once a process)
_configured = False


def _configure_compiled() -> None:
    """Hand the compiled search the heuristic of every 4-cell row (once per process)."""
    global _configured
    if not _configured:
        corner = corner_weight(4)
        rows = array(
            "d",
            (line_score(tuple(r >> s & 15 for s in (0, 4, 8, 12)), corner) for r in range(1 << 16)),
        )
        _expectimax.configure(rows)
        _configured = True


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
