"""Reading the line modes' input: one command a line, each at most :data:`LINE_LIMIT` bytes.

Lines are read one at a time, so a bad byte costs its own line only, and input is never
echoed back whole: a message quotes at most :data:`MESSAGE_LIMIT` characters.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

#: the longest line read as a command (bytes); the rest of a longer line is skipped
LINE_LIMIT = 4096
#: the most characters of a message (a reason, a quoted command) put in a reply
MESSAGE_LIMIT = 200


class TooLong(bytes):
    """A line longer than LINE_LIMIT (its first bytes only)."""


def line_body(line: bytes) -> bytes:
    """A line without its end (``\\n`` or ``\\r\\n``): what the limit counts."""
    return line.removesuffix(b"\n").removesuffix(b"\r") if line.endswith(b"\n") else line


def read_lines(stream: BinaryIO, limit: int = LINE_LIMIT) -> Iterator[bytes]:
    """The lines of a binary stream, each at most ``limit`` bytes (a longer one as TooLong).

    The limit counts the command, not the line's end: ``limit`` bytes and ``\\r\\n`` is a line.
    """
    while True:
        line = stream.readline(limit + 2)
        if not line:
            return
        body = line_body(line)
        if len(body) > limit:
            if not line.endswith(b"\n"):
                while True:  # skip to the end of the line without holding it in memory
                    rest = stream.readline(65536)
                    if not rest or rest.endswith(b"\n"):
                        break
            yield TooLong(body[:limit])
        else:
            yield line


def cut(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` shortened to ``limit`` characters, so a reply never echoes huge input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
