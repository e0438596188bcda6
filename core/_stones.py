"""Stones: cells that hold neither a tile nor nothing, and how every front tells one.

A board is rows of whole numbers: ``0`` an empty cell, a number above 0 a tile, and
:data:`STONE` a stone, a blocked cell a mode puts on its board. A stone never moves,
merges or goes away: no event names its cell. The one board draws it as a stone in
the terminal and the browser; ``--json`` carries it as ``-1`` in ``board``; records
and the tile strip leave it out. A mode's ``read_board`` (``R``) and ``render_text``
(``--plain``) say it with :func:`value_words` and :func:`value_mark`, as they say
tiles and empty cells.
"""

from __future__ import annotations

from typing import Final

from twofold.core._i18n import _

#: the value of a stone on a board (below every tile, so never the largest)
STONE: Final = -1
#: how ``--plain`` draws a stone and an empty cell
STONE_MARK: Final = "#"
EMPTY_MARK: Final = "."


def value_words(value: int) -> str:
    """A cell's value for people reading the board aloud: ``16``, ``empty`` or ``stone``."""
    if value == STONE:
        return _("stone")
    return str(value) if value else _("empty")


def value_mark(value: int) -> str:
    """A cell's value in plain text: ``16``, ``.`` or ``#``."""
    if value == STONE:
        return STONE_MARK
    return str(value) if value else EMPTY_MARK


def stones_on(board: tuple[tuple[int, ...], ...] | list[list[int]]) -> list[tuple[int, int]]:
    """The cells of ``board`` that hold a stone, in reading order."""
    return [(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == STONE]
