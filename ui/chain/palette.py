"""Tile colours: one colour per power of two, so equal tiles are easy to spot."""

from __future__ import annotations

from functools import cache

from rich.color import Color
from rich.style import Style

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


def exponent(value: int) -> int:
    return max(0, value.bit_length() - 1)


@cache
def tile_colour(value: int) -> Color:
    """The background colour of a tile showing ``value``."""
    if value <= 0:
        return Color.parse("#3a3a3a")
    index = exponent(value) - 1
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
def tile_style(value: int, *, bold: bool = True) -> Style:
    background = tile_colour(value)
    return Style(color=text_colour(background), bgcolor=background, bold=bold)


def label(value: int, width: int) -> str:
    """The number on a tile, shortened with K/M when the tile is narrow."""
    text = str(value)
    if len(text) <= width:
        return text
    for unit, size in (("M", 1 << 20), ("K", 1 << 10)):
        if value >= size and len(f"{value // size}{unit}") <= width:
            return f"{value // size}{unit}"
    return text[:width]


@cache
def dimmed(colour: Color, background: Color | None, amount: float = 0.65) -> Color:
    """``colour`` faded towards ``background``: tiles that cannot join the chain."""
    if background is None:
        background = Color.parse("#000000")
    r, g, b = colour.get_truecolor()
    br, bg, bb = background.get_truecolor()
    return Color.from_rgb(r + (br - r) * amount, g + (bg - g) * amount, b + (bb - b) * amount)
