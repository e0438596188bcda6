"""Where the tiles of a board sit inside its widget: one geometry for every board."""

from __future__ import annotations

from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """Tiles of ``tile_width`` x ``tile_height`` with gaps between them.

    ``rim`` puts a gap around the outside too (a slide board's frame); ``left`` and
    ``top`` place the board in its widget. Widget offsets are whole cells; ``corner``
    also takes fractional rows and columns, for tiles drawn between cells mid-slide.
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
