"""Gravity: tiles fall along a direction into the gaps a move left, and the deal fills
what stays empty, as on 2248's board and in a drop game.

A plugin writes only what its game changes::

    from twofold.plugin import DOWN, cascade, fall, rectangle, settle

    board, events, draws = settle(board, rectangle(8, 5), lambda n: deal(code, n), draws)
    board, events, made = cascade(board, landed, rectangle(7, 5), side_neighbours, doubled)

The cells are any set (a rectangle, a hexagon, a board with holes): a tile falls along
``step`` from cell to cell while the next cell is part of the board and empty. A stone
(any value below 0) never falls and holds up what is above it. Every block is a pure
function of its arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from twofold.core._blocks import lines_toward
from twofold.core._chains import Neighbours, group_of, merge_chain
from twofold.core._events import Appeared, Cell, Event, Fell, Merged
from twofold.core._rules import Board

#: the step of a fall straight down the rows, (rows, columns)
DOWN: tuple[int, int] = (1, 0)
#: a deal: the tile that draw ``n`` gives
Deal = Callable[[int], int]


def fall(
    board: Board, cells: Iterable[Cell], step: tuple[int, int] = DOWN
) -> tuple[Board, tuple[Fell, ...]]:
    """Every tile falls along ``step`` as far as it goes: the new board and a ``Fell`` for
    each tile that moved, line by line (as :func:`lines_toward` lists them), each from the
    wall up. A line keeps its order; a stone stays where it is and tiles land on it.

    >>> fall(((2,), (0,), (4,), (0,)), [(0, 0), (1, 0), (2, 0), (3, 0)])
    (((0,), (0,), (2,), (4,)), (Fell(source=(2, 0), target=(3, 0), value=4), \
Fell(source=(0, 0), target=(2, 0), value=2)))
    """
    return _fall_along(board, lines_toward(cells, step))


def _fall_along(board: Board, lines: list[list[Cell]]) -> tuple[Board, tuple[Fell, ...]]:
    # fall's work on lines already listed: settle and cascade list them once, not per fall
    rows = [list(row) for row in board]
    events: list[Fell] = []
    for line in lines:
        landing = 0
        for index, (r, c) in enumerate(line):
            value = rows[r][c]
            if value < 0:
                landing = index + 1
            elif value:
                target = line[landing]
                if target != (r, c):
                    rows[target[0]][target[1]], rows[r][c] = value, 0
                    events.append(Fell((r, c), target, value))
                landing += 1
    return tuple(tuple(row) for row in rows), tuple(events)


def refill(
    board: Board, order: Iterable[Cell], deal: Deal, draws: int
) -> tuple[Board, tuple[Appeared, ...], int]:
    """Each empty cell of ``order``, in that order, gets the tile of the next draw of
    ``deal`` (from ``draws`` on): the new board, an ``Appeared`` for each new tile, and
    the draws used so far.

    >>> refill(((0, 2), (0, 0)), [(0, 0), (0, 1), (1, 1)], lambda n: 2 ** (n + 1), 5)
    (((64, 2), (0, 128)), (Appeared(cell=(0, 0), value=64), \
Appeared(cell=(1, 1), value=128)), 7)
    """
    rows = [list(row) for row in board]
    events: list[Appeared] = []
    for r, c in order:
        if rows[r][c] == 0:
            rows[r][c] = deal(draws)
            draws += 1
            events.append(Appeared((r, c), rows[r][c]))
    return tuple(tuple(row) for row in rows), tuple(events), draws


def settle(
    board: Board,
    cells: Iterable[Cell],
    deal: Deal,
    draws: int,
    step: tuple[int, int] = DOWN,
    *,
    from_wall: bool = True,
) -> tuple[Board, tuple[Event, ...], int]:
    """Tiles fall along ``step`` (:func:`fall`), then every empty cell gets a tile from the
    deal (:func:`refill`), line by line, each from the wall up as tiles dropping in
    stack (2248), or with ``from_wall=False`` from the far end down (Chain Sum): the new
    board, the ``Fell`` and ``Appeared`` events, and the draws used so far.

    >>> settle(((2, 0), (0, 4)), [(0, 0), (0, 1), (1, 0), (1, 1)], lambda n: 8, 0)[0]
    ((8, 8), (2, 4))
    """
    lines = lines_toward(cells, step)
    fallen, falls = _fall_along(board, lines)
    order = [cell for line in lines for cell in (line if from_wall else reversed(line))]
    filled, appeared, draws = refill(fallen, order, deal, draws)
    return filled, (*falls, *appeared), draws


def cascade(
    board: Board,
    start: Cell,
    cells: Iterable[Cell],
    neighbours: Neighbours,
    makes: Callable[[int, int], int],
    step: tuple[int, int] = DOWN,
) -> tuple[Board, tuple[Event, ...], list[int]]:
    """A drop game's chain reaction: the group of equal touching tiles around ``start``
    (:func:`group_of`, at least two) becomes one tile ``makes(value, count)`` at ``start``,
    the others leave, tiles fall along ``step`` (:func:`fall`), and the made tile, then
    each tile that fell, merges again the same way while equal tiles touch. The new board,
    the events (each ``Merged``, its tiles in the order found and ``start``'s last, then
    its ``Fell``), and the tiles made, in order.

    >>> from operator import mul
    >>> from twofold.plugin import rectangle, side_neighbours
    >>> board = ((0, 0), (0, 2), (4, 2))  # a 2 just landed at (1, 1)
    >>> after, events, made = cascade(board, (1, 1), rectangle(3, 2), side_neighbours, mul)
    >>> after, made
    (((0, 0), (0, 0), (0, 8)), [4, 8])
    """
    on_board = set(cells)
    lines = lines_toward(on_board, step)
    events: list[Event] = []
    made: list[int] = []
    waiting = [start]
    while waiting:
        cell = waiting.pop(0)
        value = board[cell[0]][cell[1]]
        group = group_of(board, cell, on_board, neighbours) if value > 0 else [cell]
        if len(group) < 2:
            continue
        joined = (*group[1:], cell)
        made.append(makes(value, len(joined)))
        board, fell = _fall_along(merge_chain(board, joined, made[-1]), lines)
        events += [Merged(cell, made[-1], joined), *fell]
        moved = [cell, *waiting]  # follow each tile that fell: it may merge again
        for event in fell:
            moved = [event.target if c == event.source else c for c in moved] + [event.target]
        waiting = list(dict.fromkeys(moved))  # the made tile first, then what fell
    return board, tuple(events), made
