"""The board of a place mode: the slide board's drawing, an aim, and a click on a place.

A place mode's action is one place on the board (``Mode.place``): a cell, or a column.
The board draws every cell, empty ones as a visible grid; the aimed cell (or every
empty cell of the aimed column) is highlighted, and the mode's judge's preview is
written where the action would land. A click (or tap) on a cell posts ``Placed``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from textual import events
from textual.message import Message

from twofold.ui.app.widgets.board import Board, Cell, SlideBoard, _Canvas, swipe_direction
from twofold.ui.app.widgets.geometry import Geometry
from twofold.ui.app.widgets.tiles import tile_label


class PlaceBoard(SlideBoard):
    """A place-mode board: the aimed place highlighted, a click or tap picks a place."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {*SlideBoard.COMPONENT_CLASSES, "board--aim"}
    DEFAULT_CSS = """
    PlaceBoard {
        width: 1fr;
        height: 1fr;
        min-height: 3;
    }
    PlaceBoard > .board--frame { background: $panel-darken-1; }
    PlaceBoard > .board--empty { background: $panel-lighten-1; }
    PlaceBoard > .board--message { color: $warning; text-style: bold; }
    PlaceBoard > .board--aim { background: $accent 40%; color: $foreground; text-style: bold; }
    """

    class Placed(Message):
        """The player clicked or tapped a cell of the board."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(
        self,
        board: Board,
        *,
        column: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(board, id=id, classes=classes)
        #: whether a place is a whole column (a drop) rather than one cell
        self.column = column
        #: the aimed cell (its column's top cell for a drop), shown once the keys move it
        self.aim: Cell | None = None
        #: where the judged action lands and what it shows there ("" when refused)
        self.preview: tuple[Cell, str] | None = None

    def aim_at(self, cell: Cell | None, preview: tuple[Cell, str] | None = None) -> None:
        self.aim = cell
        self.preview = preview
        self.refresh()

    def frame_key(self) -> tuple[Any, ...]:
        return (*super().frame_key(), self.aim, self.preview)

    def aimed_cells(self) -> list[Cell]:
        """The cells the aim covers: one cell, or the empty cells of a column."""
        if self.aim is None:
            return []
        if not self.column:
            return [self.aim]
        column = self.aim[1]
        return [(r, column) for r in range(len(self.board)) if not self.board[r][column]]

    def decorate(self, canvas: _Canvas, geometry: Geometry) -> None:
        if self.aim is None or self._motion is not None:
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

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        if self._press is None:
            return
        press_x, press_y = self._press
        self._press = None
        if swipe_direction(event.screen_x - press_x, event.screen_y - press_y) is not None:
            return  # a drag is no place: only a click or a tap picks one
        geometry = self.geometry
        cell = geometry.cell_at(event.x, event.y) if geometry is not None else None
        if cell is not None:
            self.post_message(self.Placed(cell))
