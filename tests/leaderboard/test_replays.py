"""Replays are made once, when an entry is accepted, and reads are rate-limited.

Fetching a replay sends what was kept at acceptance: it never replays the proof, and never
in the workers that check submissions, so an honest submission is answered at once while
clients fetch the longest replay on the board over and over.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from tests.long_games import back_and_forth
from twofold.leaderboard.server import Leaderboard
from twofold.leaderboard.verifier import MAX_FRAMES, Checker

from .conftest import daily_result
from .test_api import send

LONG = 100_000


async def test_an_honest_submission_is_answered_while_four_clients_fetch_replays(
    client: TestClient, checker: Checker, monkeypatch: Any
) -> None:
    status, long_entry = await send(client, back_and_forth(LONG, "long replay"), name="long")
    assert status == 201 and long_entry["actions"] == LONG
    work: list[str] = []
    run = checker.run

    async def counted(task: Any, *args: Any) -> Any:
        work.append(task.__name__)
        return await run(task, *args)

    monkeypatch.setattr(checker, "run", counted)
    url = f"/api/entries/{long_entry['id']}/replay"

    async def fetch_replays() -> list[bytes]:
        bodies = []
        for _fetch in range(5):
            # kept gzipped, as a browser takes it: the test's own client inflating and
            # parsing a megabyte of JSON would hold the event loop the server runs on
            response = await client.get(url, auto_decompress=False)
            assert response.status == 200
            bodies.append(await response.read())
        return bodies

    fetchers = [asyncio.create_task(fetch_replays()) for _client in range(4)]
    await asyncio.sleep(0)
    started = time.monotonic()
    status, honest = await send(client, daily_result(40), name="honest")
    answered = time.monotonic() - started
    fetched = await asyncio.gather(*fetchers)
    assert status == 201 and honest["new"] is True
    # the replays took no worker: the one piece of work the workers did was the submission
    assert work == ["check"]
    steps = {
        len(json.loads(gzip.decompress(body))["boards"]) for bodies in fetched for body in bodies
    }
    assert steps == {MAX_FRAMES + 1}
    assert answered < 1.0, answered


async def test_a_replay_is_the_game_kept_when_it_was_accepted(client: TestClient) -> None:
    _status, entry = await send(client, daily_result(41))
    plain = await client.get(
        f"/api/entries/{entry['id']}/replay", headers={"Accept-Encoding": "identity"}
    )
    zipped = await client.get(f"/api/entries/{entry['id']}/replay")
    assert plain.headers.get("Content-Encoding") is None
    assert zipped.headers.get("Content-Encoding") == "gzip"
    assert await plain.json() == await zipped.json()
    assert len((await plain.json())["boards"]) == 41


async def test_reads_are_rate_limited_as_submissions_are(boards, checker) -> None:  # type: ignore[no-untyped-def]
    now = [1000.0]
    service = Leaderboard(boards, checker, read_rate=60, read_burst=2, clock=lambda: now[0])
    async with TestClient(TestServer(service.app())) as client:
        statuses = [(await client.get("/api/daily/2048-daily")).status for _read in range(3)]
        assert statuses == [200, 200, 429]
        refused = await client.get("/api/entries/1/replay")
        assert refused.status == 429 and refused.headers["Retry-After"] == "1"
        assert "too many requests" in (await refused.json())["error"]
        now[0] += 1.0
        assert (await client.get("/api/daily/2048-daily")).status == 200
