"""What a served page sends, read with bounds: its terminal's size, its host, its frames,
settled (resizes and focus changes) or paced (everything else); ``server.py`` serves them."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any
from urllib.parse import urlsplit

from textual_serve.app_service import AppService

#: the largest terminal a page may ask for: wider than an 8K screen of 16 px text
MAX_COLUMNS = 800
MAX_ROWS = 250
#: the smallest: Textual's layout fails in narrower ones (the menu at 5 columns), ending the app
MIN_COLUMNS = 20
MIN_ROWS = 5
#: the terminal a page gets when it gives no size, or one that is not a number
DEFAULT_SIZE = (80, 24)
#: the deepest a frame's JSON may nest (``["resize", {"width": 80}]`` is 2): Python's parser
#: recurses, and 4,000 ``[`` ended the page with "maximum recursion depth exceeded"
FRAME_DEPTH = 4
#: the least time between two resizes (or focus changes) an app is sent: a window dragged
#: wider sends dozens a second, and each makes the app lay out and draw its whole screen
SETTLE_SECONDS = 0.1
#: the kinds of frame settled rather than paced (the app hears only their last word)
SETTLED = frozenset({"resize", "focus", "blur"})


def cells(value: object, least: int, most: int) -> int | None:
    """A count a page gives (a number or its digits) put between ``least`` and ``most``.

    None if it gives none.
    """
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return None
    if not isinstance(value, int) or isinstance(value, bool):
        return None
    return max(least, min(value, most))


def screen_size(width: object, height: object) -> tuple[int, int] | None:
    """A page's terminal size, each side within what a screen has; None if unreadable."""
    columns, rows = cells(width, MIN_COLUMNS, MAX_COLUMNS), cells(height, MIN_ROWS, MAX_ROWS)
    return None if columns is None or rows is None else (columns, rows)


def host_of(header: str | None) -> str | None:
    """The host name a request's Host header names (lower case, no port); None if unreadable."""
    if not header:
        return None
    try:
        parts = urlsplit(f"//{header}")
        parts.port  # noqa: B018 - a port that is not a number raises ValueError
    except ValueError:
        return None
    if parts.hostname is None or parts.username is not None:
        return None
    if parts.path or parts.query or parts.fragment:
        return None
    return parts.hostname.rstrip(".")


def nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest (brackets inside its strings not counted)."""
    deepest = depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def read_frame(text: str) -> tuple[Any, Any] | None:
    """A page's frame as ``(kind, data)``; None for one that does not read or nests too deep."""
    # a frame with few brackets cannot nest deep: only the others are scanned
    if text.count("[") + text.count("{") > FRAME_DEPTH and nesting(text) > FRAME_DEPTH:
        return None
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(envelope, list) or not envelope:
        return None
    return envelope[0], envelope[1] if len(envelope) > 1 else None


class Settle:
    """A page's terminal as its app should see it (size, focus), sent as it changes.

    A page asks; the app is told only what differs from what it was last told, at most
    every :data:`SETTLE_SECONDS`, and always the latest: a flood of resizes or of focus
    and blur becomes a few messages, ending in the page's last word.
    """

    def __init__(self, service: AppService, size: tuple[int, int]) -> None:
        self.service = service
        self.size, self.told_size = size, size
        self.focused: bool | None = None
        self.told_focus: bool | None = None
        self.asked = asyncio.Event()
        self.task = asyncio.create_task(self.tell())

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.asked.set()

    def focus(self, focused: bool) -> None:
        self.focused = focused
        self.asked.set()

    async def tell(self) -> None:
        while True:
            await self.asked.wait()
            self.asked.clear()
            if self.size != self.told_size:
                self.told_size = self.size
                await self.service.set_terminal_size(*self.size)
            if self.focused is not None and self.focused != self.told_focus:
                self.told_focus = self.focused
                await (self.service.focus() if self.focused else self.service.blur())
            await asyncio.sleep(SETTLE_SECONDS)

    async def close(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task


class Pace:
    """A page's input allowance: ``burst`` bytes at once, then ``rate`` bytes a second."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.allowance = burst
        self.at = time.monotonic()

    async def spend(self, size: int) -> None:
        """Take ``size`` bytes; over the allowance, wait until they are earned.

        While it waits the page's websocket is not read, so a flood backs up in its sender.
        """
        now = time.monotonic()
        self.allowance = min(self.burst, self.allowance + (now - self.at) * self.rate) - size
        self.at = now
        if self.allowance < 0:
            await asyncio.sleep(-self.allowance / self.rate)
