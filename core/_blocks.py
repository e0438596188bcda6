"""Building blocks for rules: lines of cells on any board shape, slide-and-merge along them
with the merge rule a function, new tiles on empty cells from the deal, stones, and a
rules base class whose optional members have defaults.

A plugin writes only what its game changes::

    from twofold.plugin import RulesBase, equal_pairs, lines_toward, rectangle, slide, spawn

Every block is a pure function of its arguments, as the rules must be. A stone (``STONE``,
any value below 0) cuts a line: tiles stop at it as at a wall, and it never moves or
merges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from twofold.core._deal import below, chance
from twofold.core._events import Appeared, Cell, Event, Merged, Moved
from twofold.core._i18n import _
from twofold.core._layout import NO_CELL, Layout, layout_of
from twofold.core._rules import Board, Outcome, PositionError, Refused
from twofold.core._stones import STONE, value_mark, value_words

#: a merge rule: the tile two neighbours make when the second slides into the first, or None
Merge = Callable[[int, int], int | None]
#: the step of each of 2048's four directions, (rows, columns)
FOUR_STEPS: Mapping[str, tuple[int, int]] = {
    "left": (0, -1),
    "right": (0, 1),
    "up": (-1, 0),
    "down": (1, 0),
}
#: the words a slide mode with 2048's four directions takes (``--plain`` help promises them)
SLIDE_WORDS: Mapping[str, str] = {
    **{w: w for w in ("left", "right", "up", "down", "undo")},
    **{"h": "left", "j": "down", "k": "up", "l": "right"},
    **{"a": "left", "w": "up", "s": "down", "d": "right", "u": "undo", "z": "undo"},
}


def equal_pairs(first: int, second: int) -> int | None:
    """2048's rule: two equal tiles make their sum."""
    return first + second if first == second else None


def rectangle(rows: int, columns: int) -> tuple[Cell, ...]:
    """The cells of a ``rows`` x ``columns`` board, in reading order."""
    return tuple((r, c) for r in range(rows) for c in range(columns))


def lines_toward(cells: Iterable[Cell], step: tuple[int, int]) -> list[list[Cell]]:
    """The lines of a board of ``cells`` (any shape) along ``step``, each listed from the
    cell a push along ``step`` moves tiles towards (the wall), in reading order of that
    cell. On a rectangle, ``FOUR_STEPS["left"]`` gives its rows, each from column 0."""
    found = set(cells)
    dr, dc = step
    walls = sorted(cell for cell in found if (cell[0] + dr, cell[1] + dc) not in found)
    lines: list[list[Cell]] = []
    for wall in walls:
        line = [wall]
        back = (wall[0] - dr, wall[1] - dc)
        while back in found:
            line.append(back)
            back = (back[0] - dr, back[1] - dc)
        lines.append(line)
    return lines


def slide_line(
    line: Sequence[Cell], board: Board, merge: Merge = equal_pairs
) -> tuple[list[int], list[Event], int]:
    """One line pushed towards its first cell: its new values (a stone stays where it is),
    the events, and the points made (the sum of the tiles merges made). A tile merges at
    most once a push, with the tile it slides into, when ``merge`` gives a value."""
    values: list[int] = []
    events: list[Event] = []
    points = 0
    run: list[Cell] = []
    for cell in (*line, None):
        value = STONE if cell is None else board[cell[0]][cell[1]]
        if value >= 0 and cell is not None:
            run.append(cell)
            continue
        pushed, said, made = _push(run, board, merge)
        values += pushed
        events += said
        points += made
        if cell is not None:
            values.append(value)
        run = []
    return values, events, points


def _push(run: Sequence[Cell], board: Board, merge: Merge) -> tuple[list[int], list[Event], int]:
    values: list[int] = []
    starts: list[Cell] = []
    fresh: list[bool] = []
    events: list[Event] = []
    points = 0
    for cell in run:
        value = board[cell[0]][cell[1]]
        if not value:
            continue
        made = merge(values[-1], value) if values and not fresh[-1] else None
        if made is not None:
            target = run[len(values) - 1]
            events.append(Moved(cell, target, value))
            events.append(Merged(target, made, (starts[-1], cell)))
            values[-1], fresh[-1] = made, True
            points += made
            continue
        target = run[len(values)]
        values.append(value)
        starts.append(cell)
        fresh.append(False)
        if target != cell:
            events.append(Moved(cell, target, value))
    return values + [0] * (len(run) - len(values)), events, points


def slide(
    board: Board, lines: Iterable[Sequence[Cell]], merge: Merge = equal_pairs
) -> tuple[Board, tuple[Event, ...], int]:
    """Every line of a push slid and merged: the new board, the events, the points made."""
    rows = [list(row) for row in board]
    events: list[Event] = []
    points = 0
    for line in lines:
        values, said, made = slide_line(line, board, merge)
        for (r, c), value in zip(line, values, strict=True):
            rows[r][c] = value
        events += said
        points += made
    return tuple(tuple(row) for row in rows), tuple(events), points


def empty_cells(board: Board) -> list[Cell]:
    """The cells that hold no tile (0), in reading order (a stone is not empty)."""
    return [(r, c) for r, row in enumerate(board) for c, value in enumerate(row) if value == 0]


def put(board: Board, cell: Cell, value: int) -> Board:
    """``board`` with ``value`` at ``cell``."""
    rows = [list(row) for row in board]
    rows[cell[0]][cell[1]] = value
    return tuple(tuple(row) for row in rows)


def spawn(
    board: Board, code: str, draws: int, values: Sequence[tuple[int, float]] = ((4, 0.1),)
) -> tuple[Board, Appeared]:
    """A new tile on an empty cell from the deal, using two draws (``draws`` and the next):
    the cell, then the value: each ``(value, chance)`` in turn, else a 2 (2048's: a 4 one
    time in ten). The board must have an empty cell."""
    empty = empty_cells(board)
    cell = empty[below(code, draws, len(empty))]
    roll, value, edge = chance(code, draws + 1), 2, 0.0
    for candidate, share in values:
        edge += share
        if roll < edge:
            value = candidate
            break
    return put(board, cell, value), Appeared(cell, value)


def put_stones(board: Board, code: str, draws: int, count: int) -> Board:
    """``count`` stones on empty cells from the deal, one draw each from ``draws``."""
    for number in range(count):
        empty = empty_cells(board)
        board = put(board, empty[below(code, draws + number, len(empty))], STONE)
    return board


class RulesBase:
    """The rules protocol with a default for every optional member: a mode's rules
    subclass it and write ``new_game``, ``apply`` and ``is_over``, and what else their
    game changes. Its state needs ``code``, ``board``, ``score`` and ``moves``."""

    #: how many earlier states undo may return to
    undo_depth: int = 100
    #: the words ``parse`` takes, each with its action (2048's four directions and undo)
    words: Mapping[str, str] = SLIDE_WORDS
    #: the board's shape, for ``render_text`` (None: a rectangle); give the Mode the same
    layout: Layout | None = None

    def new_game(self, code: str) -> Any:
        raise NotImplementedError

    def apply(self, state: Any, action: str) -> Outcome:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def from_position(self, data: Mapping[str, Any], code: str) -> Any:
        """By default a mode takes no starting position."""
        raise PositionError(_("this mode takes no starting position"))

    def parse(self, text: str) -> str:
        word = " ".join(text.lower().split())
        if word not in self.words:
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        return self.words[word]

    def undo(self, previous: Any, current: Any) -> Any:
        return previous

    def report(self, state: Any) -> dict[str, Any]:
        return {}

    def announce(self, before: Any, outcome: Outcome) -> str:
        """The tiles merges made, the score, and when no action can change the game."""
        after = outcome.state
        if not outcome.events:
            return _("Nothing moved. Score {score}.").format(score=after.score)
        made = [e.value for e in outcome.events if isinstance(e, Merged)]
        parts = [_("Made {tiles}.").format(tiles=", ".join(map(str, made)))] if made else []
        parts.append(_("Score {score}.").format(score=after.score))
        if self.is_over(after):
            parts.append(_("No more moves."))
        return " ".join(parts)

    def read_board(self, state: Any) -> list[str]:
        """Each row's cells in words, top first (a no-cell is no part of the board: unsaid)."""
        return [
            _("Row {row}: {cells}").format(
                row=r, cells=", ".join(value_words(v) for v in row if v != NO_CELL)
            )
            for r, row in enumerate(state.board, start=1)
        ]

    def render_text(self, state: Any) -> str:
        """The board as text: on its layout's shape when it has one (a hexagon's offset rows)."""
        board = state.board
        layout = layout_of(self.layout, board)
        return layout.draw({(r, c): value_mark(board[r][c]) for r, c in layout.cells})

    def stats(self, state: Any) -> dict[str, int]:
        return {}
