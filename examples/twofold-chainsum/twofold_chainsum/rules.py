"""The rules of Chain Sum, as pure functions of immutable states.

The board is 6x6 and always full. A chain is a path of at least two equal tiles,
each touching the one before it (sideways, up, down or diagonally), no cell twice.
A chain of N tiles of value v becomes one tile N*v on its last cell, exactly: four
3s make 12. The score grows by that tile. The other cells of the chain empty; the
tiles above fall into the gaps and new tiles drop in from the top.

Built from twofold's blocks, it writes only what differs from other chain games: the
rule ``equal_chain`` on the eight neighbours (``check_chain``, ``chain_problem``,
``has_chain``), and ``merge_chain`` then ``settle`` (gravity, and the deal filling each
column from its top down: ``below(code, n, 10)`` gives a 1 for 0-4, a 2 for 5-7 and a 3
for 8-9; a new game fills the empty board that way, 36 draws). ``RulesBase`` gives the
rest. The events: the chain (``Merged``), then each ``Fell``, then each ``Appeared``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from twofold.plugin import (
    Board,
    Cell,
    Merged,
    Outcome,
    Refused,
    RulesBase,
    _,
    below,
    cell_words,
    chain_problem,
    check_chain,
    eight_neighbours,
    equal_chain,
    has_chain,
    merge_chain,
    position_board,
    position_score,
    rectangle,
    settle,
)

SIZE = 6
CELLS = rectangle(SIZE, SIZE)
ON_BOARD = frozenset(CELLS)
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


def neighbours(cell: Cell) -> list[Cell]:
    """The cells on the board that touch ``cell``, diagonals included."""
    return [near for near in eight_neighbours(cell) if near in ON_BOARD]


def problem(board: Board, cells: Sequence[Cell]) -> str:
    """Why the last of ``cells`` cannot join the chain before it, or "" when it can."""
    return chain_problem(board, cells, ON_BOARD, eight_neighbours, equal_chain)


def chain_value(board: Board, cells: Sequence[Cell]) -> int:
    """The tile a chain makes: N times its value (0 while it is shorter than 2)."""
    return len(cells) * board[cells[0][0]][cells[0][1]] if len(cells) > 1 else 0


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


class ChainSumRules(RulesBase):
    """Chain Sum on a 6x6 board: what differs from ``RulesBase``."""

    def __init__(self, *, undo_depth: int = 100) -> None:
        self.undo_depth = undo_depth

    def new_game(self, code: str) -> SumState:
        empty = tuple((0,) * SIZE for _row in range(SIZE))
        board, _events, draws = settle(empty, CELLS, partial(dealt, code), 0, from_wall=False)
        return SumState(code, board, draws=draws)

    def from_position(self, data: Mapping[str, Any], code: str) -> SumState:
        shape = _("a Chain Sum board is 6 rows of 6 whole numbers above 0")
        board = position_board(data, SIZE, SIZE, shape, lambda v: v >= 1)
        return SumState(code, board, score=position_score(data))

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
        value = check_chain(state.board, cells, ON_BOARD, eight_neighbours, equal_chain)
        merged = merge_chain(state.board, cells, value)
        deal = partial(dealt, state.code)
        board, settled, draws = settle(merged, CELLS, deal, state.draws, from_wall=False)
        score, moves, longest = state.score + value, state.moves + 1, max(state.longest, len(cells))
        after = SumState(state.code, board, score, moves, draws, state.chains + 1, longest)
        return Outcome(after, (Merged(cells[-1], value, tuple(cells)), *settled))

    def is_over(self, state: SumState) -> bool:
        return not has_chain(state.board, CELLS, eight_neighbours, equal_chain)

    def report(self, state: SumState) -> dict[str, Any]:
        return {"chains": state.chains, "longest": state.longest}

    def announce(self, before: SumState, outcome: Outcome) -> str:
        after: SumState = outcome.state
        merged = [e for e in outcome.events if isinstance(e, Merged)]
        if not merged:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        chain, (r, c) = merged[0], merged[0].cells[0]
        made = _("{count} × {value} made {made} at {cell}.").format(
            count=len(chain.cells),
            value=before.board[r][c],
            made=chain.value,
            cell=cell_words(chain.cell),
        )
        parts = [made, _("Score {score}.").format(score=after.score)]
        if self.is_over(after):
            parts.append(_("No two equal tiles touch: game over."))
        return " ".join(parts)

    def stats(self, state: SumState) -> dict[str, int]:
        return {"chains": state.chains, "longest": state.longest}
