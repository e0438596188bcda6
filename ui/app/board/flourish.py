"""What a chain board lays over its tiles: the chain's bubble and the confetti of a new tile.

While a chain is drawn, a bubble above its last tile says what it would make and how
long it is (`` 128 ×6 ``); it shakes for a moment when a tile is refused. Each new
highest tile from the mode's milestone up sets off a short burst of confetti over the
board. Both are drawn as characters laid over the board's lines (overlay.py), at the
board's one frame clock; under reduced motion the bubble stands still and there is no
confetti. Everything here is a function of the time it is given, so a frame can be
drawn (and tested) at any moment. How a merge animates is motion.py's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from random import Random

from rich.color import Color
from rich.style import Style

from twofold.ui.app.board.overlay import Dot
from twofold.ui.app.widgets.tiles import vivid_colour as tile_colour
from twofold.ui.app.widgets.tiles import vivid_style as tile_style

#: how long the bubble shakes after a refusal, and how long a burst of confetti lasts
SHAKE_SECONDS = 0.3
CONFETTI_SECONDS = 1.2
#: the bubble's sideways steps while it shakes, one per frame
SHAKE_STEPS = (0, -1, 1, -1, 1, 0)
CONFETTI_PIECES = 48
CONFETTI_GLYPHS = "*✦•▪◆✶"
#: the confetti's colours: the tiles' own
CONFETTI_VALUES = (2, 8, 16, 64, 256, 512, 4096)


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


@dataclass(frozen=True)
class Bubble:
    """What the bubble says, and where: over ``centre``'s column, on ``line``."""

    text: str
    value: int
    centre: tuple[int, int]
    line: int


class Flourish:
    """The bubble's shake and the confetti of a chain board: a plain object the board holds.

    It keeps only when each began; the board's one frame clock asks it, frame by frame,
    whether it still runs and what to lay over the lines at that moment.
    """

    def __init__(self) -> None:
        self.shake_start: float | None = None
        self.burst: Burst | None = None

    def shake(self, now: float) -> None:
        self.shake_start = now

    def celebrate(self, origin: tuple[int, int], now: float, seed: int = 0) -> None:
        self.burst = Burst(origin, now, seed)

    def running(self, now: float) -> bool:
        """Whether a shake or a burst still runs at ``now`` (each ends by itself)."""
        if self.shake_start is not None and now - self.shake_start >= SHAKE_SECONDS:
            self.shake_start = None
        if self.burst is not None and now - self.burst.start >= CONFETTI_SECONDS:
            self.burst = None
        return self.shake_start is not None or self.burst is not None

    def dots(self, now: float, width: int, height: int, bubble: Bubble | None) -> list[Dot]:
        """The confetti, then the bubble (shaking, if it shakes), at ``now``."""
        dots: list[Dot] = []
        if self.burst is not None:
            dots += self.burst.dots(now, width, height)
        if bubble is not None:
            shake = 0
            if self.shake_start is not None:
                shake = shake_offset((now - self.shake_start) / SHAKE_SECONDS)
            dots += bubble_dots(bubble.text, bubble.value, bubble.centre, bubble.line, width, shake)
        return dots
