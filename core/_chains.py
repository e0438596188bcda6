"""Chains and groups of touching tiles, with the rule of what a chain makes a function:
equal chains (Chain Sum), 2248's doubling-and-rounding, or any pair rule folded along
the chain (Fibonacci neighbours, 1+2=3); and the ready pair rules for slides too.

A plugin writes only what its game changes::

    from twofold.plugin import check_chain, equal_chain, eight_neighbours, rectangle

    made = check_chain(board, chain, rectangle(6, 6), eight_neighbours, equal_chain)

Which cells touch is a function (:data:`Neighbours`): a cell's neighbours, of which only
those on the board count, so any shape works: :func:`stepping` makes one from steps
(:data:`EIGHT_STEPS` for 2248's eight neighbours, :data:`SIDE_STEPS` for four), and a
hexagon or a board with holes gives its own. Every block is a pure function.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from itertools import pairwise

from twofold.core._blocks import Merge
from twofold.core._events import Cell
from twofold.core._i18n import _
from twofold.core._rules import Board, Refused

#: which cells touch a cell (those off the board are left out where they are used)
Neighbours = Callable[[Cell], Iterable[Cell]]
#: what a chain of these values (in the order drawn, at least two) makes; raises
#: ``Refused`` saying why the last value cannot join the ones before it
ChainRule = Callable[[Sequence[int]], int]

#: the eight steps to the cells around a cell (2248), in reading order
EIGHT_STEPS: tuple[tuple[int, int], ...] = (
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
)
#: the four steps to the cells beside, above and below a cell, in reading order
SIDE_STEPS: tuple[tuple[int, int], ...] = ((-1, 0), (0, -1), (0, 1), (1, 0))


def stepping(steps: Iterable[tuple[int, int]]) -> Neighbours:
    """The neighbours a cell has one of ``steps`` away, in the order of the steps.

    >>> list(stepping(SIDE_STEPS)((2, 2)))
    [(1, 2), (2, 1), (2, 3), (3, 2)]
    """
    kept = tuple(steps)

    def neighbours(cell: Cell) -> list[Cell]:
        return [(cell[0] + dr, cell[1] + dc) for dr, dc in kept]

    return neighbours


#: the eight cells around a cell, diagonals included (2248, Chain Sum)
eight_neighbours: Neighbours = stepping(EIGHT_STEPS)
#: the four cells beside, above and below a cell
side_neighbours: Neighbours = stepping(SIDE_STEPS)


# -- pair rules: what two tiles make when they meet, or None ----------------------------------


def _fibonacci_pairs(count: int) -> frozenset[tuple[int, int]]:
    terms = [1, 2]
    while len(terms) < count:
        terms.append(terms[-1] + terms[-2])
    return frozenset([(1, 1), *pairwise(terms)])


#: (smaller, larger) of each two tiles that add up: 1 and 1, then neighbours in 1, 2, 3, 5, ...
_FIBONACCI = _fibonacci_pairs(90)


def fibonacci_pairs(first: int, second: int) -> int | None:
    """Neighbours in the Fibonacci sequence 1, 2, 3, 5, 8, ... (or two 1s) add up;
    nothing else does.

    >>> fibonacci_pairs(3, 5), fibonacci_pairs(2, 1), fibonacci_pairs(1, 1), fibonacci_pairs(3, 3)
    (8, 3, 2, None)
    """
    pair = (first, second) if first <= second else (second, first)
    return first + second if pair in _FIBONACCI else None


def threes_pairs(first: int, second: int) -> int | None:
    """Threes' rule: a 1 and a 2 make 3; from 3 up, two equal tiles make their sum.

    >>> threes_pairs(1, 2), threes_pairs(3, 3), threes_pairs(1, 1), threes_pairs(2, 2)
    (3, 6, None, None)
    """
    if first + second == 3 and first * second == 2:
        return 3
    return first + second if first == second >= 3 else None


# -- chain rules: what a chain makes -----------------------------------------------------------


def equal_chain(values: Sequence[int]) -> int:
    """Chain Sum's rule: a chain of equal tiles makes their sum, N tiles of v make N × v.

    >>> equal_chain([3, 3, 3, 3])
    12
    """
    first, last = values[0], values[-1]
    for value in values:
        if value != first:
            raise Refused(
                _("a {value} cannot join a chain of {first}s").format(value=last, first=first)
            )
    return first * len(values)


def doubling_chain(values: Sequence[int]) -> int:
    """2248's rule: the second tile equals the first, each next one equals the one before
    it or doubles it, and the chain makes its sum rounded up to a power of two.

    >>> doubling_chain([2, 2, 4]), doubling_chain([4, 4, 8, 8, 16])
    (8, 64)
    """
    if values[1] != values[0]:
        raise Refused(
            _("the second tile must equal the first ({b} after {a})").format(
                a=values[0], b=values[1]
            )
        )
    for before, value in pairwise(values[1:]):
        if value not in (before, 2 * before):
            raise Refused(_("{b} cannot follow {a}").format(a=before, b=value))
    return 1 << (sum(values) - 1).bit_length()


def folded(merge: Merge) -> ChainRule:
    """A chain that merges pair by pair from its first tile with ``merge``, each tile with
    what the ones before it made: ``folded(fibonacci_pairs)`` takes 1, 2, 5 (1 and 2 make
    3, then 3 and 5 make 8) and refuses 1, 2, 8 (3 and 8 are no neighbours).

    >>> folded(fibonacci_pairs)([1, 2, 5]), folded(threes_pairs)([1, 2, 3, 6])
    (8, 12)
    """

    def rule(values: Sequence[int]) -> int:
        made = values[0]
        for value in values[1:]:
            joined = merge(made, value)
            if joined is None:
                raise Refused(_("{value} cannot join {made}").format(value=value, made=made))
            made = joined
        return made

    return rule


# -- chains on a board -------------------------------------------------------------------------


def cell_words(cell: Cell) -> str:
    """A cell as people count it, from 1: ``row 1, column 3`` for ``(0, 2)``."""
    return _("row {row}, column {column}").format(row=cell[0] + 1, column=cell[1] + 1)


def chain_problem(
    board: Board,
    chain: Sequence[Cell],
    cells: Collection[Cell],
    neighbours: Neighbours = eight_neighbours,
    rule: ChainRule = equal_chain,
) -> str:
    """Why the last cell of ``chain`` cannot join the ones before it, or ``""`` when it
    can: it is off the board (not in ``cells``), in the chain already, not touching the
    one before it, or ``rule`` refuses its value. A preview (``Mode.judge``) says it while
    a chain is drawn.

    >>> chain_problem(((2, 2), (4, 2)), [(0, 0), (1, 0)], {(0, 0), (0, 1), (1, 0), (1, 1)})
    'a 4 cannot join a chain of 2s'
    """
    if not chain:
        return ""
    last = chain[-1]
    if last not in cells:
        return _("{cell} is off the board").format(cell=cell_words(last))
    if last in chain[:-1]:
        return _("{cell} is in the chain already").format(cell=cell_words(last))
    if len(chain) > 1 and last not in neighbours(chain[-2]):
        return _("{cell} does not touch the tile before it").format(cell=cell_words(last))
    if len(chain) > 1 and all(cell in cells for cell in chain[:-1]):
        try:
            rule([board[r][c] for r, c in chain])
        except Refused as refusal:
            return str(refusal)
    return ""


def check_chain(
    board: Board,
    chain: Sequence[Cell],
    cells: Collection[Cell],
    neighbours: Neighbours = eight_neighbours,
    rule: ChainRule = equal_chain,
) -> int:
    """The tile a legal chain makes; ``Refused`` with the reason for its first bad cell
    (:func:`chain_problem`), or because a chain needs at least two tiles.

    >>> check_chain(((3, 3), (3, 1)), [(0, 0), (0, 1), (1, 0)], {(0, 0), (0, 1), (1, 0), (1, 1)})
    9
    """
    if len(chain) < 2:
        raise Refused(_("a chain needs at least 2 tiles"))
    for end in range(1, len(chain) + 1):
        reason = chain_problem(board, chain[:end], cells, neighbours, rule)
        if reason:
            raise Refused(reason)
    return rule([board[r][c] for r, c in chain])


def has_chain(
    board: Board,
    cells: Iterable[Cell],
    neighbours: Neighbours = eight_neighbours,
    rule: ChainRule = equal_chain,
) -> bool:
    """Whether some two touching tiles make a chain: a chain game is over without one.
    Stones and empty cells join no chain.

    >>> has_chain(((2, 4), (8, 2)), [(0, 0), (0, 1), (1, 0), (1, 1)])
    True
    >>> has_chain(((2, 4), (8, 2)), [(0, 0), (0, 1), (1, 0), (1, 1)], side_neighbours)
    False
    """
    found = set(cells)
    for cell in found:
        value = board[cell[0]][cell[1]]
        if value <= 0:
            continue
        for near in neighbours(cell):
            if near in found and board[near[0]][near[1]] > 0:
                try:
                    rule([value, board[near[0]][near[1]]])
                except Refused:
                    continue
                return True
    return False


def merge_chain(board: Board, chain: Sequence[Cell], made: int) -> Board:
    """``board`` with every cell of ``chain`` emptied but the last, which holds ``made``
    (the tile the chain made): what gravity (:func:`fall`, :func:`settle`) works on next.

    >>> merge_chain(((2, 2), (4, 8)), [(0, 0), (0, 1)], 4)
    ((0, 4), (4, 8))
    """
    rows = [list(row) for row in board]
    for r, c in chain[:-1]:
        rows[r][c] = 0
    rows[chain[-1][0]][chain[-1][1]] = made
    return tuple(tuple(row) for row in rows)


def group_of(
    board: Board, start: Cell, cells: Iterable[Cell], neighbours: Neighbours = side_neighbours
) -> list[Cell]:
    """The tiles of ``start``'s value joined to it through touching tiles of that value,
    ``start`` first, then breadth first in the order ``neighbours`` gives: what a tap
    game removes, or what a drop game merges.

    >>> group_of(((2, 2, 4), (2, 4, 4)), (0, 0), [(r, c) for r in range(2) for c in range(3)])
    [(0, 0), (0, 1), (1, 0)]
    """
    found = cells if isinstance(cells, set | frozenset) else set(cells)
    value = board[start[0]][start[1]]
    group = [start]
    seen = {start}
    for cell in group:  # the list grows as it is read: breadth first
        for near in neighbours(cell):
            if near in found and near not in seen and board[near[0]][near[1]] == value:
                seen.add(near)
                group.append(near)
    return group


def groups(
    board: Board, cells: Iterable[Cell], neighbours: Neighbours = side_neighbours
) -> list[list[Cell]]:
    """Every group of at least two equal touching tiles (no stone, no empty cell), each
    sorted, in the order of its first cell in ``cells``.

    >>> groups(((2, 2, 4), (8, 4, 4)), [(r, c) for r in range(2) for c in range(3)])
    [[(0, 0), (0, 1)], [(0, 2), (1, 1), (1, 2)]]
    """
    order = list(cells)
    on_board = set(order)
    seen: set[Cell] = set()
    found: list[list[Cell]] = []
    for cell in order:
        if cell in seen or board[cell[0]][cell[1]] <= 0:
            continue
        group = group_of(board, cell, on_board, neighbours)
        seen.update(group)
        if len(group) > 1:
            found.append(sorted(group))
    return found
