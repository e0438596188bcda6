"""The rules of Stones: 2048 on a 5x5 board with three stones the tiles stop at.

A push splits every line at its stones; each piece slides towards the wall (or the
stone) it is pushed to, and two equal tiles that meet merge once a push, as in 2048.
A stone never moves, merges or goes away, so no event names its cell. The stones and
every new tile come from the deal (``below``, ``chance``): the same code gives the
same game everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    STONE,
    Appeared,
    Board,
    Cell,
    Event,
    Merged,
    Moved,
    Outcome,
    PositionError,
    Refused,
    _,
    below,
    chance,
    value_mark,
    value_words,
)

SIZE = 5
STONES = 3
GOAL = 1024
#: a new tile is a 4 one time in ten, else a 2
FOUR_CHANCE = 0.1
#: the words --plain help promises: the directions, vim's h j k l, a w s d, and undo
_WORDS = {
    **{w: w for w in ("left", "right", "up", "down", "undo")},
    **{"h": "left", "j": "down", "k": "up", "l": "right"},
    **{"a": "left", "w": "up", "s": "down", "d": "right", "u": "undo", "z": "undo"},
}


@dataclass(frozen=True)
class StonesState:
    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far
    draws: int = 0


def lines(direction: str) -> list[list[Cell]]:
    """The board's lines for a push, each listed from the wall pushed towards."""
    near, far = range(SIZE), range(SIZE - 1, -1, -1)
    if direction == "left":
        return [[(r, c) for c in near] for r in near]
    if direction == "right":
        return [[(r, c) for c in far] for r in near]
    if direction == "up":
        return [[(r, c) for r in near] for c in near]
    return [[(r, c) for r in far] for c in near]


def pieces(line: Sequence[Cell], board: Board) -> list[list[Cell]]:
    """A line cut at its stones: the runs of cells a tile may slide along."""
    runs: list[list[Cell]] = [[]]
    for cell in line:
        if board[cell[0]][cell[1]] == STONE:
            runs.append([])
        else:
            runs[-1].append(cell)
    return [run for run in runs if run]


def push(run: Sequence[Cell], board: Board) -> tuple[list[int], list[Event], int]:
    """One run pushed towards its first cell: its new values, the events, the points made."""
    values: list[int] = []
    starts: list[Cell] = []
    fresh: list[bool] = []
    events: list[Event] = []
    points = 0
    for cell in run:
        value = board[cell[0]][cell[1]]
        if not value:
            continue
        if values and values[-1] == value and not fresh[-1]:
            target = run[len(values) - 1]
            values[-1], fresh[-1] = value * 2, True
            events.append(Moved(cell, target, value))
            events.append(Merged(target, value * 2, (starts[-1], cell)))
            points += value * 2
            continue
        target = run[len(values)]
        values.append(value)
        starts.append(cell)
        fresh.append(False)
        if target != cell:
            events.append(Moved(cell, target, value))
    return values + [0] * (len(run) - len(values)), events, points


class StonesRules:
    """Stones' rules (the ``Rules`` protocol of ``twofold.plugin``)."""

    undo_depth = 100

    def new_game(self, code: str) -> StonesState:
        rows = [[0] * SIZE for _row in range(SIZE)]
        draws = 0
        for _stone in range(STONES):
            free = [(r, c) for r in range(SIZE) for c in range(SIZE) if not rows[r][c]]
            r, c = free[below(code, draws, len(free))]
            rows[r][c] = STONE
            draws += 1
        state = StonesState(code, tuple(tuple(row) for row in rows), draws=draws)
        for _tile in range(2):
            state, _event = self.birth(state)
        return state

    def birth(self, state: StonesState) -> tuple[StonesState, Appeared]:
        """A new tile from the deal on an empty cell; the board must have one."""
        empty = [(r, c) for r, row in enumerate(state.board) for c, v in enumerate(row) if not v]
        r, c = empty[below(state.code, state.draws, len(empty))]
        value = 4 if chance(state.code, state.draws + 1) < FOUR_CHANCE else 2
        rows = [list(row) for row in state.board]
        rows[r][c] = value
        board = tuple(tuple(row) for row in rows)
        return replace(state, board=board, draws=state.draws + 2), Appeared((r, c), value)

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

    def parse(self, text: str) -> str:
        word = text.strip().lower()
        if word not in _WORDS:
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        return _WORDS[word]

    def apply(self, state: StonesState, action: str) -> Outcome:
        if action not in ("left", "right", "up", "down"):
            raise Refused(_("unknown command '{command}'").format(command=action))
        rows = [list(row) for row in state.board]
        events: list[Event] = []
        points = 0
        for line in lines(action):
            for run in pieces(line, state.board):
                values, said, made = push(run, state.board)
                for (r, c), value in zip(run, values, strict=True):
                    rows[r][c] = value
                events += said
                points += made
        if not events:
            return Outcome(state)
        pushed = replace(
            state,
            board=tuple(tuple(row) for row in rows),
            score=state.score + points,
            moves=state.moves + 1,
        )
        after, born = self.birth(pushed)
        return Outcome(after, (*events, born))

    def undo(self, previous: StonesState, current: StonesState) -> StonesState:
        return previous

    def is_over(self, state: StonesState) -> bool:
        return all(not self.apply(state, d).events for d in ("left", "right", "up", "down"))

    def report(self, state: StonesState) -> dict[str, Any]:
        return {}

    def announce(self, before: StonesState, outcome: Outcome) -> str:
        after: StonesState = outcome.state
        if not outcome.events:
            return _("Nothing moved. Score {score}.").format(score=after.score)
        made = [e.value for e in outcome.events if isinstance(e, Merged)]
        parts = [_("Made {tiles}.").format(tiles=", ".join(map(str, made)))] if made else []
        parts.append(_("Score {score}.").format(score=after.score))
        if self.is_over(after):
            parts.append(_("No more moves."))
        return " ".join(parts)

    def read_board(self, state: StonesState) -> list[str]:
        return [
            _("Row {row}: {cells}").format(row=r, cells=", ".join(map(value_words, row)))
            for r, row in enumerate(state.board, start=1)
        ]

    def render_text(self, state: StonesState) -> str:
        marks = [[value_mark(v) for v in row] for row in state.board]
        width = max(len(mark) for row in marks for mark in row)
        return "\n".join(" ".join(mark.rjust(width) for mark in row) for row in marks)

    def stats(self, state: StonesState) -> dict[str, int]:
        return {}
