"""The rules of Stones: 2048 on a 5x5 board with three stones the tiles stop at.

Built from twofold's blocks: ``RulesBase`` gives parsing, undo, the announcement, the
board in words and as text; ``slide`` pushes every line of the board (``lines_toward``),
cut at its stones, with 2048's merge rule (``equal_pairs``); the stones and every new
tile come from the deal (``put_stones``, ``spawn``), so the same code gives the same game
everywhere. A stone never moves, merges or goes away, so no event names its cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    FOUR_STEPS,
    STONE,
    Board,
    Outcome,
    PositionError,
    Refused,
    RulesBase,
    _,
    lines_toward,
    put_stones,
    rectangle,
    slide,
    spawn,
)

SIZE = 5
STONES = 3
GOAL = 1024
CELLS = rectangle(SIZE, SIZE)
#: each direction's lines, listed from the wall it pushes towards
LINES = {direction: lines_toward(CELLS, step) for direction, step in FOUR_STEPS.items()}


@dataclass(frozen=True)
class StonesState:
    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far
    draws: int = 0


class StonesRules(RulesBase):
    """Stones' rules: what differs from ``RulesBase``'s defaults."""

    def new_game(self, code: str) -> StonesState:
        empty = tuple((0,) * SIZE for _row in range(SIZE))
        state = StonesState(code, put_stones(empty, code, 0, STONES), draws=STONES)
        for _tile in range(2):
            board, _event = spawn(state.board, code, state.draws)
            state = replace(state, board=board, draws=state.draws + 2)
        return state

    def from_position(self, data: Mapping[str, Any], code: str) -> StonesState:
        rows = data.get("board") if isinstance(data, Mapping) else None
        shape = _("a Stones board is 5 rows of 5 cells: 0, -1 (a stone) or a power of two")
        if not isinstance(rows, list) or len(rows) != SIZE:
            raise PositionError(shape)
        for row in rows:
            if not isinstance(row, list) or len(row) != SIZE:
                raise PositionError(shape)
            for v in row:
                if isinstance(v, bool) or not isinstance(v, int):
                    raise PositionError(shape)
                if v not in (0, STONE) and (v < 2 or v & (v - 1)):
                    raise PositionError(shape)
        score = data.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise PositionError(_('"score" must be a whole number from 0'))
        board = tuple(tuple(row) for row in rows)
        # the draws after the opening's, so new tiles differ from the opening's own
        return StonesState(code, board, score=score, draws=STONES + 4)

    def apply(self, state: StonesState, action: str) -> Outcome:
        if action not in LINES:
            raise Refused(_("unknown command '{command}'").format(command=action))
        board, events, points = slide(state.board, LINES[action])
        if not events:
            return Outcome(state)
        board, born = spawn(board, state.code, state.draws)
        after = StonesState(
            state.code, board, state.score + points, state.moves + 1, state.draws + 2
        )
        return Outcome(after, (*events, born))

    def is_over(self, state: StonesState) -> bool:
        return all(not self.apply(state, d).events for d in LINES)
