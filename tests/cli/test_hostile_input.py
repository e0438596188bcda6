"""Input that once killed, hung or was taken wrongly, run as a player ran it.

Each case is the command that showed it, as a subprocess with a strict UTF-8 stdin
(``PYTHONIOENCODING=utf-8``); each now gives one clear line (exit 2) or one reply.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from twofold.core.codes import code_from_text

CODE = code_from_text("hostile")
HUGE = "9" * 4400


def run(
    args: list[str], stdin: bytes, home: Path, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "TWOFOLD_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=timeout,
    )


def json_replies(args: list[str], stdin: bytes, home: Path) -> list[dict[str, Any]]:
    result = run(args, stdin, home)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    return [json.loads(line) for line in result.stdout.splitlines()]


# -- 3. coordinates ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [f"chain 0,0 0,{HUGE}", f"hammer {HUGE},0", f"swap 0,0 0,{HUGE}", f"chain -{HUGE},0 0,0"],
    ids=["chain", "hammer", "swap", "negative"],
)
def test_a_coordinate_of_4400_digits_is_an_error_reply(twofold_home: Path, command: str) -> None:
    """chain 0,0 0,9999... ended the 2248 session as a plugin fault."""
    start, reply = json_replies(["play", "2248", "--json"], f"{command}\n".encode(), twofold_home)
    assert reply["error"] and len(reply["error"]) < 300
    assert reply["changed"] is False and reply["board"] == start["board"]


def test_arabic_indic_digits_are_not_coordinates(twofold_home: Path) -> None:
    """hammer ٣,١ worked."""
    _, reply = json_replies(["play", "2248", "--json"], "hammer ٣,١\n".encode(), twofold_home)
    assert reply["error"] and reply["changed"] is False


# -- 4. bytes that are not UTF-8 ------------------------------------------------------------


def test_an_invalid_byte_costs_its_own_line_only(twofold_home: Path) -> None:
    """printf 'left\\n\\xffleft\\nright\\n' | twofold play 2048 --json: exit 1, left lost."""
    replies = json_replies(
        ["play", "2048", "--code", CODE, "--json"], b"left\n\xffleft\nright\n", twofold_home
    )
    assert len(replies) == 4
    start, left, bad, right = replies
    assert left["board"] != start["board"] or not left["changed"]
    assert "UTF-8" in bad["error"] and bad["changed"] is False and bad["board"] == left["board"]
    assert "error" not in right


# -- 5. --position ------------------------------------------------------------------------------


def _position_cases(tmp: Path) -> dict[str, str]:
    (tmp / "binary.json").write_bytes(bytes(range(256)) * 8)
    board = '{"board": [[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}'
    (tmp / "utf16.json").write_bytes(board.encode("utf-16"))
    with (tmp / "random.json").open("wb") as big:
        big.write(os.urandom(1_000_000) * 3)
    digits = '{"board": [[' + "9" * 5000 + ",0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"
    (tmp / "digits.json").write_text(digits)
    (tmp / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    os.mkfifo(tmp / "fifo")
    return {
        "binary": str(tmp / "binary.json"),
        "utf16": str(tmp / "utf16.json"),
        "3 MB of random bytes": str(tmp / "random.json"),
        "5000 digits": str(tmp / "digits.json"),
        "nested 100000 deep": str(tmp / "deep.json"),
        "/dev/zero": "/dev/zero",
        "a FIFO with no writer": str(tmp / "fifo"),
        "a folder": str(tmp),
    }


@pytest.mark.slow
def test_every_bad_position_file_is_one_line_and_exit_2_quickly(
    tmp_path: Path, twofold_home: Path
) -> None:
    """A binary file, UTF-16, random bytes, 5000 digits, deep JSON: exit 1 and a crash.log;
    /dev/zero grew to 3 GB; a FIFO blocked forever."""
    for name, path in _position_cases(tmp_path).items():
        started = time.monotonic()
        result = run(["play", "2048", "--json", "--position", path], b"quit\n", twofold_home, 30)
        assert result.returncode == 2, (name, result.stderr)
        lines = result.stderr.decode().strip().splitlines()
        assert len(lines) == 1 and len(lines[0]) < 400, (name, lines)
        assert result.stdout == b"", name
        assert time.monotonic() - started < 20, name
    assert not (twofold_home / "crash.log").exists()


# -- 6. contradictions ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["play", "2048", "--code", ""], "--code is empty"),
        (["play", "2048", "--code", "  "], "--code is empty"),
        (["play", "2048-5x5", "--size", "6"], "contradicts"),
        (["play", "2248", "--code", "2048/1WA9F7Z1"], "game of 2048, not of 2248"),
        (["play", "2048-5x5", "--code", "2048/1WA9F7Z1"], "game of 2048, not of 2048-5x5"),
        (["play", "2048/1WA9F7Z1", "--code", "2048/2WA9F7Z1"], ""),
        (["play", "2048", "--size", "9" * 5000], "invalid int value"),
    ],
)
def test_contradictions_are_refused(twofold_home: Path, args: list[str], fragment: str) -> None:
    """--code '' started a random game; 2048-5x5 --size 6 opened 6x6; 2248 played 2048."""
    result = run([*args, "--json"], b"quit\n", twofold_home)
    assert result.returncode == 2, result.stdout[:200]
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 400 and fragment in lines[0]


def test_a_share_string_of_the_family_is_still_taken(twofold_home: Path) -> None:
    replies = json_replies(
        ["play", "2048", "--code", f"2048-5x5/{CODE}", "--json"], b"quit\n", twofold_home
    )
    assert replies[0]["mode"] == "2048-5x5" and replies[0]["code"] == CODE


# -- 8. whitespace and long lines -------------------------------------------------------------


def test_whitespace_lines_each_get_a_reply(twofold_home: Path) -> None:
    """A space, a tab, NBSP or U+3000 got no reply at all in --json."""
    lines = [" ", "\t", "\u00a0", "\u3000", ""]
    stdin = "".join(line + "\n" for line in lines).encode()
    replies = json_replies(["play", "2048", "--json"], stdin, twofold_home)
    assert len(replies) == 1 + len(lines)
    assert all(reply["error"] and reply["changed"] is False for reply in replies[1:])


def test_a_megabyte_command_is_not_echoed_back(twofold_home: Path) -> None:
    """A 1 MB unknown command was echoed whole in the error (3 MB in --plain)."""
    stdin = b"x" * 1_000_000 + b"\nleft\n"
    plain = run(["play", "2048", "--plain"], stdin, twofold_home)
    assert plain.returncode == 0 and len(plain.stdout) < 5000
    replies = json_replies(["play", "2048", "--json"], stdin, twofold_home)
    assert len(replies) == 3 and len(replies[1]["error"]) < 300
    long_word = b"y" * 3000 + b"\n"  # under the line limit: quoted, but cut
    _, reply = json_replies(["play", "2048", "--json"], long_word, twofold_home)
    assert len(reply["error"]) < 300
