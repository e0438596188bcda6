"""The rules of Hex: 2048 on a hexagon of 19 cells, slid in six directions.

Built from twofold's blocks: ``Layout.hexagon(2)`` is the board's shape (rows of 3, 4, 5,
4 and 3 cells; the other places of its 5x5 rows hold ``NO_CELL``); ``lines_toward`` gives
each of the six directions' lines over those cells (``HEX_STEPS``); ``slide`` pushes them
with 2048's merge rule; every new tile comes from the deal (``spawn``), so the same code
gives the same game everywhere. ``RulesBase`` gives undo, the announcement, the board in
words (a no-cell is never said) and as text (drawn on the layout: a hexagon).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    HEX_DIRECTIONS,
    HEX_STEPS,
    NO_CELL,
    Board,
    Layout,
    Outcome,
    PositionError,
    Refused,
    RulesBase,
    _,
    lines_toward,
    slide,
    spawn,
)

RADIUS = 2
GOAL = 2048
HEX = Layout.hexagon(RADIUS)
#: each direction's lines, listed from the side of the hexagon it pushes towards
LINES = {direction: lines_toward(HEX.cells, step) for direction, step in HEX_STEPS.items()}
#: what ``parse`` takes: the six directions' names and number-pad keys, left, right, undo
WORDS: Mapping[str, str] = {
    **{direction: direction for direction in HEX_STEPS},
    **{key: d.name for d in HEX_DIRECTIONS for key in d.keys},
    **{"undo": "undo", "u": "undo", "z": "undo"},
}


@dataclass(frozen=True)
class HexState:
    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far
    draws: int = 0


class HexRules(RulesBase):
    """Hex's rules: what differs from ``RulesBase``'s defaults."""

    words = WORDS
    layout = HEX

    def new_game(self, code: str) -> HexState:
        state = HexState(code, HEX.blank())
        for _tile in range(2):
            board, _event = spawn(state.board, code, state.draws)
            state = replace(state, board=board, draws=state.draws + 2)
        return state

    def from_position(self, data: Mapping[str, Any], code: str) -> HexState:
        rows = data.get("board") if isinstance(data, Mapping) else None
        shape = _(
            "a Hex board is 5 rows of 5 places: -2 where the hexagon has no cell, else 0 "
            "or a power of two from 2"
        )
        if not isinstance(rows, list) or len(rows) != HEX.rows:
            raise PositionError(shape)
        for r, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != HEX.cols:
                raise PositionError(shape)
            for c, v in enumerate(row):
                if isinstance(v, bool) or not isinstance(v, int):
                    raise PositionError(shape)
                if (r, c) not in HEX and v != NO_CELL:
                    raise PositionError(shape)
                if (r, c) in HEX and v and (v < 2 or v & (v - 1)):
                    raise PositionError(shape)
        score = data.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise PositionError(_('"score" must be a whole number from 0'))
        # the draws after the opening's, so new tiles differ from the opening's own
        return HexState(code, tuple(tuple(row) for row in rows), score=score, draws=4)

    def apply(self, state: HexState, action: str) -> Outcome:
        if action not in LINES:
            raise Refused(_("unknown command '{command}'").format(command=action))
        board, events, points = slide(state.board, LINES[action])
        if not events:
            return Outcome(state)
        board, born = spawn(board, state.code, state.draws)
        after = HexState(state.code, board, state.score + points, state.moves + 1, state.draws + 2)
        return Outcome(after, (*events, born))

    def is_over(self, state: HexState) -> bool:
        return all(not slide(state.board, lines)[1] for lines in LINES.values())

    def report(self, state: HexState) -> dict[str, Any]:
        return {"won": any(v >= GOAL for row in state.board for v in row)}
