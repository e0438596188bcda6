"""Reading a starting position: the board and the score of ``--position``'s JSON
(``{"board": [[...]], "score": 12}``), each checked, with a one-line reason for the
first thing wrong, as ``Rules.from_position`` must give.

A plugin writes only what its game changes::

    board = position_board(data, 4, 4, _("a board is 4 rows of 4 tiles"), is_tile)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from twofold.core._i18n import _
from twofold.core._rules import Board, PositionError


def position_board(
    data: Any, rows: int, columns: int, shape: str, fits: Callable[[int], bool], unfit: str = ""
) -> Board:
    """The board of a position: ``rows`` lists of ``columns`` whole numbers, each one that
    ``fits`` (``0`` for an empty cell). Else ``PositionError(shape)``, or, with ``unfit``
    given, a reason naming the first bad cell: ``row 2, column 1 is not a whole number``,
    ``row 1, column 3 holds 4, `` followed by ``unfit`` (``not a Fibonacci number``).

    >>> position_board({"board": [[1, 0], [0, 2]]}, 2, 2, "2 rows of 2", lambda v: v >= 0)
    ((1, 0), (0, 2))
    """
    found = data.get("board") if isinstance(data, Mapping) else None
    if not isinstance(found, list) or len(found) != rows:
        raise PositionError(shape)
    for r, row in enumerate(found, start=1):
        if not isinstance(row, list) or len(row) != columns:
            raise PositionError(shape)
        for c, value in enumerate(row, start=1):
            if isinstance(value, bool) or not isinstance(value, int):
                if unfit:
                    raise PositionError(
                        _("row {row}, column {column} is not a whole number").format(
                            row=r, column=c
                        )
                    )
                raise PositionError(shape)
            if not fits(value):
                if unfit:
                    raise PositionError(
                        _("row {row}, column {column} holds {value}, {unfit}").format(
                            row=r, column=c, value=value, unfit=unfit
                        )
                    )
                raise PositionError(shape)
    return tuple(tuple(row) for row in found)


def position_score(data: Mapping[str, Any]) -> int:
    """The score of a position: a whole number from 0, or 0 when it gives none.

    >>> position_score({"board": [], "score": 12}), position_score({})
    (12, 0)
    """
    score = data.get("score", 0)
    if isinstance(score, bool) or not isinstance(score, int) or score < 0:
        raise PositionError(_('"score" must be a whole number from 0'))
    return score
