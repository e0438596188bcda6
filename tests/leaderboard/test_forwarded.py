"""Forwarded addresses are trusted only from the proxies named at start.

Behind ``--proxy``, a request must come through exactly those hops (aiohttp-remotes'
XForwardedStrict), and each client's address is the one the proxy appended: rotating the
addresses a client writes into X-Forwarded-For itself gets no fresh rate limit.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from aiohttp.test_utils import TestClient, TestServer

from twofold.leaderboard.server import Leaderboard
from twofold.ui.command.cli import main

from .conftest import daily_result

CLIENT = "203.0.113.7"


def results() -> Iterator[str]:
    seed = 60
    while True:
        seed += 1
        yield daily_result(seed)


async def post(client: TestClient, result: str, forwarded: str | None) -> int:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    response = await client.post(
        "/api/results", json={"result": result, "name": "Ana"}, headers=headers
    )
    assert "error" in await response.json() or response.status < 400
    return response.status


async def test_rotating_forwarded_addresses_gets_no_fresh_limit(boards, checker) -> None:  # type: ignore[no-untyped-def]
    now = [1000.0]
    # the test's client connects from 127.0.0.1: here it is the proxy
    service = Leaderboard(
        boards, checker, rate=60, burst=2, clock=lambda: now[0], proxies=[["127.0.0.1"]]
    )
    sent = results()
    async with TestClient(TestServer(service.app())) as client:
        # the proxy appends the address each request came from
        honest = [await post(client, next(sent), CLIENT) for _post in range(3)]
        assert honest == [201, 201, 429]
        # a client writing addresses of its own in front of its real one gains nothing
        rotated = [
            await post(client, next(sent), f"198.51.100.{n}, {CLIENT}") for n in range(1, 30)
        ]
        assert 201 not in rotated and set(rotated) == {400}
        # nor does a request that did not come through the proxy
        assert await post(client, next(sent), None) == 400


async def test_without_proxies_x_forwarded_for_is_not_read(boards, checker) -> None:  # type: ignore[no-untyped-def]
    now = [1000.0]
    service = Leaderboard(boards, checker, rate=60, burst=2, clock=lambda: now[0])
    sent = results()
    async with TestClient(TestServer(service.app())) as client:
        statuses = [await post(client, next(sent), f"198.51.100.{n}") for n in range(1, 6)]
        assert statuses == [201, 201, 429, 429, 429]


def test_the_command_line_names_its_proxies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["leaderboard", "--trust-forwarded"]) == 2
    assert "--proxy ADDRESSES" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["leaderboard", "--proxy", "not-an-address"])
    assert exit_.value.code == 2
    assert "not-an-address" in capsys.readouterr().err
