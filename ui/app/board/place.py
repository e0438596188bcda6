"""Place controls on the board: an aim (by the cursor keys or the mouse) and a click.

A place mode's action is one place on the board (``Mode.place``): a cell, or a column.
The aimed cell (or every empty cell of the aimed column) is highlighted, and the mode's
judge's preview is written where the action would land. Moving the mouse over a cell
posts ``Aimed`` (the screen asks the judge); a click or tap on a cell posts ``Placed``.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual import events

from twofold.core._layout import Layout
from twofold.ui.app.board.canvas import Canvas
from twofold.ui.app.board.slide import swipe_direction
from twofold.ui.app.board.widget import Board, Cell, CellMessage, GameBoard
from twofold.ui.app.widgets.geometry import Geometry
from twofold.ui.app.widgets.tiles import tile_label


class PlaceBoard(GameBoard):
    """A place-mode board: the aimed place highlighted, a click or tap picks a place."""

    class Placed(CellMessage):
        """The player clicked or tapped a cell of the board."""

    class Aimed(CellMessage):
        """The mouse moved onto a cell of the board."""

    def __init__(
        self,
        board: Board,
        *,
        column: bool = False,
        layout: Layout | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(board, layout=layout, id=id, classes=classes)
        #: whether a place is a whole column (a drop) rather than one cell
        self.column = column
        #: the aimed cell (its column's top cell for a drop), shown once the keys move it
        self.aim: Cell | None = None
        #: where the judged action lands and what it shows there ("" when refused)
        self.preview: tuple[Cell, str] | None = None
        self._hovered: Cell | None = None

    def aim_at(self, cell: Cell | None, preview: tuple[Cell, str] | None = None) -> None:
        self.aim = cell
        self.preview = preview
        self.refresh()

    def marks(self) -> tuple[Any, ...]:
        return (self.aim, self.preview)

    def aimed_cells(self) -> list[Cell]:
        """The cells the aim covers: one cell, or the empty cells of a column."""
        if self.aim is None:
            return []
        if not self.column:
            return [self.aim]
        column = self.aim[1]
        return [(r, column) for r in range(self.rows) if not self.board[r][column]]

    def decorate(self, canvas: Canvas, geometry: Geometry) -> None:
        if self.aim is None or self.animating:
            return  # the aim is drawn once the board is still
        style: Style = self.get_component_rich_style("board--aim")
        width, height = geometry.tile_width, geometry.tile_height
        for r, c in self.aimed_cells():
            x, y = geometry.corner(r, c)
            if self.board[r][c]:
                # a tile under the aim keeps its number, framed by the aim's colour
                canvas.fill(int(x), int(y), width, 1, style)
                canvas.fill(int(x), int(y) + height - 1, width, 1, style)
            else:
                canvas.fill(int(x), int(y), width, height, style)
        if self.preview is not None:
            (r, c), text = self.preview
            x, y = geometry.corner(r, c)
            label = tile_label(int(text), width) if text.isdigit() else text[:width]
            canvas.text(
                int(x) + (width - len(label)) // 2, int(y) + (height - 1) // 2, label, style
            )

    # -- the mouse -------------------------------------------------------------------------

    def _cell_at(self, x: int, y: int) -> Cell | None:
        geometry = self.geometry
        return geometry.cell_at(x, y) if geometry is not None else None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        cell = self._cell_at(event.x, event.y)
        if cell is not None and cell != self._hovered and self._press is None:
            self._hovered = cell
            self.post_message(self.Aimed(cell))

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.press(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        travel = self.release(event)
        if travel is None or swipe_direction(*travel) is not None:
            return  # a drag is no place: only a click or a tap picks one
        cell = self._cell_at(event.x, event.y)
        if cell is not None:
            self.post_message(self.Placed(cell))
