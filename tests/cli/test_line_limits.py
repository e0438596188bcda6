"""The line limit counts the command's bytes, 4,096 of them, not its line's end."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from twofold.core.codes import code_from_text
from twofold.ui.lines import LINE_LIMIT, TooLong, read_lines

CODE = code_from_text("line limits")


def replies(stdin: bytes, home: Path) -> list[dict[str, Any]]:
    env = {**os.environ, "TWOFOLD_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", "play", "2048", "--code", CODE, "--json"],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def padded(command: str, size: int) -> bytes:
    """``command`` and spaces, ``size`` bytes in all."""
    return command.encode().ljust(size, b" ")


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b""], ids=["lf", "crlf", "at-eof"])
def test_a_line_of_exactly_4096_bytes_is_read(twofold_home: Path, end: bytes) -> None:
    """A line of 4,096 bytes was called "more than 4096 bytes" (its newline was counted)."""
    _start, reply = replies(padded("left", LINE_LIMIT) + end, twofold_home)
    assert "error" not in reply, reply["error"]
    assert reply["moves"] == 1 or reply["changed"] is False


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b""], ids=["lf", "crlf", "at-eof"])
def test_a_line_of_4097_bytes_is_too_long(twofold_home: Path, end: bytes) -> None:
    after = b"up\n" if end else b""  # at the end of input nothing follows
    start, reply, *rest = replies(padded("left", LINE_LIMIT + 1) + end + after, twofold_home)
    assert reply["error"] == "the line is too long (more than 4096 bytes)"
    assert reply["changed"] is False and reply["board"] == start["board"]
    assert len(rest) == (1 if end else 0)
    assert all("error" not in next_reply for next_reply in rest)  # the next line is read


def test_read_lines_keeps_the_4096th_byte_and_cuts_the_4097th() -> None:
    stream = io.BytesIO(padded("a", 4096) + b"\n" + padded("b", 4097) + b"\r\n" + b"c")
    exact, over, last = read_lines(stream)
    assert exact == padded("a", 4096) + b"\n" and not isinstance(exact, TooLong)
    assert isinstance(over, TooLong) and len(over) == LINE_LIMIT
    assert last == b"c"


def test_a_blank_line_gets_an_error_reply_as_the_protocol_page_says(twofold_home: Path) -> None:
    """docs/protocol.md said both that blank lines are ignored and that they get a reply."""
    _start, blank, spaces = replies(b"\n   \n", twofold_home)
    assert blank["error"] == spaces["error"] == "the line is empty"
    page = (Path(__file__).parents[2] / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert "blank lines are ignored" not in page.lower()
    assert "A blank line gets an `error`" in page
