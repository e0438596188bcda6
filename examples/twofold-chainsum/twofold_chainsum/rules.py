"""The rules of Chain Sum, as pure functions of immutable states.

The board is 6x6 and always full. A chain is a path of at least two equal tiles,
each touching the one before it (sideways, up, down or diagonally), no cell twice.
A chain of N tiles of value v becomes one tile N*v on its last cell, exactly: four
3s make 12. The score grows by that tile. The other cells of the chain empty; the
tiles above fall into the gaps and new tiles drop in from the top.

Every event is one of twofold's vocabulary (``twofold.plugin``): the chain is
``Merged`` (its cells in the order drawn), a tile that drops is ``Fell`` and a new
tile is ``Appeared``, so twofold's chain board animates it as it animates any chain.

The deal: each new tile takes one draw of ``twofold.plugin``, filling columns
left to right, each from its top down: ``below(code, n, 10)`` gives a 1 for 0-4, a
2 for 5-7 and a 3 for 8-9. A new game fills the empty board that way (36 draws).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    Appeared,
    Board,
    Cell,
    Event,
    Fell,
    Merged,
    Outcome,
    PositionError,
    Refused,
    _,
    below,
)

SIZE = 6
#: a draw below(code, n, 10) under each bound gives the value beside it
DEAL = ((5, 1), (8, 2), (10, 3))
UNDO = "undo"
_CELL = re.compile(r"(-?\d+)\s*,\s*(-?\d+)")


@dataclass(frozen=True)
class SumState:
    """One moment of a Chain Sum game."""

    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far: undo brings it back, so a redo meets the same tiles
    draws: int = 0
    #: chains made in this game, and the longest of them (kept in the records)
    chains: int = 0
    longest: int = 0


# -- the board ---------------------------------------------------------------------------------


def touching(a: Cell, b: Cell) -> bool:
    """Whether two different cells touch, diagonals included."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def neighbours(cell: Cell) -> list[Cell]:
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    ]


def on_board(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def cell_words(cell: Cell) -> str:
    """A cell as people count it: from 1."""
    return _("row {row}, column {column}").format(row=cell[0] + 1, column=cell[1] + 1)


def problem(board: Board, cells: Sequence[Cell]) -> str:
    """Why the last of ``cells`` cannot join the chain before it, or "" when it can."""
    if not cells:
        return ""
    last = cells[-1]
    if not on_board(last):
        return _("{cell} is off the board").format(cell=cell_words(last))
    if last in cells[:-1]:
        return _("{cell} is in the chain already").format(cell=cell_words(last))
    if len(cells) > 1 and not touching(cells[-2], last):
        return _("{cell} does not touch the tile before it").format(cell=cell_words(last))
    first = board[cells[0][0]][cells[0][1]]
    value = board[last[0]][last[1]]
    if value != first:
        return _("a {value} cannot join a chain of {first}s").format(value=value, first=first)
    return ""


def chain_value(board: Board, cells: Sequence[Cell]) -> int:
    """The tile a chain makes: N times its value (0 while it is shorter than 2)."""
    if len(cells) < 2:
        return 0
    r, c = cells[0]
    return len(cells) * board[r][c]


def check_chain(board: Board, cells: Sequence[Cell]) -> int:
    """The tile a legal chain makes; Refused with the reason for the first bad cell."""
    if len(cells) < 2:
        raise Refused(_("a chain needs at least 2 tiles"))
    for end in range(1, len(cells) + 1):
        reason = problem(board, cells[:end])
        if reason:
            raise Refused(reason)
    return chain_value(board, cells)


def read_cells(text: str) -> list[Cell]:
    """The ``R,C`` cells in ``text`` (counted from 0); Refused for anything else."""
    cleaned = text.translate(str.maketrans("()[]", "    "))
    rest = _CELL.sub(" ", cleaned).strip()
    if rest:
        raise Refused(_("cannot read {text!r}: write cells as ROW,COLUMN").format(text=rest))
    return [(int(r), int(c)) for r, c in _CELL.findall(cleaned)]


def dealt(code: str, index: int) -> int:
    """The value of draw ``index`` of the deal."""
    draw = below(code, index, 10)
    return next(value for bound, value in DEAL if draw < bound)


def settle(code: str, draws: int, grid: list[list[int]]) -> tuple[int, list[Event]]:
    """Let tiles fall into the gaps (0s) and fill the top from the deal; the draws used."""
    events: list[Event] = []
    for c in range(SIZE):
        target = SIZE - 1
        for r in range(SIZE - 1, -1, -1):
            value = grid[r][c]
            if not value:
                continue
            if r != target:
                grid[target][c], grid[r][c] = value, 0
                events.append(Fell((r, c), (target, c), value))
            target -= 1
    for c in range(SIZE):
        for r in range(SIZE):
            if not grid[r][c]:
                grid[r][c] = dealt(code, draws)
                draws += 1
                events.append(Appeared((r, c), grid[r][c]))
    return draws, events


def frozen(grid: list[list[int]]) -> Board:
    return tuple(tuple(row) for row in grid)


# -- the rules ---------------------------------------------------------------------------------


class ChainSumRules:
    """Chain Sum on a 6x6 board (``twofold.plugin.Rules``)."""

    def __init__(self, *, undo_depth: int = 100) -> None:
        self.undo_depth = undo_depth

    def new_game(self, code: str) -> SumState:
        grid = [[0] * SIZE for _row in range(SIZE)]
        draws, _events = settle(code, 0, grid)
        return SumState(code, frozen(grid), draws=draws)

    def from_position(self, data: Mapping[str, Any], code: str) -> SumState:
        rows = data.get("board") if isinstance(data, Mapping) else None
        shape = _("a Chain Sum board is 6 rows of 6 whole numbers above 0")
        if not isinstance(rows, list) or len(rows) != SIZE:
            raise PositionError(shape)
        for row in rows:
            if not isinstance(row, list) or len(row) != SIZE:
                raise PositionError(shape)
            if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in row):
                raise PositionError(shape)
        score = data.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise PositionError(_('"score" must be a whole number from 0'))
        return SumState(code, frozen(rows), score=score)

    def parse(self, text: str) -> str:
        """``"Chain (0,0) 0,1"`` → ``"chain 0,0 0,1"``, ``"u"`` → ``"undo"``."""
        word, _space, rest = text.strip().lower().partition(" ")
        if word in ("undo", "u", "z", "ctrl+z") and not rest.strip():
            return UNDO
        if word != "chain":
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        cells = read_cells(rest)
        if len(cells) < 2:
            raise Refused(_("a chain needs at least 2 tiles"))
        return " ".join(["chain", *(f"{r},{c}" for r, c in cells)])

    def apply(self, state: SumState, action: str) -> Outcome:
        word, _space, rest = self.parse(action).partition(" ")
        if word != "chain":
            raise Refused(_("unknown command '{command}'").format(command=action))
        cells = read_cells(rest)
        value = check_chain(state.board, cells)
        grid = [list(row) for row in state.board]
        for r, c in cells[:-1]:
            grid[r][c] = 0
        end = cells[-1]
        grid[end[0]][end[1]] = value
        draws, settled = settle(state.code, state.draws, grid)
        after = replace(
            state,
            board=frozen(grid),
            score=state.score + value,
            moves=state.moves + 1,
            draws=draws,
            chains=state.chains + 1,
            longest=max(state.longest, len(cells)),
        )
        return Outcome(after, (Merged(end, value, tuple(cells)), *settled))

    def undo(self, previous: SumState, current: SumState) -> SumState:
        return previous

    def is_over(self, state: SumState) -> bool:
        board = state.board
        return not any(
            board[r][c] == board[nr][nc]
            for r in range(SIZE)
            for c in range(SIZE)
            for nr, nc in neighbours((r, c))
        )

    # -- telling

    def report(self, state: SumState) -> dict[str, Any]:
        return {"chains": state.chains, "longest": state.longest}

    def announce(self, before: SumState, outcome: Outcome) -> str:
        after: SumState = outcome.state
        merged = [e for e in outcome.events if isinstance(e, Merged)]
        if not merged:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        chain = merged[0]
        first = chain.cells[0]
        parts = [
            _("{count} × {value} made {made} at {cell}.").format(
                count=len(chain.cells),
                value=before.board[first[0]][first[1]],
                made=chain.value,
                cell=cell_words(chain.cell),
            ),
            _("Score {score}.").format(score=after.score),
        ]
        if self.is_over(after):
            parts.append(_("No two equal tiles touch: game over."))
        return " ".join(parts)

    def read_board(self, state: SumState) -> list[str]:
        return [
            _("Row {row}: {cells}").format(row=r, cells=", ".join(str(v) for v in row))
            for r, row in enumerate(state.board, start=1)
        ]

    def render_text(self, state: SumState) -> str:
        width = max(len(str(v)) for row in state.board for v in row)
        return "\n".join(" ".join(str(v).rjust(width) for v in row) for row in state.board)

    def stats(self, state: SumState) -> dict[str, int]:
        return {"chains": state.chains, "longest": state.longest}
