"""One game, one entry: a proof that starts a stored game, or goes on from it, is that game.

The first to send a game owns it; anyone else sending it, whole, cut short or played on, is
told whose it is (409) and adds nothing; the owner's longer version takes the entry's place.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from aiohttp.test_utils import TestClient

from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.proof import game_key, proof_of, replay
from twofold.leaderboard import boards as store
from twofold.leaderboard.boards import SqliteBoards
from twofold.leaderboard.verifier import MIN_SHARED, checkpoints

from .conftest import daily_game
from .test_api import send

#: the tables as the store made them before it kept checkpoints (schema 1, twofold 0.2.0)
SCHEMA_1 = """
CREATE TABLE entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_key TEXT NOT NULL UNIQUE, mode TEXT NOT NULL,
    code TEXT NOT NULL, day TEXT, name TEXT NOT NULL, score BIGINT NOT NULL,
    largest BIGINT NOT NULL, moves BIGINT NOT NULL, played TEXT NOT NULL,
    assisted INTEGER NOT NULL, proof TEXT NOT NULL, submitted DOUBLE PRECISION NOT NULL
);
CREATE INDEX entries_unassisted ON entries (mode, code, assisted, score DESC, id);
CREATE INDEX entries_all ON entries (mode, code, score DESC, id);
"""


def proof(seed: int, actions: int, moves: int = 60) -> str:
    game = daily_game(seed, moves)
    return proof_of(game.mode, game.code, game.log[:actions])


async def board(client: TestClient) -> list[dict]:
    return (await (await client.get("/api/daily/2048-daily?assisted=1")).json())["entries"]


async def test_a_flood_of_prefixes_and_extensions_adds_nothing(client: TestClient) -> None:
    status, leader = await send(client, proof(1, 40), name="Leader")
    assert status == 201
    statuses = set()
    for cut in range(MIN_SHARED, 40):
        status, answer = await send(client, proof(1, cut), name=f"thief{cut}")
        statuses.add(status)
        assert (answer["owner"], answer["id"]) == ("Leader", leader["id"]), cut
        assert "sent by Leader" in answer["error"]
    status, answer = await send(client, proof(1, 41), name="one more move")
    assert statuses == {409} and status == 409 and answer["owner"] == "Leader"
    assert [entry["name"] for entry in await board(client)] == ["Leader"]


async def test_the_owner_s_longer_game_takes_its_entry_s_place(client: TestClient) -> None:
    status, mid_game = await send(client, proof(2, 20))
    assert status == 201
    status, finished = await send(client, proof(2, 50))
    assert (status, finished["updated"], finished["id"]) == (200, True, mid_game["id"])
    assert (finished["actions"], finished["moves"]) == (50, 50)
    status, shorter = await send(client, proof(2, 30))
    assert (status, shorter["updated"], shorter["actions"]) == (200, False, 50)
    entries = await board(client)
    assert [(entry["id"], entry["actions"]) for entry in entries] == [(mid_game["id"], 50)]
    stored = await (await client.get(f"/api/entries/{mid_game['id']}")).json()
    assert stored["proof"] == proof(2, 50)


async def test_games_that_only_share_an_opening_are_two_games(client: TestClient) -> None:
    game = daily_game(3, 40)
    mode, opening = game.mode, game.log[: MIN_SHARED - 1]
    other = Game.replay(mode, game.code, opening)
    rng = random.Random(3)
    while len(other.log) < 40:
        legal = [a for a in mode.rules.legal(other.state) if a != game.log[len(other.log)]]
        other.act(rng.choice(legal or mode.rules.legal(other.state)))
    assert (
        other.log[: MIN_SHARED - 1] == opening
        and other.log[MIN_SHARED - 1] != game.log[MIN_SHARED - 1]
    )
    first = await send(client, proof_of(mode, game.code, game.log[:40]), name="Ana")
    second = await send(client, proof_of(mode, game.code, other.log), name="Bo")
    short = await send(client, proof_of(mode, game.code, game.log[:3]), name="Cy")
    assert (first[0], second[0], short[0]) == (201, 201, 201)


def test_a_store_made_before_checkpoints_counts_them_when_it_opens(tmp_path: Path) -> None:
    path = tmp_path / "leaderboard.db"
    game = daily_game(5, 40)
    text = proof_of(game.mode, game.code, game.log)
    old = sqlite3.connect(path)
    old.executescript(SCHEMA_1)
    old.execute(
        "INSERT INTO entries (game_key, mode, code, day, name, score, largest, moves, played,"
        " assisted, proof, submitted) VALUES (?, ?, ?, NULL, 'Ana', 1, 2, 40, 'unassisted',"
        " 0, ?, 0)",
        (game_key(replay(text, registry().modes.get)), game.mode.id, game.code, text),
    )
    old.execute(f"PRAGMA application_id = {store.APPLICATION_ID}")
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    boards = SqliteBoards(path)
    try:
        [entry] = boards.board(game.mode.id, game.code, assisted=True, limit=10)
        assert entry.actions == 40
        keys = checkpoints(replay(text, registry().modes.get))
        assert len(keys) == 2 and [e.id for e in boards.related(keys[:1])] == [entry.id]
    finally:
        boards.close()
