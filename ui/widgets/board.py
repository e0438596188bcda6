"""The board of a slide mode, drawn as one widget, with its slide and spawn animation.

The whole board is painted line by line (``render_line``) from a frame that is
rebuilt only when the board, the size, the theme or the animation's progress
changes; no widget is created per tile or per move.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget

from twofold.core.events import Fell, Moved, Removed
from twofold.core.i18n import _
from twofold.ui.widgets.geometry import Geometry
from twofold.ui.widgets.tiles import tile_label, tile_style

Cell = tuple[int, int]
Board = Sequence[Sequence[int]]

#: seconds tiles take to slide, then seconds new tiles take to grow in
SLIDE_SECONDS = 0.1
GROW_SECONDS = 0.1
#: a drag counts as a swipe past this many columns or rows of travel
SWIPE_COLUMNS = 3
SWIPE_ROWS = 2
#: the board in light themes: the original game's taupe
LIGHT_FRAME = Style(bgcolor="#bbada0")
LIGHT_EMPTY = Style(bgcolor="#cdc1b4")


def swipe_direction(dx: int, dy: int) -> str | None:
    """The direction of a drag, or None when it travelled too little to be a swipe.

    Terminal columns are about half as tall as rows are wide, so a column of travel
    weighs half a row.
    """
    if abs(dx) < SWIPE_COLUMNS and abs(dy) < SWIPE_ROWS:
        return None
    if abs(dx) / 2 >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


def fit_geometry(rows: int, cols: int, width: int, height: int) -> Geometry | None:
    """The largest tiles that fit ``width`` x ``height`` cells, centred; None if none fit."""
    for tile_height in range(9, 0, -1):
        tile_width = 2 * tile_height + 4
        gap_y = 0 if tile_height == 1 else 1
        gap_x = 1 if tile_height == 1 else 2
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
            )
    return None


def smallest_size(rows: int, cols: int) -> tuple[int, int]:
    """The fewest (columns, rows) of terminal a board needs."""
    smallest = Geometry(rows, cols, 6, 1, 1, 0)
    return smallest.width, smallest.height


# -- reading slide events -------------------------------------------------------------------


def _as_cell(value: Any) -> Cell | None:
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return int(value[0]), int(value[1])
    return None


def slide_paths(events_: Iterable[Any]) -> list[tuple[Cell, Cell]]:
    """Every (from cell, to cell) of a move: its ``moved`` and ``fell`` events (core
    vocabulary); the board's new tiles (``appeared``, ``merged``) grow in where they are.

    Events of other kinds, and moves whose cells are not cells, are skipped.
    """
    paths: list[tuple[Cell, Cell]] = []
    for event in events_:
        if not isinstance(event, Moved | Fell):
            continue
        source, target = _as_cell(event.source), _as_cell(event.target)
        if source is not None and target is not None:
            paths.append((source, target))
    return paths


def removed_cells(events_: Iterable[Any]) -> frozenset[Cell]:
    """The cells whose tiles left the board (``removed``: retired, hammered...)."""
    found: set[Cell] = set()
    for event in events_:
        if isinstance(event, Removed):
            found.update(cell for cell in map(_as_cell, event.cells) if cell is not None)
    return frozenset(found)


@dataclass(frozen=True)
class _Motion:
    """One move's animation: tiles gliding (removed ones shrinking away), then new tiles
    (appeared, merged, refilled) growing in."""

    glides: tuple[tuple[int, Cell, Cell], ...]  # value, from, to
    spawns: frozenset[Cell]
    started: float
    vanishing: frozenset[Cell] = frozenset()


def plan_motion(
    before: Board,
    after: Board,
    paths: list[tuple[Cell, Cell]],
    removed: frozenset[Cell] = frozenset(),
) -> _Motion | None:
    """The animation from ``before`` to ``after``, or None when the events say nothing."""
    if not paths and not removed:
        return None
    moved = {source for source, _ in paths}
    glides: list[tuple[int, Cell, Cell]] = []
    landed: set[Cell] = set()
    for source, target in paths:
        r, c = source
        if r < len(before) and c < len(before[r]) and before[r][c]:
            glides.append((before[r][c], source, target))
            landed.add(target)
    for r, row in enumerate(before):
        for c, value in enumerate(row):
            if value and (r, c) not in moved:
                glides.append((value, (r, c), (r, c)))
                landed.add((r, c))
    spawns = frozenset(
        (r, c)
        for r, row in enumerate(after)
        for c, value in enumerate(row)
        if value and ((r, c) not in landed or (r, c) in removed)
    )
    return _Motion(tuple(glides), spawns, time.monotonic(), removed)


def _ease_out(t: float) -> float:
    return 1 - (1 - t) ** 3


class _Canvas:
    """A small grid of characters and styles, turned into strips."""

    def __init__(self, width: int, height: int, style: Style) -> None:
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[style] * width for _ in range(height)]

    def fill(self, x: int, y: int, width: int, height: int, style: Style) -> None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + width), min(self.height, y + height)
        for row in range(y0, y1):
            chars, styles = self.chars[row], self.styles[row]
            for col in range(x0, x1):
                chars[col] = " "
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


class SlideBoard(Widget):
    """A slide-mode board: tiles by value, animated moves, drags read as swipes."""

    ALLOW_MAXIMIZE = True
    COMPONENT_CLASSES: ClassVar[set[str]] = {"board--frame", "board--empty", "board--message"}
    DEFAULT_CSS = """
    SlideBoard {
        width: 1fr;
        height: 1fr;
        min-height: 3;
    }
    SlideBoard > .board--frame { background: $panel-darken-1; }
    SlideBoard > .board--empty { background: $panel-lighten-1; }
    SlideBoard > .board--message { color: $warning; text-style: bold; }
    """

    class Swiped(Message):
        """The player dragged across the board in a direction."""

        def __init__(self, direction: str) -> None:
            super().__init__()
            self.direction = direction

    def __init__(self, board: Board, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.board: tuple[tuple[int, ...], ...] = tuple(tuple(row) for row in board)
        #: when False, moves are drawn where they end (reduced motion)
        self.animate_moves = True
        self._motion: _Motion | None = None
        self._progress = 1.0
        self._motion_timer: Timer | None = None
        self._frame_key: tuple[Any, ...] | None = None
        self._frame: list[Strip] = []
        self._press: tuple[int, int] | None = None

    # -- what to draw ---------------------------------------------------------------------

    def show(self, board: Board) -> None:
        """Draw ``board`` at once, cutting short any animation."""
        self.finish_animation()
        self.board = tuple(tuple(row) for row in board)
        self.refresh()

    def play(self, before: Board, after: Board, events_: Iterable[Any]) -> None:
        """Animate a move from ``before`` to ``after`` (or draw it at once, reduced motion)."""
        self.finish_animation()
        self.board = tuple(tuple(row) for row in after)
        events_ = tuple(events_)
        motion = plan_motion(before, self.board, slide_paths(events_), removed_cells(events_))
        if motion is None or not self.animate_moves or not self.is_mounted:
            self.refresh()
            return
        self._motion = motion
        self._progress = 0.0
        self._motion_timer = self.set_interval(1 / 60, self._tick)
        self.refresh()

    @property
    def animating(self) -> bool:
        return self._motion is not None

    @property
    def progress(self) -> float:
        """How far the running animation is, from 0 to 1 (1: at rest)."""
        return self._progress

    @progress.setter
    def progress(self, value: float) -> None:
        """Hold the animation at ``value`` of its way (a test draws one frame of it)."""
        self._progress = min(1.0, max(0.0, value))

    def finish_animation(self) -> None:
        """Jump to the end of the running animation, if any."""
        if self._motion_timer is not None:
            self._motion_timer.stop()
            self._motion_timer = None
        if self._motion is not None:
            self._motion = None
            self._progress = 1.0
            self.refresh()

    def _tick(self) -> None:
        if self._motion is None:
            return
        elapsed = time.monotonic() - self._motion.started
        self._progress = min(1.0, elapsed / (SLIDE_SECONDS + GROW_SECONDS))
        if self._progress >= 1.0:
            self.finish_animation()
        else:
            self.refresh()

    # -- drawing ---------------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry | None:
        rows = len(self.board)
        cols = len(self.board[0]) if rows else 0
        return fit_geometry(rows, cols, self.size.width, self.size.height)

    def frame_key(self) -> tuple[Any, ...]:
        """What the drawn frame depends on; a board that draws more adds to it."""
        return (self.size, self.board, self._motion, self._progress, self.app.theme)

    def decorate(self, canvas: _Canvas, geometry: Geometry) -> None:
        """Draw over the tiles (a place board's aim); the slide board draws nothing more."""

    def render_line(self, y: int) -> Strip:
        key = self.frame_key()
        if key != self._frame_key:
            self._frame = self._draw()
            self._frame_key = key
        if 0 <= y < len(self._frame):
            return self._frame[y]
        return Strip.blank(self.size.width, self.rich_style)

    def _draw(self) -> list[Strip]:
        width, height = self.size
        pad = self.rich_style
        geometry = self.geometry
        if geometry is None:
            return self._draw_too_small(width, height, pad)
        frame, empty = self._board_styles()
        canvas = _Canvas(geometry.width, geometry.height, frame)
        for r in range(geometry.rows):
            for c in range(geometry.cols):
                x, y = geometry.corner(r, c)
                canvas.fill(int(x), int(y), geometry.tile_width, geometry.tile_height, empty)
        if self._motion is None:
            for r, row in enumerate(self.board):
                for c, value in enumerate(row):
                    if value:
                        self._draw_tile(canvas, geometry, value, (r, c), 1.0)
        else:
            self._draw_motion(canvas, geometry, self._motion)
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

    def _draw_motion(self, canvas: _Canvas, geometry: Geometry, motion: _Motion) -> None:
        total = SLIDE_SECONDS + GROW_SECONDS
        elapsed = self._progress * total
        if elapsed < SLIDE_SECONDS:
            t = _ease_out(elapsed / SLIDE_SECONDS)
            # Tiles that do not move go first so that gliding ones pass over them.
            for value, source, target in sorted(motion.glides, key=lambda g: g[1] != g[2]):
                row = source[0] + (target[0] - source[0]) * t
                col = source[1] + (target[1] - source[1]) * t
                # a removed tile shrinks away where it was while the others glide
                scale = 1.0 - t if source in motion.vanishing and source == target else 1.0
                if scale > 0:
                    self._draw_tile(canvas, geometry, value, (row, col), scale)
            return
        grow = min(1.0, (elapsed - SLIDE_SECONDS) / GROW_SECONDS)
        for r, row_values in enumerate(self.board):
            for c, value in enumerate(row_values):
                if value:
                    scale = grow if (r, c) in motion.spawns else 1.0
                    self._draw_tile(canvas, geometry, value, (r, c), scale)

    def _draw_tile(
        self,
        canvas: _Canvas,
        geometry: Geometry,
        value: int,
        cell: tuple[float, float],
        scale: float,
    ) -> None:
        x, y = geometry.corner(*cell)
        width, height = geometry.tile_width, geometry.tile_height
        if scale < 1.0:
            # A growing tile: a smaller box centred on its cell.
            grown_w = max(1, round(width * scale))
            grown_h = max(1, round(height * scale))
            x += (width - grown_w) / 2
            y += (height - grown_h) / 2
            width, height = grown_w, grown_h
        style = tile_style(value)
        left, top = round(x), round(y)
        canvas.fill(left, top, width, height, style)
        label = tile_label(value, geometry.tile_width)
        if len(label) <= width:
            canvas.text(left + (width - len(label)) // 2, top + (height - 1) // 2, label, style)

    def _draw_too_small(self, width: int, height: int, pad: Style) -> list[Strip]:
        rows = len(self.board)
        cols = len(self.board[0]) if rows else 0
        need_w, need_h = smallest_size(rows, cols)
        # What the rest of the screen takes stays; the board's share must grow.
        screen_w, screen_h = self.screen.size
        need_w += max(0, screen_w - width)
        need_h += max(0, screen_h - height)
        message = _("Terminal too small for this board: make it at least {w}x{h}.").format(
            w=max(need_w, screen_w), h=max(need_h, screen_h)
        )
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

    # -- the mouse -------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self._press = (event.screen_x, event.screen_y)
        self.capture_mouse()

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        if self._press is None:
            return
        press_x, press_y = self._press
        self._press = None
        direction = swipe_direction(event.screen_x - press_x, event.screen_y - press_y)
        if direction is not None:
            self.post_message(self.Swiped(direction))
