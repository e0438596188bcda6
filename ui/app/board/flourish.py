"""What a chain board lays over its tiles: the chain's bubble and the confetti of a new tile.

While a chain is drawn, a bubble above its last tile says what it would make and how
long it is (`` 128 ×6 ``); it shakes for a moment when a tile is refused. Each new
highest tile from the mode's milestone up sets off a short burst of confetti over the
board. Both are drawn as characters laid over the board's lines; under reduced motion
the bubble stands still and there is no confetti. Everything here is a pure function
of the time it is given, so a frame can be drawn (and tested) at any moment.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from random import Random
from typing import TYPE_CHECKING

from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from twofold.ui.app.widgets.tiles import vivid_colour as tile_colour
from twofold.ui.app.widgets.tiles import vivid_style as tile_style

if TYPE_CHECKING:
    from twofold.ui.app.board.chain import Cell, ChainBoard
    from twofold.ui.app.widgets.geometry import Geometry

#: the board's frame time while something moves
FRAME_SECONDS = 1 / 30
#: how long the bubble shakes after a refusal, and how long a burst of confetti lasts
SHAKE_SECONDS = 0.3
CONFETTI_SECONDS = 1.2
#: the bubble's sideways steps while it shakes, one per frame
SHAKE_STEPS = (0, -1, 1, -1, 1, 0)
CONFETTI_PIECES = 48
CONFETTI_GLYPHS = "*✦•▪◆✶"
#: the confetti's colours: the tiles' own
CONFETTI_VALUES = (2, 8, 16, 64, 256, 512, 4096)

#: a point drawn over the board: column, line, character and style
Dot = tuple[int, int, str, Style]


def bubble_text(value: int, length: int) -> str:
    return f" {value} ×{length} "


def bubble_dots(
    text: str, value: int, centre: tuple[int, int], line: int, width: int, shake: int = 0
) -> list[Dot]:
    """The bubble's characters, centred over ``centre``'s column on ``line``, kept on screen."""
    x = centre[0] - len(text) // 2 + shake
    x = max(0, min(x, width - len(text)))
    style = tile_style(value)
    return [(x + i, line, char, style) for i, char in enumerate(text) if 0 <= x + i < width]


def shake_offset(progress: float) -> int:
    """The bubble's sideways step at ``progress`` (0 to 1) through a shake."""
    if not 0.0 <= progress < 1.0:
        return 0
    return SHAKE_STEPS[min(len(SHAKE_STEPS) - 1, int(progress * len(SHAKE_STEPS)))]


@dataclass(frozen=True)
class Burst:
    """A burst of confetti from ``origin`` (a point of the board), started at ``start``."""

    origin: tuple[int, int]
    start: float
    seed: int = 0

    def dots(self, now: float, width: int, height: int) -> list[Dot]:
        """The confetti at time ``now``: pieces fly out, fall a little and are gone at the end."""
        progress = (now - self.start) / CONFETTI_SECONDS
        if not 0.0 <= progress < 1.0:
            return []
        rng = Random(self.seed)
        ox, oy = self.origin
        reach = max(width, height * 2) * 0.6
        found: list[Dot] = []
        for _piece in range(CONFETTI_PIECES):
            angle = rng.uniform(0, 2 * math.pi)
            speed = rng.uniform(0.35, 1.0) * reach
            glyph = rng.choice(CONFETTI_GLYPHS)
            colour: Color = tile_colour(rng.choice(CONFETTI_VALUES))
            # out fast, then slower; lines are about twice as tall as columns are wide
            out = 1 - (1 - progress) ** 2
            x = round(ox + math.cos(angle) * speed * out)
            y = round(oy + (math.sin(angle) * speed * out) / 2 + 3 * progress**2)
            if 0 <= x < width and 0 <= y < height:
                found.append((x, y, glyph, Style(color=colour, bold=True)))
        return found


def lay_over(strip: Strip, dots: Iterable[Dot], width: int) -> Strip:
    """``strip`` with ``dots`` (all on its line) drawn over it, the rest untouched."""
    # one dot a column, the last one given winning (the bubble is given after the confetti)
    columns = sorted({x: (char, style) for x, _y, char, style in dots}.items())
    if not columns:
        return strip
    pieces: list[Strip] = []
    cursor = 0
    for x, (char, style) in columns:
        if x < cursor or x >= width:
            continue
        under = list(strip.crop(x, x + 1))
        if style.bgcolor is None and "".join(seg.text for seg in under) != " ":
            continue  # confetti (no background of its own) never covers a number or a rim
        if x > cursor:
            pieces.append(strip.crop(cursor, x))
        # a piece of confetti keeps the colour under it as its background: it sits on the tile
        below = next((seg.style for seg in under if seg.style is not None), None)
        background = below.bgcolor if below is not None and style.bgcolor is None else None
        pieces.append(Strip([Segment(char, style + Style(bgcolor=background))], 1))
        cursor = x + 1
    if cursor < width:
        pieces.append(strip.crop(cursor, width))
    return Strip.join(pieces)


class Flourishes:
    """The bubble's shake and the confetti of a :class:`ChainBoard` (a part of it)."""

    def _shake(self: ChainBoard) -> None:
        if self.chain and not self.reduced_motion:
            self._shake_start = self.clock()
            self._keep_drawing()

    def celebrate(self: ChainBoard, cell: Cell) -> None:
        """A burst of confetti from ``cell`` (a new highest tile); none under reduced motion."""
        geometry = self.geometry
        if self.reduced_motion or geometry is None:
            return
        self._burst = Burst(geometry.centre(cell), self.clock(), seed=hash(cell))
        self._keep_drawing()

    @property
    def bursting(self: ChainBoard) -> bool:
        """Whether confetti is flying (it stops by itself after CONFETTI_SECONDS)."""
        return self._burst is not None

    def _keep_drawing(self: ChainBoard) -> None:
        if self._flourish_timer is None:
            self._flourish_timer = self.set_interval(FRAME_SECONDS, self._flourish_frame)
        self.refresh()

    def _flourish_frame(self: ChainBoard) -> None:
        now = self.clock()
        if self._shake_start is not None and now - self._shake_start >= SHAKE_SECONDS:
            self._shake_start = None
        if self._burst is not None and now - self._burst.start >= CONFETTI_SECONDS:
            self._burst = None
        if self._shake_start is None and self._burst is None and self._flourish_timer:
            self._flourish_timer.stop()
            self._flourish_timer = None
        self.refresh()

    def _flourish(self: ChainBoard, geometry: Geometry) -> dict[int, list[Dot]]:
        """The bubble and the confetti of this frame, by line."""
        now = self.clock()
        dots: list[Dot] = []
        if self._burst is not None:
            dots += self._burst.dots(now, self.size.width, self.size.height)
        if self.chain and self._motion is None and self.picking is None:
            last = self.chain[-1]
            value = self.chain_value or self.board[self.chain[0][0]][self.chain[0][1]]
            top = geometry.origin(last)[1]
            line = top - 1 if top > 0 else top + geometry.tile_height - 1
            shake = 0
            if self._shake_start is not None:
                shake = shake_offset((now - self._shake_start) / SHAKE_SECONDS)
            text = bubble_text(value, len(self.chain))
            dots += bubble_dots(text, value, geometry.centre(last), line, self.size.width, shake)
        by_line: dict[int, list[Dot]] = {}
        for dot in dots:
            by_line.setdefault(dot[1], []).append(dot)
        return by_line
