"""Characters laid over a board's lines (a chain's bubble, confetti): the one way they are drawn."""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

#: a point drawn over the board: column, line, character and style
Dot = tuple[int, int, str, Style]


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
