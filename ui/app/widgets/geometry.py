"""Where the tiles of a board sit inside its widget: one geometry for every board."""

from __future__ import annotations

import math
from dataclasses import dataclass

from twofold.core._layout import Layout

Cell = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """Tiles of ``tile_width`` x ``tile_height`` with gaps between them.

    ``rim`` puts a gap around the outside too (a slide board's frame); ``left`` and
    ``top`` place the board in its widget. Widget offsets are whole cells; ``corner``
    also takes fractional rows and columns, for tiles drawn between cells mid-slide.
    A ``layout`` that is not a full rectangle puts each cell at its position (``rows``
    and ``cols`` are then the tiles it is drawn high and wide), and only its cells are hit.
    """

    rows: int
    cols: int
    tile_width: int
    tile_height: int
    gap_x: int
    gap_y: int
    left: int = 0
    top: int = 0
    rim: bool = True
    layout: Layout | None = None

    def _span(self, count: int, tile: int, gap: int) -> int:
        return count * tile + (count + 1 if self.rim else count - 1) * gap

    @property
    def width(self) -> int:
        return self._span(self.cols, self.tile_width, self.gap_x)

    @property
    def height(self) -> int:
        return self._span(self.rows, self.tile_height, self.gap_y)

    @property
    def pitch(self) -> int:
        """Columns from one tile's left edge to the next one's."""
        return self.tile_width + self.gap_x

    @property
    def value_line(self) -> int:
        """The line of a tile (from its top) that shows the number."""
        return (self.tile_height - 1) // 2

    def corner(self, row: float, col: float) -> tuple[float, float]:
        """Top-left corner (x, y) of a cell, relative to the board's own corner."""
        edge_x, edge_y = (self.gap_x, self.gap_y) if self.rim else (0, 0)
        if self.layout is not None:
            col, row = placed(self.layout, row, col)
        return (
            edge_x + col * (self.tile_width + self.gap_x),
            edge_y + row * (self.tile_height + self.gap_y),
        )

    def origin(self, cell: Cell) -> tuple[int, int]:
        """The widget offset of the top-left corner of a cell's tile."""
        x, y = self.corner(*cell)
        return self.left + int(x), self.top + int(y)

    def centre(self, cell: Cell) -> tuple[int, int]:
        x, y = self.origin(cell)
        return x + self.tile_width // 2, y + self.value_line

    def cell_at(self, x: int, y: int, *, core: bool = False) -> Cell | None:
        """The cell under widget offset (x, y); ``core`` leaves out each tile's rim column."""
        if self.layout is not None:
            return self._cell_of_layout_at(x, y, core=core)
        edge_x, edge_y = (self.gap_x, self.gap_y) if self.rim else (0, 0)
        bx, by = x - self.left - edge_x, y - self.top - edge_y
        if bx < 0 or by < 0:
            return None
        col, across = divmod(bx, self.pitch)
        row, down = divmod(by, self.tile_height + self.gap_y)
        if row >= self.rows or col >= self.cols:
            return None
        if across >= self.tile_width or down >= self.tile_height:
            return None
        if core and not 0 < across < self.tile_width - 1:
            return None
        return row, col

    def _cell_of_layout_at(self, x: int, y: int, *, core: bool) -> Cell | None:
        """The layout's cell whose tile covers (x, y): a place that is no cell is never hit."""
        for cell in self.layout.cells if self.layout is not None else ():
            left, top = self.origin(cell)
            across, down = x - left, y - top
            if 0 <= across < self.tile_width and 0 <= down < self.tile_height:
                if core and not 0 < across < self.tile_width - 1:
                    return None
                return cell
        return None


def placed(layout: Layout, row: float, col: float) -> tuple[float, float]:
    """Where (x, y), in tiles, ``layout`` draws the place ``row``, ``col``: a cell at its
    position; between cells (a tile mid-slide), between their positions."""
    r0, c0 = math.floor(row), math.floor(col)
    fr, fc = row - r0, col - c0
    if not fr and not fc:
        return _position(layout, (r0, c0))
    x = y = 0.0
    for dr, dc, weight in ((0, 0, (1 - fr) * (1 - fc)), (0, 1, (1 - fr) * fc),
                           (1, 0, fr * (1 - fc)), (1, 1, fr * fc)):  # fmt: skip
        if weight:
            px, py = _position(layout, (r0 + dr, c0 + dc))
            x, y = x + weight * px, y + weight * py
    return x, y


def _position(layout: Layout, cell: Cell) -> tuple[float, float]:
    """A cell's position; for a place that is no cell (a tile dropping in from above the
    board), the nearest cell's, moved by whole tiles, on its row first."""
    if cell in layout:
        return layout.position(cell)
    r, c = cell
    near = min(layout.cells, key=lambda k: (abs(k[0] - r), abs(k[1] - c)))
    x, y = layout.position(near)
    return x + c - near[1], y + r - near[0]
