"""The leaderboard's errors: JSON ``{"error": …}`` with the right status, never a 500 for bad input.

A fuzz of malformed requests (bodies, paths, methods, headers, numbers past 64 bits), and a
store that cannot be reached: 503 with a reason and Retry-After, one log line however many
requests come while it is down.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator, Sequence

import pytest
from aiohttp.test_utils import TestClient, TestServer

from twofold.core.daily import utc_today
from twofold.core.result import result_text
from twofold.leaderboard.boards import Entry, NewEntry, SqliteBoards, StoreUnavailable
from twofold.leaderboard.server import Leaderboard
from twofold.leaderboard.verifier import Checker

from .conftest import daily_game, daily_result

#: bad bodies for POST /api/results (each must be refused with 4xx and a JSON reason)
BODIES: list[bytes] = [
    b"[" * 100_000,
    b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    b"\xff\xfe\x00",
    b"",
    b"null",
    b"1e999999",
    b"9" * 5000,
    b'{"result": 5, "name": "x"}',
    b'{"result": "x", "name": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
    b'{"result": "' + b"\\ud800" * 100 + b'", "name": "x"}',
    b'{"result": "TF1", "name": "x"}',
]
#: bad paths and queries for GET
PATHS: list[str] = [
    "/api/entries/99999999999999999999999",
    "/api/entries/" + "9" * 5000,
    "/api/entries/-1",
    "/api/entries/0",
    "/api/entries/9223372036854775808",
    "/api/entries/1e9",
    "/api/entries/%00",
    "/api/entries/99999999999999999999999/replay",
    "/replay/99999999999999999999999",
    "/api/daily/2048-daily?offset=99999999999999999999999",
    "/api/daily/2048-daily?limit=" + "9" * 5000,
    "/api/daily/2048-daily?limit=-99999999999999999999999&offset=x",
    "/api/daily/2048-daily/99999-99-99",
    "/api/daily/%ff%fe",
    "/api/nothing",
    "/" + "a/" * 1000,
]


def headline_result(digits: int) -> str:
    """A real result whose headline claims a score of ``digits`` digits."""
    game = daily_game(7, 20)
    lines = result_text(game, day=utc_today()).splitlines()
    head, _sep, _rest = lines[0].partition(": ")
    lines[0] = f"{head}: {'9' * digits} · 2048"
    return "\n".join(lines)


def assert_json_error(status: int, content_type: str, body: object, *, allowed: set[int]) -> None:
    assert status in allowed, (status, body)
    assert content_type == "application/json", (status, content_type, body)
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"]
    assert "\n" not in body["error"] and "Traceback" not in body["error"]


async def test_bad_bodies_get_a_json_reason_never_a_500(client: TestClient) -> None:
    for body in BODIES:
        response = await client.post(
            "/api/results", data=body, headers={"Content-Type": "application/json"}
        )
        found = await response.json()
        assert_json_error(response.status, response.content_type, found, allowed={400, 422})


async def test_huge_ids_and_numbers_are_not_found_or_bad_never_a_500(client: TestClient) -> None:
    for path in PATHS:
        response = await client.get(path)
        found = await response.json()
        if "offset=9" in path:  # past the last entry: an empty board
            assert response.status == 200 and found["entries"] == []
            continue
        assert_json_error(response.status, response.content_type, found, allowed={400, 404})


async def test_a_headline_of_five_thousand_digits_is_refused_with_its_reason(
    client: TestClient,
) -> None:
    response = await client.post(
        "/api/results", json={"result": headline_result(5000), "name": "Ana"}
    )
    found = await response.json()
    assert_json_error(response.status, response.content_type, found, allowed={422})


async def test_every_error_status_is_json(client: TestClient) -> None:
    wrong_method = await client.put("/api/results", data=b"{}")
    assert_json_error(
        wrong_method.status, wrong_method.content_type, await wrong_method.json(), allowed={405}
    )
    assert "POST" in wrong_method.headers["Allow"]
    other_host = await client.get("/", headers={"Host": "evil.example"})
    assert_json_error(
        other_host.status, other_host.content_type, await other_host.json(), allowed={403}
    )
    big = await client.post(
        "/api/results", data=b"x" * (600 * 1024), headers={"Content-Type": "application/json"}
    )
    assert_json_error(big.status, big.content_type, await big.json(), allowed={413})
    page = await client.get("/replay/12345")
    assert_json_error(page.status, page.content_type, await page.json(), allowed={404})


async def test_a_fuzz_of_malformed_requests_gets_json_and_no_5xx(client: TestClient) -> None:
    rng = random.Random(43)
    good = daily_result(3, 12).encode()
    methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
    paths = [
        "/",
        "/api/results",
        "/api/entries/1",
        "/api/daily/2048-daily",
        "/api/boards/2048/X",
        "/replay/1",
    ]
    for _number in range(300):  # bounded: 300 requests, each cut from a good one
        body = bytearray(good)
        for _cut in range(rng.randint(1, 8)):
            where = rng.randrange(len(body))
            body[where : where + rng.randint(0, 4)] = bytes(
                rng.randrange(256) for _ in range(rng.randint(0, 3))
            )
        tail = rng.choice(["", "/x", "?limit=x", "/%ff", "/" + "9" * 30])
        path = (rng.choice(paths).rstrip("/") + tail) or "/"
        method = rng.choice(methods)
        envelope = rng.choice(
            [bytes(body), b'{"result": ' + repr(bytes(body)).encode() + b', "name": "x"}']
        )
        response = await client.request(
            method, path, data=envelope, headers={"Content-Type": "application/json"}
        )
        assert response.status < 500, (method, path, response.status)
        if response.status >= 400 and method != "HEAD":
            found = await response.json()
            assert_json_error(
                response.status, response.content_type, found, allowed=set(range(400, 500))
            )


class Unreachable:
    """A store whose database is down until ``up`` is set."""

    def __init__(self, real: SqliteBoards) -> None:
        self.real = real
        self.up = False

    def _check(self) -> None:
        if not self.up:
            raise StoreUnavailable("cannot reach the database: connection refused")

    def add(self, entry: NewEntry) -> tuple[Entry, bool]:
        self._check()
        return self.real.add(entry)

    def board(
        self, mode: str, code: str, *, assisted: bool, limit: int, offset: int = 0
    ) -> list[Entry]:
        self._check()
        return self.real.board(mode, code, assisted=assisted, limit=limit, offset=offset)

    def entry(self, entry_id: int) -> Entry | None:
        self._check()
        return self.real.entry(entry_id)

    def related(self, checkpoints: Sequence[str]) -> list[Entry]:
        self._check()
        return self.real.related(checkpoints)

    def name_like(self, mode: str, code: str, key: str, name: str) -> str | None:
        self._check()
        return self.real.name_like(mode, code, key, name)

    def replay(self, entry_id: int) -> bytes | None:
        self._check()
        return self.real.replay(entry_id)

    def update(self, entry_id: int, entry: NewEntry) -> Entry:
        self._check()
        return self.real.update(entry_id, entry)

    def close(self) -> None:
        self.real.close()


@pytest.fixture
def down(boards: SqliteBoards) -> Iterator[Unreachable]:
    yield Unreachable(boards)


async def test_a_store_that_cannot_be_reached_is_503_with_retry_after_and_one_log_line(
    down: Unreachable, checker: Checker, caplog: pytest.LogCaptureFixture
) -> None:
    service = Leaderboard(down, checker, rate=6000, burst=6000)  # type: ignore[arg-type]
    caplog.set_level(logging.INFO, logger="twofold.leaderboard")
    async with TestClient(TestServer(service.app())) as client:
        for _round in range(3):
            for response in (
                await client.post("/api/results", json={"result": daily_result(5), "name": "A"}),
                await client.get("/api/daily/2048-daily"),
                await client.get("/api/entries/1"),
                await client.get("/"),
            ):
                found = await response.json()
                assert_json_error(response.status, response.content_type, found, allowed={503})
                assert int(response.headers["Retry-After"]) >= 1
        down_lines = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(down_lines) == 1 and not down_lines[0].exc_info
        down.up = True
        response = await client.post("/api/results", json={"result": daily_result(5), "name": "A"})
        assert response.status == 201
    assert not any(r.exc_info for r in caplog.records)
