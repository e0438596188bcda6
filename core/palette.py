"""The tiles' colours, one table for every front end (the app, the learning images, the
leaderboard's pages).

Two schemes: the classic one of the web 2048 for slide and place modes, and a vivid one
with one colour per power of two for chain modes, where equal tiles must be easy to spot.
"""

from __future__ import annotations

from functools import cache

DARK_TEXT = "#2b2520"
LIGHT_TEXT = "#ffffff"
#: an empty cell of a chain board
EMPTY_VIVID = "#3a3a3a"
#: the board in light surroundings: the original game's taupe frame and empty cells
LIGHT_FRAME = "#bbada0"
LIGHT_EMPTY = "#cdc1b4"
#: a stone (a cell below 0): grey, with no number (it is neither a tile nor empty)
STONE_TEXT, STONE_BACKGROUND = "#9a948b", "#57534d"

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
BEYOND: tuple[str, ...] = ("#3c3a32", "#5b3a8a", "#1f5f8b", "#2d7a4a", "#8b1f3f", "#14213d")

#: one colour per exponent, 2 (2^1) first; bigger tiles cycle through it again, darker
VIVID: tuple[str, ...] = (
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


@cache
def tile_colours(value: int) -> tuple[str, str]:
    """Background and text colour of a classic tile; every positive value gets one."""
    if value in TILE_COLOURS:
        return TILE_COLOURS[value]
    exponent = max(value, 1).bit_length() - 1
    return BEYOND[exponent % len(BEYOND)], LIGHT_TEXT


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as three numbers from 0 to 255."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@cache
def vivid_rgb(value: int) -> tuple[int, int, int]:
    """The background of a tile showing ``value`` on a chain board."""
    if value <= 0:
        return rgb(EMPTY_VIVID)
    index = max(0, value.bit_length() - 1) - 1
    r, g, b = rgb(VIVID[index % len(VIVID)])
    lap = index // len(VIVID)
    if not lap:
        return r, g, b
    # each lap around the colour wheel darkens the tile a little so 2 and 8192 differ
    shade = max(0.45, 1.0 - 0.25 * lap)
    return int(r * shade), int(g * shade), int(b * shade)


def readable_text(background: tuple[int, int, int]) -> str:
    """Near-black or white, whichever reads better on ``background`` (a vivid tile)."""
    r, g, b = background
    return "#111111" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 150 else "#ffffff"
