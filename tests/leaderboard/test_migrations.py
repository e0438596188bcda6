"""A leaderboard file made by twofold 0.2.0 (schema 1, format-1 proofs) migrates forward.

``fixtures/leaderboard-schema1.db`` was written by the store as it was before games kept
their checkpoints, replays and name keys: three entries of the 2048 Daily of 2026-12-01.
Opened now, it keeps every entry as it was and gains what the store keeps since, and the
board it holds behaves as one made today.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine

from twofold.core.plugins import registry
from twofold.core.proof import proof_of, replay
from twofold.core.verify import verify
from twofold.leaderboard.boards import (
    SCHEMA_VERSION,
    SqlBoards,
    SqliteBoards,
    StoreError,
    open_boards,
    postgres_url,
)
from twofold.leaderboard.server import Leaderboard
from twofold.leaderboard.tables import metadata
from twofold.leaderboard.verifier import Checker, checkpoints

from .conftest import fresh_database

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


# -- a database as today's last store of hand-written SQL left it, on both stores ------------

FIXTURES = Path(__file__).parent / "fixtures"
TABLES = {
    "entries": "id",
    "checkpoints": "entry_id, key",
    "replays": "entry_id",
}


def _dump(boards: SqlBoards) -> dict[str, list[tuple]]:
    """Every row of every table, as plain values (bytes for the replays)."""
    found = {}
    with boards.transaction() as connection:
        for table, order in TABLES.items():
            rows = connection.exec_driver_sql(f"SELECT * FROM {table} ORDER BY {order}").all()
            found[table] = [
                tuple(bytes(v) if isinstance(v, memoryview) else v for v in row) for row in rows
            ]
    return found


@contextlib.contextmanager
def schema4(store: str, tmp_path: Path) -> Iterator[str]:
    """The schema-4 fixture where ``store`` says: a copy of the file, or a database loaded
    from the dump (both made by the same script on 9536b9a)."""
    if not store.startswith("postgresql"):
        path = tmp_path / "schema4.db"
        shutil.copy(FIXTURES / "leaderboard-schema4.db", path)
        yield str(path)
        return
    cluster = store.rsplit("/", 1)[0] + "/postgres"
    with fresh_database(cluster) as url:
        import psycopg

        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute((FIXTURES / "leaderboard-schema4.sql").read_text())  # type: ignore[arg-type]
        yield url


def _opened(database: str) -> SqlBoards:
    return open_boards(database)


def test_a_database_of_schema_4_keeps_every_row_ranks_and_verifies(
    store: str, tmp_path: Path
) -> None:
    with schema4(store, tmp_path) as database:
        raw = create_engine(
            postgres_url(database) if database.startswith("postgresql") else f"sqlite:///{database}"
        )
        try:
            with raw.connect() as connection:
                before = {
                    table: [
                        tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
                        for row in connection.exec_driver_sql(
                            f"SELECT * FROM {table} ORDER BY {order}"
                        )
                    ]
                    for table, order in TABLES.items()
                }
        finally:
            raw.dispose()
        assert [row[5] for row in before["entries"]] == ["Ana", "Bo", "Cy", "Dee"]
        boards = _opened(database)
        try:
            assert _dump(boards) == before  # nothing lost, nothing changed
            with boards.transaction() as connection:
                assert (
                    connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
                    == f"{SCHEMA_VERSION:04d}"
                )
            mode, code = before["entries"][0][2], before["entries"][0][3]
            # every entry still verifies, to the figures it ranks by, with its replay
            for row in before["entries"]:
                entry = boards.entry(row[0])
                assert entry is not None and entry.name == row[5]
                checked = verify(entry.proof)
                assert (checked.score, checked.moves) == (entry.score, entry.moves)
                frames = json.loads(gzip.decompress(boards.replay(entry.id) or b""))
                assert len(frames["boards"]) == entry.actions + 1
                assert frames["scores"][-1] == entry.score
            # and ranks as it did: best first, the assisted (Cy's undo) on the full board only
            unassisted = boards.board(mode, code, assisted=False, limit=10)
            everyone = boards.board(mode, code, assisted=True, limit=10)
            assert [(e.name, e.rank) for e in unassisted] == [("Bo", 1), ("Ana", 2), ("Dee", 3)]
            assert [e.name for e in everyone] == ["Bo", "Ana", "Cy", "Dee"]
            # each game is found by its checkpoints: a prefix of one is that game
            ana = boards.entry(next(e.id for e in everyone if e.name == "Ana"))
            assert ana is not None
            game = replay(ana.proof, registry().modes.get)
            assert [e.id for e in boards.related(checkpoints(game)[:1])] == [ana.id]
        finally:
            boards.close()


async def test_a_board_of_schema_4_refuses_a_thief_and_a_look_alike(
    store: str, tmp_path: Path, checker: Checker
) -> None:
    with schema4(store, tmp_path) as database:
        boards = _opened(database)
        try:
            [ana] = [e for e in boards.board("2048-daily", _code(boards), assisted=True, limit=9)
                     if e.name == "Ana"]  # fmt: skip
            whole = boards.entry(ana.id)
            assert whole is not None
            game = replay(whole.proof, registry().modes.get)
            prefix = proof_of(game.mode, game.code, game.actions[:20])
            service = Leaderboard(boards, checker, rate=6000, burst=6000)
            async with TestClient(TestServer(service.app())) as client:
                taken = await client.post("/api/results", json={"result": prefix, "name": "T"})
                assert taken.status == 409 and (await taken.json())["owner"] == "Ana"
                alike = await client.post(
                    "/api/results", json={"result": prefix, "name": "\u0410na"}
                )
                assert alike.status == 422
        finally:
            boards.close()


def _code(boards: SqlBoards) -> str:
    with boards.transaction() as connection:
        return str(connection.exec_driver_sql("SELECT code FROM entries LIMIT 1").scalar())


def test_what_the_migrations_build_is_the_schema_the_store_uses(boards: SqlBoards) -> None:
    with boards.transaction() as connection:
        context = MigrationContext.configure(
            connection,
            # the version's old place, kept for a twofold from before Alembic to read
            opts={"include_name": lambda name, kind, _parent: name != "twofold_leaderboard"},
        )
        differences = compare_metadata(context, metadata)
    assert differences == []


def test_a_schema_newer_than_this_twofold_is_refused_and_left_as_it_is(
    store: str, tmp_path: Path
) -> None:
    open_boards(store).close()
    engine = create_engine(
        postgres_url(store) if store.startswith("postgresql") else f"sqlite:///{store}"
    )
    try:
        with engine.begin() as connection:
            connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
        with pytest.raises(StoreError, match="newer"):
            open_boards(store)
        with engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").all() == [
                ("9999",)
            ]
    finally:
        with engine.begin() as connection:  # the next test may share this database
            connection.exec_driver_sql(
                f"UPDATE alembic_version SET version_num = '{SCHEMA_VERSION:04d}'"
            )
        engine.dispose()
