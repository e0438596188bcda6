"""The 2248 board: one line-API widget that draws the tiles and turns clicks, drags and
keys into chains.

The board knows how a chain is *drawn* (start, add, take back, cancel, merge) but not
which tiles may join: it asks a :class:`ChainJudge`, which asks the rules. What to do
with a finished chain is the screen's business: the board calls ``on_merge`` (or posts
:class:`ChainBoard.Merge` when nobody set it).
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Sequence
from functools import cache
from typing import Protocol

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from twofold.core.i18n import _
from twofold.core.rules import Board
from twofold.ui.app.chain.animation import DURATION, Motion, Sprite, still
from twofold.ui.app.chain.flourish import Burst, Flourishes, lay_over
from twofold.ui.app.widgets.geometry import Geometry
from twofold.ui.app.widgets.tiles import dimmed, text_colour
from twofold.ui.app.widgets.tiles import tile_label as label
from twofold.ui.app.widgets.tiles import vivid_colour as tile_colour

Cell = tuple[int, int]
Chain = tuple[Cell, ...]

MIN_TILE_WIDTH = 5
MIN_TILE_HEIGHT = 2
#: how long a refused tile flashes, in seconds
FLASH_SECONDS = 0.4
FRAME_SECONDS = 1 / 30
#: the hint lights one more tile of its path this often
TRACE_SECONDS = 0.08


class ChainJudge(Protocol):
    """What the board asks the rules while a chain is drawn."""

    def fits(self, board: Board, chain: Chain, cell: Cell) -> bool:
        """Whether ``cell`` may be added to the end of ``chain``."""
        ...

    def value(self, board: Board, chain: Chain) -> int:
        """The tile ``chain`` would make (0 while it is shorter than two)."""
        ...


@cache
def _rim_style(colour: Color) -> Style:
    return Style(color=colour)


@cache
def _face_style(colour: Color) -> Style:
    return Style(color=text_colour(colour), bgcolor=colour, bold=True)


def fit_geometry(size: Size, rows: int, cols: int) -> Geometry | None:
    """The largest tiles that fit ``size``, or None if even the smallest do not."""
    if rows <= 0 or cols <= 0:
        return None
    height = size.height // rows
    widest = (size.width - (cols - 1)) // cols
    # a tile looks square when it is about twice as wide as it is tall
    height = min(height, (widest + 1) // 4) if widest >= 7 else height
    if height < MIN_TILE_HEIGHT or widest < MIN_TILE_WIDTH:
        return None
    width = max(MIN_TILE_WIDTH, min(widest, 4 * height - 1))
    gap = 1 if height <= 3 else 2
    if cols * width + (cols - 1) * gap > size.width:
        gap = 1
    total_w = cols * width + (cols - 1) * gap
    return Geometry(
        rows,
        cols,
        width,
        height,
        gap,
        0,
        left=(size.width - total_w) // 2,
        top=(size.height - rows * height) // 2,
        rim=False,
    )


class ChainBoard(Flourishes, Widget, can_focus=True):
    """Draws the board and the chain being drawn; turns input into chain messages."""

    DEFAULT_CSS = """
    ChainBoard {
        width: 1fr;
        height: 1fr;
        background: $background;
    }
    ChainBoard:focus {
        background-tint: $foreground 0%;
    }
    """

    class ChainChanged(Message):
        """The chain being drawn changed (started, grew, shrank or was cancelled)."""

        def __init__(self, chain: Chain) -> None:
            super().__init__()
            self.chain = chain

    class Merge(Message):
        """The player finished a chain: merge it."""

        def __init__(self, chain: Chain) -> None:
            super().__init__()
            self.chain = chain

    class Refused(Message):
        """A tile that does not fit the chain was not added."""

        def __init__(self, chain: Chain, cell: Cell) -> None:
            super().__init__()
            self.chain = chain
            self.cell = cell

    class Picked(Message):
        """A tile was picked while a power-up is armed."""

        def __init__(self, cell: Cell) -> None:
            super().__init__()
            self.cell = cell

    def __init__(
        self,
        board: Board,
        judge: ChainJudge,
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.board: Board = board
        self.judge = judge
        self.chain: list[Cell] = []
        self.cursor: Cell = (len(board) - 1, 0)
        self.cursor_shown = False
        self.hint: Chain = ()
        #: how many of the hint's tiles are lit (the hint traces its path)
        self.hint_shown = 0
        self._trace_timer: Timer | None = None
        #: the power-up waiting for a tile, or None: taps pick instead of drawing
        self.picking: str | None = None
        self.picks: list[Cell] = []
        self.flash_cell: Cell | None = None
        self._flash_timer: Timer | None = None
        self._motion: Motion | None = None
        self._motion_start = 0.0
        self._motion_length = DURATION
        self._motion_timer: Timer | None = None
        self._pressed = False
        self._press_cell: Cell | None = None
        self._started_here = False
        self._dragged = False
        self._last_refused: Cell | None = None
        #: no shake and no confetti (the screen keeps it in step with the settings)
        self.reduced_motion = False
        #: the time the bubble's shake and the confetti are drawn at (tests freeze it)
        self.clock = time.monotonic
        self._shake_start: float | None = None
        self._burst: Burst | None = None
        self._flourish_timer: Timer | None = None
        #: called with a finished chain, in place of posting :class:`Merge` (the screen's)
        self.on_merge: Callable[[Chain], None] | None = None

    # -- what the board shows ----------------------------------------------------------------

    @property
    def rows(self) -> int:
        return len(self.board)

    @property
    def cols(self) -> int:
        return len(self.board[0]) if self.board else 0

    @property
    def geometry(self) -> Geometry | None:
        return fit_geometry(self.size, self.rows, self.cols)

    @property
    def animating(self) -> bool:
        return self._motion is not None

    @property
    def chain_value(self) -> int:
        return self.judge.value(self.board, tuple(self.chain)) if len(self.chain) >= 2 else 0

    def show(self, board: Board, motion: Motion | None = None, *, animate: bool = True) -> None:
        """Show a new board, moving to it with ``motion`` unless animations are off."""
        self.finish_animation()
        self.board = board
        self.chain.clear()
        self.hint = ()
        self.picks.clear()
        r, c = self.cursor
        self.cursor = (min(r, self.rows - 1), min(c, self.cols - 1))
        if motion is not None and animate:
            self._motion = motion
            self._motion_length = motion.duration
            self._motion_start = time.monotonic()
            self._motion_timer = self.set_interval(FRAME_SECONDS, self._next_frame)
        self.refresh()

    def _next_frame(self) -> None:
        if time.monotonic() - self._motion_start >= self._motion_length:
            self.finish_animation()
        else:
            self.refresh()

    def finish_animation(self) -> None:
        """Draw the board where it ends, at once (any input does this)."""
        if self._motion_timer is not None:
            self._motion_timer.stop()
            self._motion_timer = None
        if self._motion is not None:
            self._motion = None
            self.refresh()

    def show_hint(self, chain: Sequence[Cell], *, trace: bool = True) -> None:
        """Mark the hint's tiles; ``trace`` lights them one by one, in the chain's order."""
        self.hint = tuple(chain)
        if self._trace_timer is not None:
            self._trace_timer.stop()
            self._trace_timer = None
        self.hint_shown = 1 if trace else len(self.hint)
        if self.hint_shown < len(self.hint):
            self._trace_timer = self.set_interval(TRACE_SECONDS, self._trace)
        self.refresh()

    def _trace(self) -> None:
        self.hint_shown += 1
        if self.hint_shown >= len(self.hint) and self._trace_timer is not None:
            self._trace_timer.stop()
            self._trace_timer = None
        self.refresh()

    def flash(self, cell: Cell) -> None:
        """Flash a tile that was refused."""
        self.flash_cell = cell
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash_timer = self.set_timer(FLASH_SECONDS, self._end_flash)
        self._shake()
        self.refresh()

    def _end_flash(self) -> None:
        self.flash_cell = None
        self._flash_timer = None
        self.refresh()

    # -- drawing a chain ------------------------------------------------------------------

    def _changed(self) -> None:
        self.hint = ()
        self.refresh()
        self.post_message(self.ChainChanged(tuple(self.chain)))

    def start(self, cell: Cell) -> None:
        self.chain = [cell]
        self._changed()

    def add(self, cell: Cell) -> bool:
        """Add ``cell`` if the rules let it join; flash it and say so if not."""
        if not self.chain:
            self.start(cell)
            return True
        if self.judge.fits(self.board, tuple(self.chain), cell):
            self.chain.append(cell)
            self._last_refused = None
            self._changed()
            return True
        self.flash(cell)
        self.post_message(self.Refused(tuple(self.chain), cell))
        return False

    def remove_last(self) -> None:
        if self.chain:
            self.chain.pop()
            self._changed()

    def cancel(self) -> None:
        if self.chain:
            self.chain.clear()
            self._changed()

    def merge(self) -> None:
        if len(self.chain) < 2:
            return
        chain = tuple(self.chain)
        if self.on_merge is not None:
            # at once, not through the message queue: a chain the player starts a moment
            # later (a burst of keys, a quick press) must meet the merged board (SPEC 5)
            self.on_merge(chain)
        else:
            self.post_message(self.Merge(chain))

    def tap(self, cell: Cell) -> None:
        """A click (or Space/Enter) on a cell while a chain may be in progress."""
        chain = self.chain
        if not chain:
            self.start(cell)
        elif len(chain) >= 2 and cell == chain[-1]:
            self.merge()
        elif cell == chain[0]:
            self.cancel()
        elif len(chain) >= 2 and cell == chain[-2]:
            self.remove_last()
        elif cell not in chain:
            self.add(cell)

    # -- keyboard -------------------------------------------------------------------------

    def move_cursor(self, d_row: int, d_col: int) -> None:
        self.finish_animation()
        if self.cursor_shown:
            r, c = self.cursor
            self.cursor = (
                max(0, min(self.rows - 1, r + d_row)),
                max(0, min(self.cols - 1, c + d_col)),
            )
        self.cursor_shown = True
        self.refresh()

    def press_cursor(self, *, enter: bool) -> None:
        """Space (``enter=False``) or Enter on the cell under the cursor."""
        self.finish_animation()
        if not self.cursor_shown:
            self.cursor_shown = True
            self.refresh()
            return
        cell = self.cursor
        if self.picking is not None:
            self.post_message(self.Picked(cell))
        elif self.chain and cell == self.chain[-1] and len(self.chain) >= 2:
            if enter:
                self.merge()
        else:
            self.tap(cell)

    def on_key(self, event: events.Key) -> None:
        # any key ends the animation at once; the key itself goes on to its binding
        self.finish_animation()

    # -- mouse --------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.finish_animation()
        geometry = self.geometry
        if event.button == 3:
            # the right button drops whatever is being drawn
            self.cancel()
            return
        if geometry is None or event.button not in (0, 1):
            return
        cell = geometry.cell_at(event.x, event.y)
        self.focus()
        self.cursor_shown = False
        self._pressed = True
        self._press_cell = cell
        self._dragged = False
        self._started_here = False
        self._last_refused = None
        self.capture_mouse()
        if cell is not None:
            self.cursor = cell
        if cell is None or self.picking is not None:
            self.refresh()
            return
        if not self.chain:
            self.start(cell)
            self._started_here = True
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        geometry = self.geometry
        if not self._pressed or geometry is None or self.picking is not None or not self.chain:
            return
        if not (self._started_here or self._press_cell == self.chain[-1]):
            return
        cell = geometry.cell_at(event.x, event.y, core=True)
        if cell is None or cell == self.chain[-1]:
            return
        if len(self.chain) >= 2 and cell == self.chain[-2]:
            self._dragged = True
            self.remove_last()
        elif cell not in self.chain and cell != self._last_refused:
            self._dragged = True
            if not self.add(cell):
                self._last_refused = cell

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        if not self._pressed:
            return
        self._pressed = False
        geometry = self.geometry
        cell = geometry.cell_at(event.x, event.y) if geometry is not None else None
        if self.picking is not None:
            if cell is not None and cell == self._press_cell:
                self.post_message(self.Picked(cell))
            return
        if self._dragged:
            if len(self.chain) >= 2:
                self.merge()
            else:
                self.cancel()
            return
        if self._started_here or cell is None or cell != self._press_cell:
            return
        self.tap(cell)

    # -- rendering ------------------------------------------------------------------------

    def _sprites(self) -> list[Sprite]:
        if self._motion is None:
            return still(self.board)
        t = (time.monotonic() - self._motion_start) / self._motion_length
        return self._motion.frame(min(1.0, t))

    def render_lines(self, crop: Region) -> list[Strip]:
        # what every line of this refresh shares: the sprites and the chain's colours
        self._frame = self._by_column(self._sprites())
        self._chain_colour = tile_colour(self.chain_value) if len(self.chain) >= 2 else None
        self._candidates = self._open_cells()
        self._base = self.rich_style
        geometry = self.geometry
        self._dots = self._flourish(geometry) if geometry is not None else {}
        return super().render_lines(crop)

    def _by_column(self, sprites: list[Sprite]) -> list[list[Sprite]]:
        columns: list[list[Sprite]] = [[] for _ in range(self.cols)]
        for sprite in sprites:
            if 0 <= sprite.col < self.cols:
                columns[sprite.col].append(sprite)
        return columns

    def _open_cells(self) -> frozenset[Cell]:
        """While a chain is drawn, the touching cells that may join it (the rest is dimmed)."""
        if not self.chain or self.picking is not None or self._motion is not None:
            return frozenset()
        last, chain = self.chain[-1], tuple(self.chain)
        return frozenset(
            (r, c)
            for r in range(last[0] - 1, last[0] + 2)
            for c in range(last[1] - 1, last[1] + 2)
            if 0 <= r < self.rows
            and 0 <= c < self.cols
            and (r, c) not in self.chain
            and self.judge.fits(self.board, chain, (r, c))
        )

    def render_line(self, y: int) -> Strip:
        # unstyled cells take the board's own background (not the terminal's)
        line = self._line(y).apply_style(getattr(self, "_base", None) or self.rich_style)
        dots = getattr(self, "_dots", {}).get(y)
        return lay_over(line, dots, self.size.width) if dots else line

    def _line(self, y: int) -> Strip:
        width = self.size.width
        geometry = self.geometry
        if geometry is None:
            return self._message_line(y)
        ly = y - geometry.top
        if ly < 0 or ly >= geometry.height:
            return Strip.blank(width)
        if not hasattr(self, "_frame"):
            self._frame = self._by_column(self._sprites())
            self._chain_colour = None
            self._candidates = frozenset()
            self._base = self.rich_style
        segments: list[Segment] = [Segment(" " * geometry.left)]
        for col in range(geometry.cols):
            if col:
                segments.append(Segment(" " * geometry.gap_x))
            segments.extend(self._tile_segments(geometry, self._frame[col], col, ly))
        return Strip(segments).adjust_cell_length(width)

    def _tile_colour(self, cell: Cell, value: int) -> Color:
        if self._motion is not None:
            return tile_colour(value)
        if cell == self.flash_cell:
            return tile_colour(0)
        if cell in self.chain:
            return self._chain_colour or tile_colour(value)
        if self.chain and cell not in self._candidates:
            return dimmed(tile_colour(value), self._base.bgcolor)
        if not self.chain and self.hint and cell not in self.hint[: self.hint_shown]:
            return dimmed(tile_colour(value), self._base.bgcolor)
        return tile_colour(value)

    def _tile_segments(
        self, geometry: Geometry, sprites: list[Sprite], col: int, ly: int
    ) -> list[Segment]:
        h, w = geometry.tile_height, geometry.tile_width
        for sprite in sprites:
            top = round(sprite.row * h)
            if top <= ly < top + h:
                break
        else:
            return [Segment(" " * w)]
        line = ly - top
        resting = self._motion is None
        cell = (round(sprite.row), col)
        background = self._tile_colour(cell, sprite.value)
        if line == h - 1:
            # the bottom half-line of a tile leaves a thin gap before the next row
            return [Segment("▀" * w, _rim_style(background))]
        style = _face_style(background)
        if line != geometry.value_line:
            return [Segment(" " * w, style)]
        left, right = self._markers(cell) if resting else (" ", " ")
        if resting and cell == self.flash_cell:
            style = style + Style(color="#ff5f5f")
        text = label(sprite.value, w - 2).center(w - 2)
        if resting and self.chain and cell == self.chain[-1]:
            return [
                Segment(left, style),
                Segment(text, style + Style(underline=True)),
                Segment(right, style),
            ]
        return [Segment(left + text + right, style)]

    def _markers(self, cell: Cell) -> tuple[str, str]:
        if self.cursor_shown and cell == self.cursor:
            return "▸", "◂"
        if cell == self.flash_cell:
            return "✗", "✗"
        if cell in self.picks:
            return "◆", "◆"
        if cell in self.chain:
            return "•", "•"
        if cell in self.hint[: self.hint_shown]:
            return ("▶", "◇") if cell == self.hint[0] else ("◇", "◇")
        return " ", " "

    def _message_line(self, y: int) -> Strip:
        sentences = [
            _("The terminal is too small for the board."),
            _("Make it larger: the board needs {width}×{height} cells.").format(
                width=self.cols * MIN_TILE_WIDTH + self.cols - 1,
                height=self.rows * MIN_TILE_HEIGHT,
            ),
        ]
        # the whole sentence, wrapped to the width there is (never cut off mid-word)
        room = max(1, self.size.width)
        lines = [line for sentence in sentences for line in textwrap.wrap(sentence, room)]
        top = max(0, (self.size.height - len(lines)) // 2)
        if top <= y < top + len(lines):
            text = lines[y - top][: self.size.width].center(self.size.width)
            return Strip([Segment(text, Style(bold=True))])
        return Strip.blank(self.size.width)

    def cell_offset(self, cell: Cell) -> tuple[int, int]:
        """Where to click to hit ``cell`` (tests and tutorials use it)."""
        geometry = self.geometry
        if geometry is None:
            raise ValueError("the board is not drawn")
        return geometry.centre(cell)
