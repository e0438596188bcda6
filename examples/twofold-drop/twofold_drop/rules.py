"""The rules of Twofold Drop: a block dropped into a column of a 7x5 board merges with
the equal blocks touching it (sideways, up or down): N blocks of v make v × 2^(N-1) where
it landed, blocks above fall into the gaps, and whatever fell or was made merges again.
The game is over when every column is full.

Built from twofold's blocks, it writes only what differs from other games: ``cascade``
makes the chain reaction (the group of equal blocks, its merge, gravity, again) with
Drop's rule of what N blocks make, and ``RulesBase`` gives the rest. The events:
``Appeared`` where the block lands, each ``Merged`` (its blocks in order, the one that
stays last), and each ``Fell``.

The deal: block ``n`` is 2^(1 + ``below(code, n, k)``), ``k`` 3 (2, 4 or 8) while the
largest block is below 64, one more kind for each doubling above it, at most 6. The next
two blocks are known (``upcoming``): draws 0 and 1 at the start, one more each drop.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import (
    Appeared,
    Board,
    Event,
    Merged,
    Outcome,
    PositionError,
    Refused,
    RulesBase,
    _,
    below,
    cascade,
    fall,
    position_board,
    put,
    rectangle,
    stepping,
)

ROWS = 7
COLUMNS = 5
GOAL = 1024
UNDO = "undo"
#: how many blocks of the deal are shown before they fall
SHOWN = 2
_PLACE = re.compile(r"place\s+(-?\d{1,9})")


@dataclass(frozen=True)
class DropState:
    """One moment of a Twofold Drop game."""

    code: str
    board: Board
    score: int = 0
    moves: int = 0
    #: draws of the deal used so far: undo brings it back, so a redo meets the same blocks
    draws: int = 0
    #: the blocks that fall next, the nearest first
    upcoming: tuple[int, ...] = ()
    #: merges made in this game, and the most made by one drop (kept in the records)
    merges: int = 0
    combo: int = 0


CELLS = rectangle(ROWS, COLUMNS)
#: the order a merge looks for equal blocks: below first, then beside, then above
BELOW_FIRST = stepping(((1, 0), (0, -1), (0, 1), (-1, 0)))


def is_block(value: int) -> bool:
    """Whether a block may hold ``value``: a power of two from 2."""
    return value >= 2 and not value & (value - 1)


def column_words(column: int) -> str:
    """A column as people count it: from 1."""
    return _("column {column}").format(column=column + 1)


def landing(board: Board, column: int) -> int | None:
    """The row a block dropped into ``column`` lands on, or None when the column is full."""
    return next((row for row in range(ROWS - 1, -1, -1) if not board[row][column]), None)


def dealt(code: str, index: int, board: Board) -> int:
    """Block ``index`` of the deal: 2, 4 or 8, one kind more for each doubling from 64."""
    largest = max((v for row in board for v in row), default=0)
    return 2 ** (1 + below(code, index, max(3, min(6, largest.bit_length() - 4))))


def drop(state: DropState, column: int) -> tuple[DropState, list[Event], int]:
    """Drop the next block into ``column``: the new state, the events and the merges."""
    if not 0 <= column < COLUMNS:
        there = _("there is no column {column} (columns 0 to {last})")
        raise Refused(there.format(column=column, last=COLUMNS - 1))
    row = landing(state.board, column)
    if row is None:
        raise Refused(_("{column} is full").format(column=column_words(column)))
    block = state.upcoming[0]
    dropped = put(state.board, (row, column), block)
    # N equal blocks of v make v × 2^(N-1)
    board, more, made = cascade(dropped, (row, column), CELLS, BELOW_FIRST, lambda v, n: v << n - 1)
    events: list[Event] = [Appeared((row, column), block), *more]
    upcoming = (*state.upcoming[1:], dealt(state.code, state.draws, board))
    score, moves, draws = state.score + sum(made), state.moves + 1, state.draws + 1
    merges = len(made)
    merged, combo = state.merges + merges, max(state.combo, merges)
    after = DropState(state.code, board, score, moves, draws, upcoming, merged, combo)
    return after, events, merges


def parse_column(action: str) -> int:
    found = _PLACE.fullmatch(action.strip().lower())
    if found is None:
        raise Refused(_("write a drop as: place C (a column)"))
    return int(found[1])


class DropRules(RulesBase):
    """Twofold Drop's rules: what differs from ``RulesBase``."""

    def new_game(self, code: str) -> DropState:
        board = tuple((0,) * COLUMNS for _row in range(ROWS))
        upcoming = tuple(dealt(code, n, board) for n in range(SHOWN))
        return DropState(code, board, draws=SHOWN, upcoming=upcoming)

    def from_position(self, data: Mapping[str, Any], code: str) -> DropState:
        shape = _("a Twofold Drop board is 7 rows of 5 blocks: 0 or a power of two from 2")
        board = position_board(data, ROWS, COLUMNS, shape, lambda v: v == 0 or is_block(v))
        if fall(board, CELLS)[1]:
            raise PositionError(_("a block floats over an empty cell: blocks rest on others"))
        start = self.new_game(code)
        upcoming = data.get("upcoming", list(start.upcoming))
        listed = isinstance(upcoming, list) and len(upcoming) == SHOWN
        if not listed or not all(type(v) is int and is_block(v) for v in upcoming):
            raise PositionError(_('"upcoming" must be two powers of two from 2'))
        return replace(start, board=board, upcoming=tuple(upcoming))

    def parse(self, text: str) -> str:
        """``"Place  3"`` → ``"place 3"``, ``"u"`` → ``"undo"``."""
        word = text.strip().lower()
        if word in ("undo", "u", "z", "ctrl+z"):
            return UNDO
        return f"place {parse_column(word)}"

    def apply(self, state: DropState, action: str) -> Outcome:
        after, events, _merges = drop(state, parse_column(action))
        return Outcome(after, tuple(events))

    def is_over(self, state: DropState) -> bool:
        return all(state.board[0])

    def report(self, state: DropState) -> dict[str, Any]:
        return {"merges": state.merges, "combo": state.combo}

    def stats(self, state: DropState) -> dict[str, int]:
        return {"merges": state.merges, "combo": state.combo}

    def announce(self, before: DropState, outcome: Outcome) -> str:
        after: DropState = outcome.state
        landed = [e for e in outcome.events if isinstance(e, Appeared)]
        if not landed:  # undo comes from the core, not from apply()
            return _("Taken back. Score {score}.").format(score=after.score)
        fell = _("Block {value} fell into {column}.")
        parts = [fell.format(value=landed[0].value, column=column_words(landed[0].cell[1]))]
        made = [e.value for e in outcome.events if isinstance(e, Merged)]
        if len(made) == 1:
            parts.append(_("It made {value}.").format(value=made[0]))
        elif made:
            in_a_row = _("{count} merges in a row, up to {value}.")
            parts.append(in_a_row.format(count=len(made), value=max(made)))
        parts.append(_("Score {score}.").format(score=after.score))
        if self.is_over(after):
            parts.append(_("Every column is full: game over."))
        return " ".join(parts)

    def render_text(self, state: DropState) -> str:
        width = max(2, *(len(str(v)) for row in state.board for v in row))
        head = " ".join(str(c).rjust(width) for c in range(1, COLUMNS + 1))
        rows = [" ".join((str(v) if v else ".").rjust(width) for v in row) for row in state.board]
        return "\n".join([head, *rows])
