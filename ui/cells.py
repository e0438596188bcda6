"""Cells as people count them (row 1 is the top row) and as the JSON protocol does (from 0).

Words for people count rows and columns from 1 in every mode, ``--plain`` input
included; only the protocol the rules speak counts from 0. These turn the ``R,C``
cells of a command or a hint from one count to the other, and the bare column of a
command whose shape is ``"column"`` (``place 3``; see ``twofold.core.commands``): the
one place where every kind of command is turned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from twofold.core._i18n import _
from twofold.core._rules import Refused

_CELL = re.compile(r"(?<![\d-])(-?\d+)\s*,\s*(-?\d+)")
#: a command word and one bare number: ``place 3``
_COLUMN = re.compile(r"(\S+\s+)(-?\d{1,9})(\s*)")


def for_people(text: str, shape: str | None = None) -> str:
    """``chain 0,0 0,1`` → ``chain 1,1 1,2``; with ``shape="column"``, ``place 0`` → ``place 1``."""
    if shape == "column":
        column = _COLUMN.fullmatch(text)
        return f"{column[1]}{int(column[2]) + 1}{column[3]}" if column else text
    return _CELL.sub(lambda m: f"{int(m[1]) + 1},{int(m[2]) + 1}", text)


def for_protocol(text: str, board: Sequence[Sequence[int]], shape: str | None = None) -> str:
    """A command typed with cells (or, for ``shape="column"``, a column) counted from 1, as
    the rules take it; Refused if off the board."""
    rows = len(board)
    cols = len(board[0]) if rows else 0
    if shape == "column":
        column = _COLUMN.fullmatch(text.strip())
        if column is None:
            return text  # not a column: the rules say what they take
        number = int(column[2])
        if not 1 <= number <= cols:
            raise Refused(
                _("column {col} is off the board (columns 1 to {cols})").format(
                    col=number, cols=cols
                )
            )
        return f"{column[1]}{number - 1}"

    def shift(match: re.Match[str]) -> str:
        row, col = int(match[1]), int(match[2])
        if not 1 <= row <= rows:
            raise Refused(
                _("row {row} is off the board (rows 1 to {rows})").format(row=row, rows=rows)
            )
        if not 1 <= col <= cols:
            raise Refused(
                _("column {col} is off the board (columns 1 to {cols})").format(col=col, cols=cols)
            )
        return f"{row - 1},{col - 1}"

    return _CELL.sub(shift, text)
