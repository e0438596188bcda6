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

DARK_TEXT = "#2b2520"
LIGHT_TEXT = "#ffffff"

#: value -> (background, foreground)
TILE_COLOURS: dict[int, tuple[str, str]] = {
    2: ("#eee4da", DARK_TEXT),
    4: ("#ede0c8", DARK_TEXT),
    8: ("#f2b179", DARK_TEXT),
    16: ("#f59563", DARK_TEXT),
    32: ("#f67c5f", DARK_TEXT),
    64: ("#d9411e", LIGHT_TEXT),
    128: ("#edcf72", DARK_TEXT),
    256: ("#c8d86a", DARK_TEXT),
    512: ("#9bd27a", DARK_TEXT),
    1024: ("#6cc4b0", DARK_TEXT),
    2048: ("#edc22e", DARK_TEXT),
    4096: ("#3c3a32", LIGHT_TEXT),
    8192: ("#5b3a8a", LIGHT_TEXT),
    16384: ("#1f5f8b", LIGHT_TEXT),
    32768: ("#2d7a4a", LIGHT_TEXT),
    65536: ("#8b1f3f", LIGHT_TEXT),
    131072: ("#14213d", LIGHT_TEXT),
}

#: colours for values beyond the table, cycled by exponent so neighbours differ
_BEYOND: tuple[str, ...] = ("#3c3a32", "#5b3a8a", "#1f5f8b", "#2d7a4a", "#8b1f3f", "#14213d")


@cache
def tile_colours(value: int) -> tuple[str, str]:
    """Background and text colour of a tile; every positive value gets one."""
    if value in TILE_COLOURS:
        return TILE_COLOURS[value]
    exponent = max(value, 1).bit_length() - 1
    return _BEYOND[exponent % len(_BEYOND)], LIGHT_TEXT


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


#: one colour per exponent, 2 (2^1) first; bigger tiles cycle through it again, darker
_COLOURS: tuple[str, ...] = (
    "#e2457a",  # 2 pink
    "#17a398",  # 4 teal
    "#f28c28",  # 8 orange
    "#4f7fe8",  # 16 blue
    "#9b59d0",  # 32 purple
    "#46a84a",  # 64 green
    "#d93b30",  # 128 red
    "#0e9cc2",  # 256 cyan
    "#e8b90c",  # 512 yellow
    "#a0704a",  # 1024 brown
    "#3c5a78",  # 2048 slate
    "#c2185b",  # 4096 magenta
)


def _exponent(value: int) -> int:
    return max(0, value.bit_length() - 1)


@cache
def vivid_colour(value: int) -> Color:
    """The background colour of a tile showing ``value`` on a chain board."""
    if value <= 0:
        return Color.parse("#3a3a3a")
    index = _exponent(value) - 1
    base = Color.parse(_COLOURS[index % len(_COLOURS)])
    lap = index // len(_COLOURS)
    if not lap:
        return base
    r, g, b = base.get_truecolor()
    # each lap around the colour wheel darkens the tile a little so 2 and 8192 differ
    shade = max(0.45, 1.0 - 0.25 * lap)
    return Color.from_rgb(r * shade, g * shade, b * shade)


@cache
def text_colour(background: Color) -> Color:
    """Black or white, whichever reads better on ``background``."""
    r, g, b = background.get_truecolor()
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return Color.parse("#111111" if luminance > 150 else "#ffffff")


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
