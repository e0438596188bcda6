"""The 2048 move engine: one rule for one line, and fast table-driven moves built from it.

A board is packed into one integer: each cell holds the *exponent* of its tile (0 for
empty, 1 for a 2, 11 for a 2048) in ``CELL_BITS`` bits; cell ``(row, col)`` sits at bit
``row * row_bits + col * CELL_BITS``, so row 0 (the top) is the lowest ``row_bits`` bits
and column 0 (the left) the lowest cell of its row. Five bits hold exponents up to 31,
2**31, a tile no game reaches (it takes about a billion moves); two of them do not merge,
so a packed board can never overflow.

:func:`trace_line` is the only statement of the rule: a line is resolved from the wall
moved towards, inwards. Every direction is that rule read along mirrored or transposed
lines. :class:`Engine` turns it into per-row lookup tables (memoised lazily, since a
table of every possible row would be far too large from 5x5 up) so a move costs a
handful of integer operations per row: left and right read rows directly; up and down
first transpose the board with the same kind of table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

CELL_BITS = 5
CELL_MASK = (1 << CELL_BITS) - 1
MAX_EXPONENT = CELL_MASK
DIRECTIONS = ("left", "right", "up", "down")
SIZES = (4, 5, 6)

Cell = tuple[int, int]


@dataclass(frozen=True)
class LineTrace:
    """What one move does to one line, indices counted from the wall moved towards."""

    #: the exponents after the move
    result: tuple[int, ...]
    #: score gained: the value of every tile made
    gain: int
    #: every tile that moves: (from index, to index, exponent before the move)
    slides: tuple[tuple[int, int, int], ...]
    #: every tile made: (index, exponent made)
    merges: tuple[tuple[int, int], ...]


@lru_cache(maxsize=1 << 16)
def trace_line(line: tuple[int, ...]) -> LineTrace:
    """Resolve one line of exponents pushed towards index 0 (the wall).

    Tiles slide as far as they can; two equal tiles that meet merge into one of double
    value; a tile made by a merge does not merge again in the same move, so of three
    equal tiles the two nearest the wall merge.
    """
    result: list[int] = []
    slides: list[tuple[int, int, int]] = []
    merges: list[tuple[int, int]] = []
    gain = 0
    last_made = False  # whether result[-1] was made in this move
    for index, exponent in enumerate(line):
        if not exponent:
            continue
        if result and result[-1] == exponent and not last_made and exponent < MAX_EXPONENT:
            target = len(result) - 1
            result[-1] = exponent + 1
            gain += 1 << (exponent + 1)
            merges.append((target, exponent + 1))
            last_made = True
        else:
            target = len(result)
            result.append(exponent)
            last_made = False
        if target != index:
            slides.append((index, target, exponent))
    result.extend([0] * (len(line) - len(result)))
    return LineTrace(tuple(result), gain, tuple(slides), tuple(merges))


class LazyTable(dict[int, int]):
    """A lookup table filled on first use; cleared when full to keep memory bounded."""

    __slots__ = ("build",)
    LIMIT = 1 << 17

    def __init__(self, build: Callable[[int], int]) -> None:
        super().__init__()
        self.build = build

    def __missing__(self, key: int) -> int:
        if len(self) >= self.LIMIT:
            self.clear()
        value = self[key] = self.build(key)
        return value


_MOVE_SOURCE = """
def left(b):
    s = {left}
    return s & BM, s >> BB

def right(b):
    s = {right}
    return s & BM, s >> BB

def up(b):
    t = {transpose}
    s = {up}
    return s & BM, s >> BB

def down(b):
    t = {transpose}
    s = {down}
    return s & BM, s >> BB

def transpose(b):
    return {transpose}

def left_board(b):
    return ({left}) & BM

def right_board(b):
    return ({right}) & BM

def up_board(b):
    t = {transpose}
    return ({up}) & BM

def down_board(b):
    t = {transpose}
    return ({down}) & BM

def successors(b):
    {split_rows}
    t = {transpose_split}
    {split_columns}
    return (
        ({left_split}) & BM,
        ({right_split}) & BM,
        ({up_split}) & BM,
        ({down_split}) & BM,
    )

def values(b):
    return ({value_rows},)

def empty_cells(b):
    return {empty_rows}
"""


class Engine:
    """Packed boards of one size and the four moves on them."""

    def __init__(self, size: int) -> None:
        if size < 2:
            raise ValueError("a board has at least 2 rows")
        self.size = size
        self.row_bits = size * CELL_BITS
        self.row_mask = (1 << self.row_bits) - 1
        self.board_bits = size * self.row_bits
        self.board_mask = (1 << self.board_bits) - 1
        self._row_shifts = tuple(r * self.row_bits for r in range(size))
        self.cells = size * size
        self.left: Callable[[int], tuple[int, int]]
        self.right: Callable[[int], tuple[int, int]]
        self.up: Callable[[int], tuple[int, int]]
        self.down: Callable[[int], tuple[int, int]]
        #: rows become columns: cell (r, c) moves to (c, r)
        self.transpose: Callable[[int], int]
        #: the four moves without the score, in DIRECTIONS order (for searching)
        self.board_moves: tuple[Callable[[int], int], ...]
        #: all four boards a move can give, in DIRECTIONS order, sharing the row reads
        self.successors: Callable[[int], tuple[int, int, int, int]]
        #: the tile values of a board (0 for an empty cell), rows top first
        self.values: Callable[[int], tuple[tuple[int, ...], ...]]
        #: indices (``row * size + col``) of the empty cells, in row-major order
        self.empty_cells: Callable[[int], tuple[int, ...]]
        #: the moves that change a board, as bits (bit i: DIRECTIONS[i]), no board made
        self.moving: Callable[[int], int]
        self._compile()
        # a packed row read once: its exponents
        self._row_exponents: dict[int, tuple[int, ...]] = {}
        self.moves: dict[str, Callable[[int], tuple[int, int]]] = {
            "left": self.left,
            "right": self.right,
            "up": self.up,
            "down": self.down,
        }

    # -- packing ------------------------------------------------------------------------

    def row_cells(self, row: int) -> tuple[int, ...]:
        """The exponents of one packed row, column 0 first."""
        return tuple((row >> (c * CELL_BITS)) & CELL_MASK for c in range(self.size))

    def pack_row(self, exponents: Sequence[int]) -> int:
        packed = 0
        for col, exponent in enumerate(exponents):
            packed |= exponent << (col * CELL_BITS)
        return packed

    def pack(self, exponents: Sequence[Sequence[int]]) -> int:
        """A board of exponents (rows top first) as one packed integer."""
        packed = 0
        for r, row in enumerate(exponents):
            packed |= self.pack_row(row) << (r * self.row_bits)
        return packed

    def rows(self, packed: int) -> list[int]:
        """The packed rows of a board, top first."""
        mask = self.row_mask
        return [(packed >> shift) & mask for shift in self._row_shifts]

    def unpack(self, packed: int) -> tuple[tuple[int, ...], ...]:
        """The exponents of a packed board, rows top first."""
        known = self._row_exponents
        if len(known) > LazyTable.LIMIT:
            known.clear()
        return tuple(
            known[row] if row in known else known.setdefault(row, self.row_cells(row))
            for row in self.rows(packed)
        )

    def shift(self, row: int, col: int) -> int:
        """The bit where cell ``(row, col)`` starts."""
        return row * self.row_bits + col * CELL_BITS

    # -- moves --------------------------------------------------------------------------

    def slide(self, packed: int, direction: str) -> tuple[int, int]:
        """The board after a move (before any new tile) and the score it gains."""
        return self.moves[direction](packed)

    def can_move(self, packed: int) -> bool:
        return any(move(packed)[0] != packed for move in self.moves.values())

    def lines(self, direction: str) -> list[list[Cell]]:
        """Every line a move resolves, each as its cells from the wall inwards."""
        n = self.size
        span = range(n)
        wall_first = {
            "left": [[(r, c) for c in span] for r in span],
            "right": [[(r, c) for c in reversed(span)] for r in span],
            "up": [[(r, c) for r in span] for c in span],
            "down": [[(r, c) for r in reversed(span)] for c in span],
        }
        return wall_first[direction]

    # -- tables -------------------------------------------------------------------------

    def _slid_row(self, reverse: bool, row: int) -> int:
        """One packed row slid towards column 0 (or the last column), its gain above it."""
        cells = self.row_cells(row)
        trace = trace_line(cells[::-1] if reverse else cells)
        result = trace.result[::-1] if reverse else trace.result
        return self.pack_row(result) | trace.gain << self.row_bits

    def _values_of_row(self, row: int) -> tuple[int, ...]:
        return tuple(1 << e if e else 0 for e in self.row_cells(row))

    def _empty_of_row(self, index: int, row: int) -> tuple[int, ...]:
        start = index * self.size
        return tuple(start + c for c, e in enumerate(self.row_cells(row)) if not e)

    def _compile_moving(self) -> Callable[[int], int]:
        """The moves that change a board, as bits, from the board's bits alone: a line moves
        towards its wall where an empty cell has a tile beyond it, or two equal tiles below
        the largest touch (a line with no such gap is packed against the wall)."""
        n, cell, row = self.size, CELL_BITS, self.row_bits
        low = sum(1 << (i * cell) for i in range(n * n))  # each cell's lowest bit
        inner_columns = sum(1 << (r * row + c * cell) for r in range(n) for c in range(n - 1))
        inner_rows = sum(1 << (r * row + c * cell) for r in range(n - 1) for c in range(n))

        def moving(b: int) -> int:
            tiles = (b | b >> 1 | b >> 2 | b >> 3 | b >> 4) & low
            empty = low ^ tiles
            largest = b & b >> 1 & b >> 2 & b >> 3 & b >> 4 & low  # MAX_EXPONENT never merges
            mergeable = tiles & ~largest
            d = b ^ b >> cell  # zero where a cell equals its right neighbour
            across = ~(d | d >> 1 | d >> 2 | d >> 3 | d >> 4) & mergeable & inner_columns
            d = b ^ b >> row  # zero where a cell equals the one below it
            down = ~(d | d >> 1 | d >> 2 | d >> 3 | d >> 4) & mergeable & inner_rows
            return (
                (1 if across or empty & tiles >> cell & inner_columns else 0)
                | (2 if across or tiles & empty >> cell & inner_columns else 0)
                | (4 if down or empty & tiles >> row & inner_rows else 0)
                | (8 if down or tiles & empty >> row & inner_rows else 0)
            )

        return moving

    def _column_table(self, index: int) -> LazyTable:
        """A row of cells -> the same cells as column ``index`` (row ``index`` of a board
        becomes column ``index``: the transpose)."""

        def build(row: int) -> int:
            packed = 0
            for r, exponent in enumerate(self.row_cells(row)):
                packed |= exponent << self.shift(r, index)
            return packed

        return LazyTable(build)

    def _moved_table(self, slid: LazyTable, place: Callable[[int], int]) -> LazyTable:
        """A row of cells -> those cells as ``slid`` moves them, put where ``place`` puts a
        packed row (a row of the board, or a column through the transpose's table), plus
        the gain."""
        row_bits, row_mask, gain_shift = self.row_bits, self.row_mask, self.board_bits

        def build(row: int) -> int:
            moved = slid[row]
            return place(moved & row_mask) + ((moved >> row_bits) << gain_shift)

        return LazyTable(build)

    def _compile(self) -> None:
        # Unrolled per size: a loop over the rows would cost a third of the speed.
        n = self.size
        names: dict[str, object] = {"BM": self.board_mask, "BB": self.board_bits}

        def rows(var: str, table: str, joiner: str) -> str:
            parts = []
            for i in range(n):
                shifted = var if i == 0 else f"({var} >> {i * self.row_bits})"
                parts.append(
                    f"{table}{i}[{shifted}]" if i == n - 1 else f"{table}{i}[{shifted} & RM]"
                )
            return f" {joiner} ".join(parts)

        def split(var: str, prefix: str) -> str:
            reads = [f"{prefix}0 = {var} & RM"]
            for i in range(1, n - 1):
                reads.append(f"{prefix}{i} = ({var} >> {i * self.row_bits}) & RM")
            reads.append(f"{prefix}{n - 1} = {var} >> {(n - 1) * self.row_bits}")
            return "; ".join(reads)

        def lookups(var: str, table: str, joiner: str) -> str:
            return f" {joiner} ".join(f"{table}{i}[{var}{i}]" for i in range(n))

        names["RM"] = self.row_mask
        values = LazyTable(self._values_of_row)  # type: ignore[arg-type]
        for i in range(n):
            names[f"V{i}"] = values  # one table: a row's values are the same in any row
            names[f"E{i}"] = LazyTable(partial(self._empty_of_row, i))  # type: ignore[arg-type]
        # each row is slid once each way, whichever of the tables below first meets it
        towards_first = LazyTable(partial(self._slid_row, False))  # type: ignore[arg-type]
        towards_last = LazyTable(partial(self._slid_row, True))  # type: ignore[arg-type]
        for i in range(n):
            as_row = (i * self.row_bits).__rlshift__  # a packed row put as row i
            names[f"L{i}"] = self._moved_table(towards_first, as_row)
            names[f"R{i}"] = self._moved_table(towards_last, as_row)
            names[f"T{i}"] = column = self._column_table(i)
            names[f"U{i}"] = self._moved_table(towards_first, column.__getitem__)
            names[f"D{i}"] = self._moved_table(towards_last, column.__getitem__)
        source = _MOVE_SOURCE.format(
            left=rows("b", "L", "+"),
            right=rows("b", "R", "+"),
            transpose=rows("b", "T", "|"),
            up=rows("t", "U", "+"),
            down=rows("t", "D", "+"),
            split_rows=split("b", "r"),
            transpose_split=lookups("r", "T", "|"),
            split_columns=split("t", "c"),
            left_split=lookups("r", "L", "+"),
            right_split=lookups("r", "R", "+"),
            up_split=lookups("c", "U", "+"),
            down_split=lookups("c", "D", "+"),
            value_rows=rows("b", "V", ","),
            empty_rows=rows("b", "E", "+"),
        )
        exec(compile(source, f"<twofold 2048 moves {n}x{n}>", "exec"), names)
        self.left = names["left"]  # type: ignore[assignment]
        self.right = names["right"]  # type: ignore[assignment]
        self.up = names["up"]  # type: ignore[assignment]
        self.down = names["down"]  # type: ignore[assignment]
        self.transpose = names["transpose"]  # type: ignore[assignment]
        self.board_moves = tuple(names[f"{d}_board"] for d in DIRECTIONS)  # type: ignore[misc]
        self.successors = names["successors"]  # type: ignore[assignment]
        self.moving = self._compile_moving()
        self.values = names["values"]  # type: ignore[assignment]
        self.empty_cells = names["empty_cells"]  # type: ignore[assignment]


_engines: dict[int, Engine] = {}


def engine(size: int) -> Engine:
    """The shared engine for boards of ``size`` (tables are filled as boards are seen)."""
    found = _engines.get(size)
    if found is None:
        found = _engines[size] = Engine(size)
    return found


def slide(board: int, direction: str, size: int = 4) -> tuple[int, int]:
    """Move a packed board of ``size``: the board before the new tile, and the score gained."""
    return engine(size).slide(board, direction)
