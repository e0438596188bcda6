"""The tile palette of every board, and the one way a long number is shortened to fit.

Two colour schemes of the one board (``twofold.ui.app.board``), chosen by its controls:
the classic one of the web 2048 for slide and place modes and the tile strip
(``tile_style``), and a vivid one with one colour per power of two for chain modes
(``vivid_style``), where equal tiles must be easy to spot. Each tile carries its own
background, so either reads in dark and light themes; text colour is chosen per tile
for contrast, not from the theme.
"""

from __future__ import annotations

from functools import cache

from rich.color import Color
from rich.style import Style

# the colours themselves live in core, shared with the learning environments' images
from twofold.core.palette import (  # noqa: F401 (DARK_TEXT, LIGHT_TEXT: read from here)
    DARK_TEXT,
    LIGHT_TEXT,
    TILE_COLOURS,
    readable_text,
    tile_colours,
    vivid_rgb,
)


@cache
def tile_style(value: int) -> Style:
    background, foreground = tile_colours(value)
    return Style(bgcolor=background, color=foreground, bold=True)


def tile_label(value: int, width: int) -> str:
    """The value as it fits in ``width`` cells: ``131072``, else ``128K``, else ``2^17``."""
    text = str(value)
    if len(text) <= width:
        return text
    for unit, size in (("M", 1 << 20), ("K", 1 << 10)):
        if value >= size and value % size == 0 and len(f"{value // size}{unit}") <= width:
            return f"{value // size}{unit}"
    exponent = f"2^{value.bit_length() - 1}"
    if value > 0 and value & (value - 1) == 0 and len(exponent) <= width:
        return exponent
    return text[:width]


@cache
def vivid_colour(value: int) -> Color:
    """The background colour of a tile showing ``value`` on a chain board."""
    return Color.from_rgb(*vivid_rgb(value))


@cache
def text_colour(background: Color) -> Color:
    """Black or white, whichever reads better on ``background``."""
    return Color.parse(readable_text(background.get_truecolor()))


@cache
def vivid_style(value: int, *, bold: bool = True) -> Style:
    background = vivid_colour(value)
    return Style(color=text_colour(background), bgcolor=background, bold=bold)


@cache
def dimmed(colour: Color, background: Color | None, amount: float = 0.65) -> Color:
    """``colour`` faded towards ``background``: tiles that cannot join the chain."""
    if background is None:
        background = Color.parse("#000000")
    r, g, b = colour.get_truecolor()
    br, bg, bb = background.get_truecolor()
    return Color.from_rgb(r + (br - r) * amount, g + (bg - g) * amount, b + (bb - b) * amount)
