"""A bar that fits its width: its items on one line when they fit, else wrapped in rows.

The top bar, the Footer and the power-up row each lay their items out left to right, and
a narrow terminal used to cut the last ones off ("r Rea", "U Undo ×"). Here a bar whose
items do not fit becomes a grid of as many columns as fit, one line a row, so every item
shows whole at every size the screen accepts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from textual.widget import Widget


def column_widths(widths: Sequence[int], columns: int) -> list[int]:
    """The width of each column of a grid of items of ``widths``, laid out row by row."""
    return [max(widths[start::columns]) for start in range(columns)]


def columns_that_fit(widths: Sequence[int], room: int, gap: int = 0) -> int:
    """The most columns a grid of items of ``widths`` (laid out row by row) fits in ``room``."""
    for columns in range(len(widths), 1, -1):
        if sum(column_widths(widths, columns)) + gap * (columns - 1) <= room:
            return columns
    return 1


def wrap(
    bar: Widget, widths: Sequence[int], room: int, *, gap: int = 0, title: int | None = None
) -> int:
    """Lay out ``bar``'s items (of ``widths``, margins included, in order) on one line, or
    in a grid of rows.

    ``title``: the width of a first item that, wrapped, takes a line of its own above the
    others (its column span is set here). Returns the columns of the grid, 0 for one line.
    Styles change only when the layout does: a bar refitted after every move is left alone
    while its items still fit as they are.
    """
    count = len(widths)
    heading = [] if title is None else [title]
    line = sum(heading) + sum(widths) + gap * (len(heading) + count - 1)
    if not count or line <= room:
        layout, columns, rows = "horizontal", 0, 1
    else:
        layout = "grid"
        columns = columns_that_fit(widths, room, gap)
        rows = len(heading) + math.ceil(count / columns)
    styles = bar.styles
    if styles.layout is None or styles.layout.name != layout:
        styles.layout = layout
    if layout == "grid":
        if styles.grid_size_columns != columns:
            styles.grid_size_columns = columns
        if styles.grid_gutter_vertical != gap:
            styles.grid_gutter_vertical = gap
        # each column as wide as its widest item, margins included (an "auto" column
        # leaves the margin out, and cuts the item by as much)
        sizes = " ".join(str(width) for width in column_widths(widths, columns))
        if str(styles.grid_columns) != sizes:
            styles.grid_columns = sizes
        styles.grid_rows = "1"
    if styles.height is None or styles.height.value != rows:
        styles.height = rows
    bar.set_class(layout == "grid", "-wrapped")
    if title is not None and bar.children:
        span = max(1, columns)
        if bar.children[0].styles.column_span != span:
            bar.children[0].styles.column_span = span
    return columns
