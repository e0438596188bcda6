"""The JSON line protocol, driven as a subprocess like any program would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from twofold.core.codes import code_from_text

CODE = code_from_text("json-mode")


def run(args: list[str], commands: list[str], home: Path) -> list[dict[str, Any]]:
    env = {**os.environ, "TWOFOLD_HOME": str(home)}
    result = subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", *args],
        input="".join(c + "\n" for c in commands),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_one_object_at_start_and_one_per_command(twofold_home: Path) -> None:
    replies = run(["play", "2048", "--code", CODE, "--json"], ["left", "up", "quit"], twofold_home)
    assert len(replies) == 4
    first = replies[0]
    for key in ("mode", "code", "board", "score", "moves", "over", "changed", "events", "won"):
        assert key in first
    assert first["mode"] == "2048" and first["code"] == CODE
    assert len(first["board"]) == 4 and all(len(row) == 4 for row in first["board"])
    assert sum(v != 0 for row in first["board"] for v in row) == 2


def test_refused_commands_change_nothing(twofold_home: Path) -> None:
    replies = run(
        ["play", "2048", "--code", CODE, "--json"], ["dance", "chain 0,0 0,1"], twofold_home
    )
    start, unknown, chain = replies
    for reply in (unknown, chain):
        assert reply["error"]
        assert reply["changed"] is False
        assert reply["board"] == start["board"] and reply["moves"] == 0


def test_same_code_same_moves_same_game_and_undo_never_rerolls(twofold_home: Path) -> None:
    moves = ["left", "down", "right", "up", "left", "down"]
    a = run(["play", "2048", "--code", CODE, "--json"], moves, twofold_home / "a")
    b = run(
        ["play", "2048", "--code", CODE, "--json"], [*moves, "undo", moves[-1]], twofold_home / "b"
    )
    assert [r["board"] for r in a] == [r["board"] for r in b[: len(a)]]
    assert b[-2]["board"] == a[-2]["board"]
    assert b[-1]["board"] == a[-1]["board"]


def test_sizes_and_share_strings(twofold_home: Path) -> None:
    for size in (5, 6):
        [reply] = run(
            ["play", "2048", "--size", str(size), "--code", CODE, "--json"], [], twofold_home
        )
        assert reply["mode"] == f"2048-{size}x{size}"
        assert len(reply["board"]) == size
    [reply] = run(["play", f"2048-5x5/{CODE.lower()}", "--json"], [], twofold_home)
    assert reply["mode"] == "2048-5x5" and reply["code"] == CODE


def test_position_boards(twofold_home: Path, tmp_path: Path) -> None:
    position = tmp_path / "p.json"
    board = [[2, 2, 4, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 8]]
    position.write_text(json.dumps({"board": board, "score": 100}))
    start, moved = run(
        ["play", "2048", "--position", str(position), "--json"], ["left"], twofold_home
    )
    assert start["board"] == board and start["score"] == 100
    assert moved["board"][0][:2] == [4, 4]
    assert moved["score"] == 104


def test_end_of_input_saves_and_the_next_session_resumes(twofold_home: Path) -> None:
    first = run(["play", "2048", "--code", CODE, "--json"], ["left", "up"], twofold_home)
    again = run(["play", "2048", "--json"], ["undo"], twofold_home)
    assert again[0]["board"] == first[-1]["board"]
    assert again[0]["moves"] == first[-1]["moves"]
    assert again[1]["board"] == first[-2]["board"]
