"""Board shapes: which places of a board's rows are cells, and where each cell is drawn.

A board is always rows of equal length (``Board``). A mode whose board is not a full
rectangle declares its :class:`Layout` (``Mode.layout``) and holds :data:`NO_CELL` at every
place of its rows that is not a cell. A no-cell is not a stone: it is no part of the board.
It is never drawn as a tile, never read aloud, never a target (a hint, a click, a power-up,
a chain), and no event names it. Each front follows the layout: the app and the browser draw
every cell at its position, ``--plain`` draws the shape as text (:meth:`Layout.draw`),
``--json`` carries ``-2`` in ``board`` and the layout in its first reply, the learning
environment observes a no-cell as 255. The blocks work on any layout unchanged:
``lines_toward(layout.cells, step)`` gives its lines, and ``empty_cells`` and ``spawn``
never pick a no-cell (it is not ``0``).

    from twofold.plugin import HEX_DIRECTIONS, HEX_STEPS, Layout, Mode

    HEX = Layout.hexagon(2)  # 19 cells in rows of 3, 4, 5, 4 and 3
    Mode(id="hex", ..., layout=HEX, directions=HEX_DIRECTIONS)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from twofold.core._events import Cell
from twofold.core._i18n import N_
from twofold.core._presentation import Direction
from twofold.core._stones import STONE

#: the value at a place of a board's rows that is not a cell of its layout
NO_CELL: Final = -2
#: the largest board a layout spans, rows and columns (a bound on what a plugin declares)
MOST_PLACES = 64

#: a hexagon's six steps, (rows, columns), on :meth:`Layout.hexagon`'s rows
HEX_STEPS: Mapping[str, tuple[int, int]] = {
    "nw": (-1, 0),
    "ne": (-1, 1),
    "w": (0, -1),
    "e": (0, 1),
    "sw": (1, -1),
    "se": (1, 0),
}
#: the six directions of a hexagon, on the number pad's hexagon around 5 (7 9 4 6 1 3) and
#: the arrows left and right: no key a screen reserves
HEX_DIRECTIONS: tuple[Direction, ...] = (
    Direction("nw", N_("Move up-left"), ("7",), "↖", 120.0),
    Direction("ne", N_("Move up-right"), ("9",), "↗", 60.0),
    Direction("w", N_("Move left"), ("4", "left"), "←", 180.0),
    Direction("e", N_("Move right"), ("6", "right"), "→", 0.0),
    Direction("sw", N_("Move down-left"), ("1",), "↙", 240.0),
    Direction("se", N_("Move down-right"), ("3",), "↘", 300.0),
)


@dataclass(frozen=True)
class Layout:
    """A board's shape: its cells, each a ``(row, column)`` of the board's rows, and where
    each is drawn. Make one with :meth:`rectangle`, :meth:`hexagon` or :meth:`at`.

    The board's rows span every cell (``rows`` x ``cols``); the places of them that are not
    cells hold :data:`NO_CELL`.
    """

    cells: tuple[Cell, ...]
    """the board's cells, ``(row, column)``, in reading order"""
    positions: tuple[tuple[float, float], ...]
    """where each cell is drawn, in the order of ``cells``: ``(x, y)`` in tiles from the
    top left, ``x`` across and ``y`` down (``0.5`` is half a tile: a hexagon's offset rows)"""
    shape: str = "cells"
    """what the layout is: ``"rectangle"``, ``"hexagon"`` or ``"cells"`` (any other set)"""

    def __post_init__(self) -> None:
        cells, positions = tuple(self.cells), tuple(self.positions)
        if not cells:
            raise ValueError("a layout has at least one cell")
        if len(positions) != len(cells):
            raise ValueError(f"a layout has {len(cells)} cells and {len(positions)} positions")
        if len(set(cells)) != len(cells):
            raise ValueError("a layout names a cell twice")
        for r, c in cells:
            if not (0 <= r < MOST_PLACES and 0 <= c < MOST_PLACES):
                raise ValueError(f"cell {r},{c} is off the rows a layout may span (0 to 63)")
        for x, y in positions:
            if not (math.isfinite(x) and math.isfinite(y) and x >= 0 and y >= 0):
                raise ValueError(f"position {x},{y} is not a place from the top left (x, y >= 0)")
        ordered = sorted(zip(cells, positions, strict=True))
        object.__setattr__(self, "cells", tuple(cell for cell, _at in ordered))
        object.__setattr__(self, "positions", tuple((float(x), float(y)) for _c, (x, y) in ordered))

    @classmethod
    def rectangle(cls, rows: int, cols: int) -> Layout:
        """Every place of ``rows`` x ``cols``: the board of a mode that declares no layout."""
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        return cls(tuple(cells), tuple((float(c), float(r)) for r, c in cells), "rectangle")

    @classmethod
    def hexagon(cls, radius: int) -> Layout:
        """A hexagon of ``radius`` cells around its centre (2: 19 cells), drawn as offset
        rows (3, 4, 5, 4, 3 cells for radius 2). Its rows are ``2 * radius + 1`` places of
        ``2 * radius + 1``: row ``r`` holds columns ``max(0, radius - r)`` to
        ``min(2 * radius, 3 * radius - r)``, so :data:`HEX_STEPS` are the same on every row."""
        if radius < 0:
            raise ValueError("a hexagon's radius is 0 or more")
        side = 2 * radius + 1
        cells = [(r, c) for r in range(side) for c in range(side) if radius <= r + c <= 3 * radius]
        return cls(
            tuple(cells), tuple((c + (r - radius) / 2, float(r)) for r, c in cells), "hexagon"
        )

    @classmethod
    def at(cls, positions: Mapping[Cell, tuple[float, float]]) -> Layout:
        """Any set of cells, each with where it is drawn: ``{(row, col): (x, y), ...}``."""
        return cls(tuple(positions), tuple(positions.values()), "cells")

    # -- what it spans ------------------------------------------------------------------

    @cached_property
    def rows(self) -> int:
        """The board's rows: the last cell's row, and one."""
        return max(r for r, _c in self.cells) + 1

    @cached_property
    def cols(self) -> int:
        """The board's columns: the rightmost cell's column, and one."""
        return max(c for _r, c in self.cells) + 1

    @cached_property
    def width(self) -> float:
        """How many tiles wide it is drawn."""
        return max(x for x, _y in self.positions) + 1

    @cached_property
    def height(self) -> float:
        """How many tiles high it is drawn."""
        return max(y for _x, y in self.positions) + 1

    @cached_property
    def _where(self) -> dict[Cell, tuple[float, float]]:
        return dict(zip(self.cells, self.positions, strict=True))

    def __contains__(self, cell: object) -> bool:
        return cell in self._where

    def position(self, cell: Cell) -> tuple[float, float]:
        """Where ``cell`` is drawn, ``(x, y)`` in tiles; KeyError for a no-cell."""
        return self._where[cell]

    @cached_property
    def holes(self) -> tuple[Cell, ...]:
        """The places of the board's rows that are not cells (they hold NO_CELL)."""
        return tuple(
            (r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self
        )

    @property
    def full(self) -> bool:
        """Whether every place of the board's rows is a cell (a rectangle)."""
        return not self.holes

    def blank(self) -> tuple[tuple[int, ...], ...]:
        """The empty board: 0 at every cell, NO_CELL at every other place."""
        return tuple(
            tuple(0 if (r, c) in self else NO_CELL for c in range(self.cols))
            for r in range(self.rows)
        )

    def draw(self, marks: Mapping[Cell, str]) -> str:
        """The cells' marks as text at their positions (``--plain``): each mark right-aligned
        in a column as wide as the widest, half a column for half a tile."""
        width = max([1, *(len(mark) for mark in marks.values())])
        pitch = width + 1
        if any(not x.is_integer() for x, _y in self.positions):
            pitch += pitch % 2  # even, so half a tile is whole characters
        left = min(x for x, _y in self.positions)  # the shape starts at the left margin
        lines: dict[int, dict[int, str]] = {}
        for cell, (x, y) in zip(self.cells, self.positions, strict=True):
            mark = marks.get(cell, "")
            lines.setdefault(round(y), {})[round((x - left) * pitch)] = mark.rjust(width)
        text = []
        for y in range(max(lines) + 1):
            line = ""
            for at, mark in sorted(lines.get(y, {}).items()):
                line = line.ljust(at) + mark
            text.append(line.rstrip())
        return "\n".join(text)

    def as_dict(self) -> dict[str, Any]:
        """The layout as JSON: ``shape``, ``cells`` as ``[R, C]`` and ``positions`` as
        ``[x, y]``, in the same order (the first ``--json`` reply's ``layout``)."""
        return {
            "shape": self.shape,
            "cells": [list(cell) for cell in self.cells],
            "positions": [[_number(x), _number(y)] for x, y in self.positions],
        }


def _number(value: float) -> float | int:
    return int(value) if value.is_integer() else value


def layout_of(layout: Layout | None, board: Sequence[Sequence[int]]) -> Layout:
    """``layout``, or for a mode that declares none, the rectangle of ``board``'s rows."""
    if layout is not None:
        return layout
    return Layout.rectangle(len(board), len(board[0]) if board else 0)


def check_board(
    board: Sequence[Sequence[int]] | Iterable[Sequence[int]], layout: Layout | None = None
) -> None:
    """Raise ValueError, in one line, at the first place that no front could draw: a value
    that is no tile, no empty cell and no stone at a cell (``-3``), or a place the layout
    holds NO_CELL at that the board does not (or the other way round); the session makes it
    the mode's fault."""
    rows = [list(row) for row in board]
    width = len(rows[0]) if rows else 0
    if layout is not None and (len(rows), width) != (layout.rows, layout.cols):
        raise ValueError(
            f"the board is {len(rows)}x{width}; its layout spans {layout.rows}x{layout.cols}"
        )
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            cell = layout is None or (r, c) in layout
            if type(value) is not int or (cell and value < 0 and value != STONE):
                raise ValueError(
                    f"the board holds {value!r} at {r},{c}: a cell is 0, a tile above 0 "
                    f"or a stone ({STONE})"
                )
            if not cell and value != NO_CELL:
                raise ValueError(
                    f"the board holds {value!r} at {r},{c}, which is no cell of its layout: "
                    f"it must hold {NO_CELL}"
                )
