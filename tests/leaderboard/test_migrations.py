"""A leaderboard file made by twofold 0.2.0 (schema 1, format-1 proofs) migrates forward.

``fixtures/leaderboard-schema1.db`` was written by the store as it was before games kept
their checkpoints, replays and name keys: three entries of the 2048 Daily of 2026-12-01.
Opened now, it keeps every entry as it was and gains what the store keeps since, and the
board it holds behaves as one made today.
"""

from __future__ import annotations

import gzip
import json
import shutil
import sqlite3
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer

from twofold.core.plugins import registry
from twofold.core.proof import proof_of, replay
from twofold.ui.leaderboard.boards import SCHEMA_VERSION, SqliteBoards
from twofold.ui.leaderboard.checking import Checker
from twofold.ui.leaderboard.server import Leaderboard

FIXTURE = Path(__file__).parent / "fixtures" / "leaderboard-schema1.db"
COLUMNS = "id, game_key, mode, code, day, name, score, largest, moves, played, assisted, proof"


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as connection:
        return connection.execute(f"SELECT {COLUMNS} FROM entries ORDER BY id").fetchall()


def test_a_file_of_schema_1_keeps_every_entry_and_gains_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.db"
    shutil.copy(FIXTURE, path)
    before = rows(path)
    assert [row[5] for row in before] == ["Ana", "Bo", "Cy"]
    boards = SqliteBoards(path)
    try:
        assert rows(path) == before  # nothing lost, nothing changed
        for row in before:
            entry = boards.entry(row[0])
            assert entry is not None
            game = replay(entry.proof, registry().modes.get)
            assert entry.actions == len(game.actions) and entry.proof.startswith("TF1")
            frames = json.loads(gzip.decompress(boards.replay(entry.id) or b""))
            assert len(frames["boards"]) == len(game.actions) + 1
            assert frames["scores"][-1] == entry.score
    finally:
        boards.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        keys = connection.execute("SELECT name_key FROM entries ORDER BY id").fetchall()
    assert keys == [("ana",), ("bo",), ("cy",)]


async def test_its_board_behaves_as_one_made_today(tmp_path: Path, checker: Checker) -> None:
    path = tmp_path / "leaderboard.db"
    shutil.copy(FIXTURE, path)
    boards = SqliteBoards(path)
    [ana] = [row for row in rows(path) if row[5] == "Ana"]
    game = replay(ana[-1], registry().modes.get)
    prefix = proof_of(game.mode, game.code, game.actions[:20])
    service = Leaderboard(boards, checker, rate=6000, burst=6000)
    try:
        async with TestClient(TestServer(service.app())) as client:
            taken = await client.post("/api/results", json={"result": prefix, "name": "Thief"})
            assert taken.status == 409 and (await taken.json())["owner"] == "Ana"
            alike = await client.post("/api/results", json={"result": prefix, "name": "\u0410na"})
            assert alike.status == 422
            board = await (await client.get(f"/api/daily/2048-daily/{ana[4]}")).json()
            assert [entry["name"] for entry in board["entries"]] == ["Ana", "Bo"]
    finally:
        boards.close()
