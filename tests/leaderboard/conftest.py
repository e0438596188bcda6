"""A leaderboard in this process on a fresh store, and results to send it.

Every test that takes ``boards`` (or ``client``) runs twice: on a fresh SQLite file, and on
a fresh database of a PostgreSQL cluster started once a test process (skipped where
PostgreSQL or psycopg is not installed).
"""

from __future__ import annotations

import contextlib
import random
import uuid
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from twofold.core.daily import daily_code, utc_today
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.result import result_text
from twofold.leaderboard.boards import PostgresBoards, SqlBoards, SqliteBoards, postgres_url
from twofold.leaderboard.server import Leaderboard
from twofold.leaderboard.verifier import Checker


def daily_game(seed: int, moves: int = 40, mode_id: str = "2048-daily", undo: bool = False) -> Game:
    """A game of today's daily board: ``seed`` picks its moves."""
    mode = registry().mode(mode_id)
    game = Game.start(mode, daily_code(mode.id, utc_today()))
    rng = random.Random(seed)
    while not game.over and len(game.log) < moves:
        game.act(rng.choice(["left", "down", "right", "up"]))
        if undo and len(game.log) == 2:
            game.act("undo")
    return game


def daily_result(seed: int, moves: int = 40, undo: bool = False) -> str:
    return result_text(daily_game(seed, moves, undo=undo), day=utc_today())


def daily_chain_game(seed: int, moves: int = 12) -> Game:
    """A game of today's 2248 daily: each move a chain of equal touching tiles, as long as
    a walk from a cell ``seed`` picks can make it (the page draws chains of many cells)."""
    mode = registry().mode("2248-daily")
    game = Game.start(mode, daily_code(mode.id, utc_today()))
    rng = random.Random(seed)
    while not game.over and len(game.log) < moves:
        board = game.state.board
        rows, cols = len(board), len(board[0])
        chains = []
        for r, c in ((r, c) for r in range(rows) for c in range(cols)):
            chain = [(r, c)]
            for _step in range(6):  # bounded: at most seven cells a chain
                row, col = chain[-1]
                near = [
                    (row + dr, col + dc)
                    for dr in (-1, 0, 1)
                    for dc in (-1, 0, 1)
                    if 0 <= row + dr < rows
                    and 0 <= col + dc < cols
                    and (row + dr, col + dc) not in chain
                    and board[row + dr][col + dc] == board[r][c]
                ]
                if not near:
                    break
                chain.append(rng.choice(near))
            if len(chain) >= 2:
                chains.append(chain)
        if not chains:
            break
        longest = max(len(chain) for chain in chains)
        chain = rng.choice([chain for chain in chains if len(chain) == longest])
        game.act("chain " + " ".join(f"{r},{c}" for r, c in chain))
    return game


@pytest.fixture(scope="session")
def checker() -> Iterator[Checker]:
    found = Checker(1)
    yield found
    found.close()


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One PostgreSQL cluster for this test process; each test takes a database of its own."""
    from .servers import postgresql

    with postgresql(tmp_path_factory.mktemp("pg")) as url:
        yield url


@contextlib.contextmanager
def fresh_database(cluster: str) -> Iterator[str]:
    """A new, empty database on the cluster; its URL. Dropped after."""
    from sqlalchemy import create_engine

    name = "t" + uuid.uuid4().hex[:16]
    admin = create_engine(postgres_url(cluster), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE {name}")
        yield cluster.rsplit("/", 1)[0] + "/" + name
        with admin.connect() as connection:
            connection.exec_driver_sql(f"DROP DATABASE {name} WITH (FORCE)")
    finally:
        admin.dispose()


@pytest.fixture(scope="session")
def shared_database(cluster: str) -> Iterator[str]:
    """A database for this test process's tests, emptied before each (creating one takes 1 s)."""
    with fresh_database(cluster) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where a test's boards live: a SQLite file, or an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "leaderboard.db")
        return
    from sqlalchemy import create_engine, inspect

    url = request.getfixturevalue("shared_database")
    engine = create_engine(postgres_url(url))
    try:
        with engine.begin() as connection:
            if inspect(connection).has_table("entries"):
                connection.exec_driver_sql(
                    "TRUNCATE entries, checkpoints, replays RESTART IDENTITY"
                )
    finally:
        engine.dispose()
    yield url


@pytest.fixture
def boards(store: str) -> Iterator[SqlBoards]:
    found = PostgresBoards(store) if store.startswith("postgresql") else SqliteBoards(Path(store))
    yield found
    found.close()


@pytest.fixture
async def client(boards: SqlBoards, checker: Checker) -> AsyncIterator[TestClient]:
    service = Leaderboard(boards, checker, rate=6000, burst=6000, today=utc_today)
    async with TestClient(TestServer(service.app())) as found:
        yield found


__all__ = ["date"]
