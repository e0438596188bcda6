"""The one board widget: every mode's tiles, its empty cells, its motion.

The whole board is painted line by line (``render_line``) from a frame that is rebuilt
only when the board, the size, the theme, the motion's progress or the marks of the
controls change; no widget is created per tile or per move. Empty cells are drawn as a
grid on the board's frame, so an empty board still shows its rows and columns. Each
kind of controls (``slide``, ``chain``, ``place``) is a small subclass that reads the
player's input and marks tiles (``look``), draws over them (``decorate``) or lays
characters over the lines (``overlay``); the drawing and the motion are all here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from twofold.core import palette
from twofold.core._i18n import _
from twofold.core._layout import Layout
from twofold.core._stones import stones_on
from twofold.ui.app.board.canvas import Canvas, fit_geometry, smallest_size
from twofold.ui.app.board.motion import Motion, Sprite, plan, still
from twofold.ui.app.board.overlay import Dot, lay_over
from twofold.ui.app.widgets.geometry import Geometry
from twofold.ui.app.widgets.tiles import tile_label, tile_style

Cell = tuple[int, int]
Board = Sequence[Sequence[int]]

#: the board's frame time while something moves
FRAME_SECONDS = 1 / 60
#: the board in light themes: the original game's taupe
LIGHT_FRAME = Style(bgcolor=palette.LIGHT_FRAME)
LIGHT_EMPTY = Style(bgcolor=palette.LIGHT_EMPTY)


@dataclass(frozen=True)
class Look:
    """How a resting tile is drawn: its style, a marker each side of its value, and
    whether its value is underlined (the last tile of a chain)."""

    style: Style
    left: str = " "
    right: str = " "
    underline: bool = False


class CellMessage(Message):
    """Something the player did to one cell of the board."""

    def __init__(self, cell: Cell) -> None:
        super().__init__()
        self.cell = cell


#: a stone: grey, grained, with no number (a stone is neither a tile nor empty)
STONE_STYLE = Style(color=palette.STONE_TEXT, bgcolor=palette.STONE_BACKGROUND)


@cache
def _rim(colour: Color | None, frame: Color | None) -> Style:
    """A tile's last line, ``▀`` in its colour: half a line of gap below it."""
    return Style(color=colour, bgcolor=frame)


@cache
def _underlined(style: Style) -> Style:
    return style + Style(underline=True)


class GameBoard(Widget):
    """A board of any mode: tiles by value, empty cells as a grid, animated actions."""

    ALLOW_MAXIMIZE = True
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--frame",
        "board--empty",
        "board--message",
        "board--aim",
    }
    DEFAULT_CSS = """
    GameBoard {
        width: 1fr;
        height: 1fr;
        min-height: 3;
    }
    GameBoard > .board--frame { background: $panel-darken-1; }
    GameBoard > .board--empty { background: $panel-lighten-1; }
    GameBoard > .board--message { color: $warning; text-style: bold; }
    GameBoard > .board--aim { background: $accent 40%; color: $foreground; text-style: bold; }
    """
    #: the fewest lines a tile may have on this board
    MIN_TILE_HEIGHT: ClassVar[int] = 1

    def __init__(
        self,
        board: Board,
        *,
        layout: Layout | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in board)
        #: the board's shape when it is not a rectangle (a hexagon): cells at their positions
        self.shape = layout if layout is not None and layout.shape != "rectangle" else None
        #: when False, actions are drawn where they end (reduced motion)
        self.animate_moves = True
        #: the time motion and flourishes are drawn at (tests freeze it)
        self.clock = time.monotonic
        self._motion: Motion | None = None
        self._started = 0.0
        self._progress = 1.0
        #: the board's one frame clock, running while anything moves (motion, a flourish)
        self._frame_timer: Timer | None = None
        self._frame_key: tuple[Any, ...] | None = None
        self._frame: list[Strip] = []
        self._dots: dict[int, list[Dot]] = {}
        self._press: tuple[int, int] | None = None

    # -- what the board shows -----------------------------------------------------------------

    @property
    def rows(self) -> int:
        return len(self.board)

    @property
    def cols(self) -> int:
        return len(self.board[0]) if self.board else 0

    @property
    def cells(self) -> tuple[Cell, ...]:
        """The board's cells: its layout's, or every place of its rows."""
        if self.shape is not None:
            return self.shape.cells
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))

    def is_cell(self, cell: Cell) -> bool:
        """Whether ``cell`` is a cell of the board (a place its layout leaves out is not)."""
        r, c = cell
        inside = 0 <= r < self.rows and 0 <= c < self.cols
        return inside and (self.shape is None or cell in self.shape)

    @property
    def drawn_size(self) -> tuple[int, int]:
        """The tiles the board is drawn high and wide (its layout's, else its rows')."""
        if self.shape is not None:
            return math.ceil(self.shape.height), math.ceil(self.shape.width)
        return self.rows, self.cols

    def palette(self, value: int) -> Style:
        """The style of a tile of ``value`` (tiles.py: the classic scheme)."""
        return tile_style(value)

    def show(self, board: Board) -> None:
        """Draw ``board`` at once, cutting short any motion."""
        self.finish_animation()
        self.board = tuple(tuple(row) for row in board)
        self.refresh()

    def play(self, before: Board, after: Board, events_: Iterable[Any]) -> None:
        """Animate an action from ``before`` to ``after`` by its events (or draw where it
        ends: reduced motion, or events that move nothing)."""
        self.finish_animation()
        self.board = tuple(tuple(row) for row in after)
        motion = plan(before, self.board, events_)
        if motion is None or motion.seconds <= 0 or not self.is_mounted or not self.moves_shown:
            self.refresh()
            return
        self._motion = motion
        self._started = self.clock()
        self._progress = 0.0
        self.keep_drawing()

    @property
    def moves_shown(self) -> bool:
        """Whether actions move: not under reduced motion, nor while Textual's animation level
        is "none" (``TEXTUAL_ANIMATIONS=none``, which may also be set while the app runs)."""
        return self.animate_moves and not (self.is_attached and self.app.animation_level == "none")

    @property
    def animating(self) -> bool:
        return self._motion is not None

    @property
    def motion(self) -> Motion | None:
        return self._motion

    @property
    def progress(self) -> float:
        """How far the running motion was at its last frame, 0 to 1 (1 when nothing moves)."""
        return self._progress if self._motion is not None else 1.0

    @progress.setter
    def progress(self, value: float) -> None:
        """Hold the running motion at ``value`` of its way (a test draws one frame of it)."""
        self._progress = min(1.0, max(0.0, value))
        self.refresh()

    def finish_animation(self) -> None:
        """Jump to the end of the running motion, if any (any input does this)."""
        if self._motion is not None:
            self._motion = None
            self._progress = 1.0
            self.refresh()
        if not self.moving(self.clock()):
            self._stop_clock()

    def keep_drawing(self) -> None:
        """Something began to move: draw a frame every FRAME_SECONDS until nothing does."""
        if self._frame_timer is None:
            self._frame_timer = self.set_interval(FRAME_SECONDS, self._tick)
        self.refresh()

    def moving(self, now: float) -> bool:
        """Whether anything still moves at ``now`` (the controls add their flourishes)."""
        return self._motion is not None

    def _stop_clock(self) -> None:
        if self._frame_timer is not None:
            self._frame_timer.stop()
            self._frame_timer = None

    def _tick(self) -> None:
        now = self.clock()
        if self._motion is not None:
            self._progress = min(1.0, (now - self._started) / self._motion.seconds)
            if self._progress >= 1.0:
                self._motion = None
                self._progress = 1.0
        if not self.moving(now):
            self._stop_clock()
        self.refresh()

    def on_key(self, event: events.Key) -> None:
        # any key ends the motion at once; the key itself goes on to its binding
        self.finish_animation()

    def press(self, event: events.MouseDown) -> None:
        """A button went down: the motion ends, and the drag is followed from here."""
        self.finish_animation()
        self._press = (event.screen_x, event.screen_y)
        self.capture_mouse()

    def release(self, event: events.MouseUp) -> tuple[int, int] | None:
        """The button came up: how far the drag went (columns, rows), None if not pressed."""
        self.release_mouse()
        if self._press is None:
            return None
        press_x, press_y = self._press
        self._press = None
        return event.screen_x - press_x, event.screen_y - press_y

    # -- where things are ---------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry | None:
        width, height = self.size
        return fit_geometry(
            *self.drawn_size, width, height, min_height=self.MIN_TILE_HEIGHT, layout=self.shape
        )

    def cell_offset(self, cell: Cell) -> tuple[int, int]:
        """Where to click to hit ``cell`` (tests and tutorials use it)."""
        geometry = self.geometry
        if geometry is None:
            raise ValueError("the board is not drawn")
        return geometry.centre(cell)

    # -- what the controls add -----------------------------------------------------------------

    def marks(self) -> tuple[Any, ...]:
        """What the controls' marks depend on (part of what the frame depends on)."""
        return ()

    def look(self, cell: Cell, value: int) -> Look:
        """How the resting tile at ``cell`` is drawn; the controls mark tiles here."""
        return Look(self.palette(value))

    def begin_frame(self, frame: Style) -> None:
        """A frame is about to be drawn on ``frame`` (what the marks share is worked out)."""

    def decorate(self, canvas: Canvas, geometry: Geometry) -> None:
        """Draw over the tiles (a place board's aim)."""

    def overlay(self, geometry: Geometry) -> dict[int, list[Dot]]:
        """Characters laid over the lines, by line (a chain's bubble, confetti)."""
        return {}

    # -- drawing ------------------------------------------------------------------------------

    def frame_key(self) -> tuple[Any, ...]:
        return (self.size, self.board, self._motion, self.progress, self.app.theme, self.marks())

    def render_lines(self, crop: Region) -> list[Strip]:
        geometry = self.geometry
        self._dots = self.overlay(geometry) if geometry is not None else {}
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        key = self.frame_key()
        if key != self._frame_key:
            self._frame = self._draw()
            self._frame_key = key
        line = self._frame[y] if 0 <= y < len(self._frame) else Strip.blank(self.size.width)
        dots = self._dots.get(y)
        return lay_over(line, dots, self.size.width) if dots else line

    def _draw(self) -> list[Strip]:
        width, height = self.size
        pad = self.rich_style
        geometry = self.geometry
        if geometry is None:
            return self._draw_too_small(width, height, pad)
        frame, empty = self._board_styles()
        self.begin_frame(frame)
        canvas = Canvas(geometry.width, geometry.height, frame if self.shape is None else pad)
        if self.shape is not None:
            # the frame follows the shape: a gap's width around each cell, nothing elsewhere
            for cell in self.cells:
                x, y = geometry.corner(*cell)
                canvas.fill(
                    round(x) - geometry.gap_x,
                    round(y) - geometry.gap_y,
                    geometry.tile_width + 2 * geometry.gap_x,
                    geometry.tile_height + 2 * geometry.gap_y,
                    frame,
                )
        for cell in self.cells:
            self._paint(canvas, geometry, cell, Look(empty), None, frame)
        # a stone never moves: drawn where it is, under any motion, never as a tile
        for cell in stones_on(self.board):
            self._paint(canvas, geometry, cell, Look(STONE_STYLE), None, frame)
            x, y = geometry.corner(*cell)
            rim = 1 if geometry.gap_y == 0 and geometry.tile_height >= 2 else 0
            grain = geometry.tile_height - rim
            canvas.fill(round(x), round(y), geometry.tile_width, grain, STONE_STYLE, "░")
        resting = self._motion is None
        sprites: list[Sprite] = (
            still(self.board) if resting else self._motion.frame(self.progress)  # type: ignore[union-attr]
        )
        for sprite in sprites:
            cell = (sprite.row, sprite.col)
            if resting:
                look = self.look((int(sprite.row), int(sprite.col)), sprite.value)
            else:
                look = Look(self.palette(sprite.value))
            self._paint(canvas, geometry, cell, look, sprite, frame, sprite.scale)
        self.decorate(canvas, geometry)
        lines = [Strip.blank(width, pad)] * geometry.top
        lines += canvas.strips(geometry.left, width, pad)
        lines += [Strip.blank(width, pad)] * (height - len(lines))
        return lines[:height]

    def _board_styles(self) -> tuple[Style, Style]:
        """The board's frame and empty cells: from CSS in dark themes, taupe in light ones."""
        if self.app.current_theme.dark:
            return (
                self.get_component_rich_style("board--frame"),
                self.get_component_rich_style("board--empty"),
            )
        # The theme's pale panels would match the palest tiles; the classic taupe does not.
        return LIGHT_FRAME, LIGHT_EMPTY

    def _paint(
        self,
        canvas: Canvas,
        geometry: Geometry,
        cell: tuple[float, float],
        look: Look,
        sprite: Sprite | None,
        frame: Style,
        scale: float = 1.0,
    ) -> None:
        """One tile (or, with no sprite, one empty cell) at ``cell``, ``scale`` of its size."""
        x, y = geometry.corner(*cell)
        width, height = geometry.tile_width, geometry.tile_height
        if scale < 1.0:
            # a tile growing in or shrinking away: a smaller box centred on its cell
            grown_w, grown_h = max(1, round(width * scale)), max(1, round(height * scale))
            x += (width - grown_w) / 2
            y += (height - grown_h) / 2
            width, height = grown_w, grown_h
        left, top = round(x), round(y)
        style = look.style
        canvas.fill(left, top, width, height, style)
        if geometry.gap_y == 0 and height >= 2 and scale >= 1.0:
            canvas.fill(left, top + height - 1, width, 1, _rim(style.bgcolor, frame.bgcolor), "▀")
        if sprite is None or (scale < 1.0 and width < 3):
            return
        line = top + (height - 1) // 2
        text = tile_label(sprite.value, max(1, width - 2))
        at = left + (width - len(text)) // 2
        canvas.text(at, line, text, _underlined(style) if look.underline else style)
        if look.left != " ":
            canvas.text(left, line, look.left, style)
        if look.right != " ":
            canvas.text(left + width - 1, line, look.right, style)

    def _max_key_that_fits(self) -> str:
        """The key of Max when the board alone would fit the screen, else ""."""
        screen = self.screen
        if screen.maximized is self:
            return ""
        for key, (_node, binding, enabled, *_rest) in screen.active_bindings.items():
            if binding.action.removeprefix("screen.") != "maximize_board" or not enabled:
                continue
            need_w, need_h = smallest_size(*self.drawn_size, min_height=self.MIN_TILE_HEIGHT)
            # the footer stays under a maximised board
            footers = [w.outer_size.height for w in screen.query("Footer") if w.display]
            screen_w, screen_h = screen.size
            if need_w <= screen_w and need_h <= screen_h - sum(footers):
                return self.app.get_key_display(binding) or key
        return ""

    def _draw_too_small(self, width: int, height: int, pad: Style) -> list[Strip]:
        need_w, need_h = smallest_size(*self.drawn_size, min_height=self.MIN_TILE_HEIGHT)
        # what the rest of the screen takes stays; the board's share must grow
        screen_w, screen_h = self.screen.size
        need_w += max(0, screen_w - width)
        need_h += max(0, screen_h - height)
        message = _("Terminal too small for this board: make it at least {w}x{h}.").format(
            w=max(need_w, screen_w), h=max(need_h, screen_h)
        )
        max_key = self._max_key_that_fits()
        if max_key:
            message += " " + _("Or press {key} (Max) to show the board alone.").format(key=max_key)
        style = pad + self.get_component_rich_style("board--message")
        words, lines, line = message.split(), [], ""
        for word in words:
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        top = max(0, (height - len(lines)) // 2)
        strips = [Strip.blank(width, pad)] * top
        for text in lines[: max(0, height - top)]:
            text = text[:width]
            left = (width - len(text)) // 2
            strips.append(
                Strip(
                    [
                        Segment(" " * left, pad),
                        Segment(text, style),
                        Segment(" " * (width - left - len(text)), pad),
                    ],
                    width,
                )
            )
        strips += [Strip.blank(width, pad)] * (height - len(strips))
        return strips[:height]
