"""Saves across real processes: resume after quit, and SIGKILL at random moments."""

from __future__ import annotations

import itertools
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.store import open_store

CODE = code_from_text("session-processes")
MOVES = ("left", "down", "right", "up")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


@pytest.fixture
def big_board() -> Mode:
    modes = registry().modes
    assert "2048-6x6" in modes, f"the 2048 variant is not registered: {sorted(modes)}"
    return modes["2048-6x6"]


def command_line(*args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "twofold.ui.command.cli",
        "play",
        "2048",
        "--size",
        "6",
        *args,
        "--json",
    ]


def run(home: Path, commands: list[str], *args: str) -> list[dict[str, Any]]:
    result = subprocess.run(
        command_line(*args),
        input="".join(c + "\n" for c in commands),
        capture_output=True,
        text=True,
        env={**os.environ, "TWOFOLD_HOME": str(home)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_a_game_resumes_after_quit_and_after_end_of_input(twofold_home: Path) -> None:
    first = run(twofold_home, [*MOVES, "undo", "left", "quit"], "--code", CODE)
    assert first[-1]["moves"] > 0
    [resumed] = run(twofold_home, [])
    assert resumed["code"] == CODE
    assert "notice" not in resumed
    for key in ("board", "score", "moves", "over"):
        assert resumed[key] == first[-1][key]
    more = run(twofold_home, ["down", "undo", "undo"])  # end of input, no quit
    [again] = run(twofold_home, [])
    assert again["board"] == more[-1]["board"] and again["moves"] == more[-1]["moves"]


def board_of(game: Game) -> list[list[int]]:
    return [list(row) for row in game.state.board]


@pytest.mark.slow
def test_killed_at_random_moments_the_next_launch_has_the_last_save_or_the_one_before(
    twofold_home: Path, big_board: Mode
) -> None:
    rng = random.Random(20261130)
    env = {**os.environ, "TWOFOLD_HOME": str(twofold_home)}
    # More commands than any machine plays in the wait below, so the kill lands mid-burst.
    burst = list(itertools.islice(itertools.cycle(MOVES), 3000))
    mid_burst = rounds = 0
    expected: Game | None = None
    for round_number in range(6):
        args = ("--code", CODE) if round_number == 0 else ()
        process = subprocess.Popen(
            command_line(*args),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert process.stdin is not None and process.stdout is not None
        start = json.loads(process.stdout.readline())
        assert "notice" not in start, start["notice"]
        if expected is not None:
            assert start["board"] == board_of(expected)
            assert start["moves"] == expected.state.moves
        if start["over"]:
            process.kill()
            process.wait()
            break
        rounds += 1
        process.stdin.write("".join(c + "\n" for c in burst).encode())
        process.stdin.flush()
        time.sleep(rng.uniform(0.0, 0.12))
        process.send_signal(signal.SIGKILL)
        rest = process.stdout.read().decode()
        process.wait()
        process.stdin.close()
        process.stderr.close()  # type: ignore[union-attr]
        assert process.returncode == -signal.SIGKILL
        # A reply is written after its save, so the save is that reply's game or one move on.
        replies = [
            json.loads(line) for line in rest.splitlines(keepends=True) if line.endswith("\n")
        ]
        mid_burst += len(replies) < len(burst)
        last = replies[-1] if replies else start
        with open_store() as store:
            assert store.notice is None
            saved = store.load_save(big_board.id)
        assert saved is not None and saved.code == CODE
        seen = last["moves"]
        assert len(saved.actions) in (seen, seen + 1)
        assert board_of(Game.replay(big_board, CODE, saved.actions[:seen])) == last["board"]
        expected = Game.replay(big_board, CODE, saved.actions)
    assert rounds >= 3
    assert mid_burst >= rounds - 1, "the kills should land while commands were being played"


def test_the_json_mode_tells_of_a_damaged_or_newer_database(twofold_home: Path) -> None:
    path = twofold_home / "twofold.db"
    path.write_bytes(b"not a database " * 300)
    [start, moved] = run(twofold_home, ["left"], "--code", CODE)
    assert "damaged" in start["notice"] and "\n" not in start["notice"]
    [resumed] = run(twofold_home, [])
    assert "notice" not in resumed and resumed["board"] == moved["board"]

    connection = sqlite3.connect(path)
    # a newer twofold's file: a later version, with tables this one does not know
    connection.execute("CREATE TABLE later (key TEXT PRIMARY KEY)")
    connection.execute("PRAGMA user_version = 999")
    connection.close()  # so the change is in the file, not only in its WAL
    before = path.read_bytes()
    [start, _moved] = run(twofold_home, ["left"])
    assert "newer twofold" in start["notice"]
    assert path.read_bytes() == before
