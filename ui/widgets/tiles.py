"""Tile colours by value, shared by every board and the tile strip.

Each tile carries its own background, so the same table reads in dark and light
themes; text colour is chosen per tile for contrast, not from the theme.
"""

from __future__ import annotations

from functools import cache

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
    """The value as it fits in ``width`` cells: ``131072``, else ``128k``, else ``2^17``."""
    text = str(value)
    if len(text) <= width:
        return text
    for divisor, suffix in ((1_000, "k"), (1_000_000, "M")):
        if value % divisor == 0 and len(f"{value // divisor}{suffix}") <= width:
            return f"{value // divisor}{suffix}"
    exponent = f"2^{value.bit_length() - 1}"
    return exponent if len(exponent) <= width else exponent[:width]
