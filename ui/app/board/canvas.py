"""Where a board's tiles sit in its widget (one fit for every mode), and the grid of
characters a frame is painted on before it becomes the widget's lines."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from twofold.core._layout import Layout
from twofold.ui.app.widgets.geometry import Geometry

#: the tallest tiles a board grows to, in lines
TALLEST = 9


def _layouts(min_height: int) -> list[tuple[int, int, int, int]]:
    """Tile height, tile width, gap between rows and gap between columns, most roomy first.

    Full gaps come first at every height; then tiles of two lines and more with half a
    line between rows (each tile's last line is drawn ``▀``); then narrow tiles a column
    apart, so a small terminal (or a phone's) still gets the board; tiles of one line last.
    """
    full = [(h, 2 * h + 4, 1, 2) for h in range(TALLEST, 1, -1)]
    half = [(h, 2 * h + 4, 0, 2) for h in range(TALLEST, 1, -1)]
    narrow = [(2, 6, 0, 1), (2, 5, 0, 1), (1, 6, 0, 1), (1, 5, 0, 1)]
    return [layout for layout in [*full, *half, *narrow] if layout[0] >= min_height]


def fit_geometry(
    rows: int,
    cols: int,
    width: int,
    height: int,
    *,
    min_height: int = 1,
    layout: Layout | None = None,
) -> Geometry | None:
    """The largest tiles that fit ``width`` x ``height`` cells, centred; None if none fit.
    With a ``layout``, ``rows`` and ``cols`` are the tiles it is drawn high and wide."""
    if rows <= 0 or cols <= 0:
        return None
    for tile_height, tile_width, gap_y, gap_x in _layouts(min_height):
        geometry = Geometry(rows, cols, tile_width, tile_height, gap_x, gap_y)
        if geometry.width <= width and geometry.height <= height:
            return Geometry(
                rows,
                cols,
                tile_width,
                tile_height,
                gap_x,
                gap_y,
                left=(width - geometry.width) // 2,
                top=(height - geometry.height) // 2,
                layout=layout,
            )
    return None


def smallest_size(rows: int, cols: int, *, min_height: int = 1) -> tuple[int, int]:
    """The fewest (columns, rows) of terminal a board needs."""
    tile_height, tile_width, gap_y, gap_x = _layouts(min_height)[-1]
    smallest = Geometry(rows, cols, tile_width, tile_height, gap_x, gap_y)
    return smallest.width, smallest.height


class Canvas:
    """A small grid of characters and styles, turned into strips."""

    def __init__(self, width: int, height: int, style: Style) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[style] * width for _ in range(height)]

    def fill(self, x: int, y: int, width: int, height: int, style: Style, char: str = " ") -> None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + width), min(self.height, y + height)
        for row in range(y0, y1):
            chars, styles = self.chars[row], self.styles[row]
            for col in range(x0, x1):
                chars[col] = char
                styles[col] = style

    def text(self, x: int, y: int, text: str, style: Style) -> None:
        if not 0 <= y < self.height:
            return
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                self.chars[y][x + i] = ch
                self.styles[y][x + i] = style

    def strips(self, left: int, total_width: int, pad: Style) -> list[Strip]:
        strips = []
        right = max(0, total_width - left - self.width)
        for chars, styles in zip(self.chars, self.styles, strict=True):
            segments = [Segment(" " * left, pad)] if left else []
            start = 0
            for col in range(1, self.width + 1):
                if col == self.width or styles[col] is not styles[start]:
                    segments.append(Segment("".join(chars[start:col]), styles[start]))
                    start = col
            if right:
                segments.append(Segment(" " * right, pad))
            strips.append(Strip(segments, total_width))
        return strips
