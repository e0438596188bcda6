"""The rules of the Fibonacci sliding game: 2048's slide, where two tiles that meet *add up*
when they are neighbours in the sequence 1, 2, 3, 5, 8, ... or both are 1.

Built from twofold's blocks, it writes only what differs from 2048: ``slide`` with the
merge rule ``fibonacci_pairs``; ``spawn`` with a 1, or one time in ten a 2; ``RulesBase``
gives the rest. The events: the moves, then the sums (``Merged``), then the birth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    FOUR_STEPS,
    N_,
    SLIDE_WORDS,
    Appeared,
    Board,
    Merged,
    Outcome,
    Refused,
    RulesBase,
    _,
    cell_words,
    empty_cells,
    fibonacci_pairs,
    lines_toward,
    position_board,
    position_score,
    rectangle,
    slide,
    spawn,
)

#: 1, 2, 3, 5, 8 ... (40 of them) far beyond anything a board can hold
SEQUENCE: tuple[int, ...] = (1, 2)
for _term in range(38):
    SEQUENCE += (SEQUENCE[-1] + SEQUENCE[-2],)
GOAL = 2584
#: one birth in this many is a 2, else a 1
TWO_CHANCE = 0.1
BIRTHS = ((2, TWO_CHANCE), (1, 1.0))
DIRECTIONS = {"left": N_("Left"), "right": N_("Right"), "up": N_("Up"), "down": N_("Down")}
#: twofold's sliding keys, and the arrows' names
WORDS = {**SLIDE_WORDS, "ctrl+z": "undo"} | {
    name: way
    for way, glyph in (("left", "←"), ("right", "→"), ("up", "↑"), ("down", "↓"))
    for name in (glyph, f"arrow {way}", f"arrow{way}")
}


def add_up(a: int, b: int) -> int:
    """The tile that ``a`` and ``b`` make when they meet, or 0 if they stay apart."""
    return fibonacci_pairs(a, b) or 0


@dataclass(frozen=True)
class FibState:
    """One moment of a Fibonacci game (the board holds the tiles, 0 for an empty cell)."""

    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far: undo brings it back, so a redo meets the same births
    draws: int = 0
    #: how many times two tiles added up in this game (kept in the records)
    sums: int = 0

    @property
    def largest(self) -> int:
        return max((v for row in self.board for v in row), default=0)


@dataclass(frozen=True)
class Push(Outcome):
    """An outcome that remembers the direction pushed, so 'nothing moved' can be told."""

    direction: str = ""


class FibonacciRules(RulesBase):
    """The Fibonacci game on a ``size`` x ``size`` board: what differs from ``RulesBase``."""

    words = WORDS

    def __init__(self, size: int = 4, *, undo_depth: int = 500) -> None:
        self.size = size
        self.undo_depth = undo_depth
        self.cells = rectangle(size, size)
        self.lines = {way: lines_toward(self.cells, step) for way, step in FOUR_STEPS.items()}

    def new_game(self, code: str) -> FibState:
        state = FibState(code, tuple((0,) * self.size for _row in range(self.size)))
        for _birth in range(2):
            state, _event = self.birth(state)
        return state

    def from_position(self, data: Mapping[str, Any], code: str) -> FibState:
        shape = _("a Fibonacci board is {n} rows of {n} cells").format(n=self.size)
        fits, unfit = (lambda v: v == 0 or v in SEQUENCE), _("not a Fibonacci number")
        board = position_board(data, self.size, self.size, shape, fits, unfit)
        return FibState(code, board, score=position_score(data))

    def birth(self, state: FibState) -> tuple[FibState, Appeared]:
        board, born = spawn(state.board, state.code, state.draws, BIRTHS)
        return replace(state, board=board, draws=state.draws + 2), born

    def apply(self, state: FibState, action: str) -> Push:
        if action not in self.lines:
            raise Refused(_("unknown command '{command}'").format(command=action))
        board, events, points = slide(state.board, self.lines[action], fibonacci_pairs)
        if not events:
            return Push(state, direction=action)
        sums = [event for event in events if isinstance(event, Merged)]
        shifts = [event for event in events if not isinstance(event, Merged)]
        score, moves = state.score + points, state.moves + 1
        pushed = replace(state, board=board, score=score, moves=moves, sums=state.sums + len(sums))
        after, born = self.birth(pushed)
        return Push(after, direction=action, events=(*shifts, *sums, born))

    def is_over(self, state: FibState) -> bool:
        moves = (slide(state.board, lines, fibonacci_pairs)[1] for lines in self.lines.values())
        return not empty_cells(state.board) and not any(moves)

    def report(self, state: FibState) -> dict[str, Any]:
        return {"won": state.largest >= GOAL, "largest": state.largest, "sums": state.sums}

    def announce(self, before: FibState, outcome: Outcome) -> str:
        direction = getattr(outcome, "direction", "")
        where, after = _(DIRECTIONS.get(direction, N_("Push"))), outcome.state
        if not outcome.changed:
            return _("{direction}: nothing moved.").format(direction=where)
        if not direction:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        # a Merged event names the cells the two tiles came from: their values are in `before`
        sums = "; ".join(
            _("{a} and {b} made {c}").format(a=a, b=b, c=e.value)
            for e in outcome.events
            if isinstance(e, Merged)
            for a, b in [[before.board[r][c] for r, c in e.cells]]
        )
        head = _("{direction}: {sums}.") if sums else _("{direction}.")
        parts = [
            head.format(direction=where, sums=sums),
            _("Score {score}.").format(score=after.score),
        ]
        parts += [
            _("A {value} was born at {cell}.").format(value=e.value, cell=cell_words(e.cell))
            for e in outcome.events
            if isinstance(e, Appeared)
        ]
        if self.is_over(after):
            parts.append(_("Nothing can move or add up: game over."))
        return " ".join(parts)

    def stats(self, state: FibState) -> dict[str, int]:
        return {"sums": state.sums}
