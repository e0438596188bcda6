"""Floods a page sends, a frame nested deep, and the first SIGINT.

A flood of any kind of frame is paced, a resize or focus flood reaches the app as a few
messages ending in the page's last word, a deep frame is dropped (not the page), and a stop
(the first SIGINT) ends every page at once, however much it had queued.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from typing import Any

import pytest

pytest.importorskip("textual_serve")

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from tests.cli.test_serve_bounds import NoApp, in_process
from twofold.ui.command.serve import allowed_hosts
from twofold.ui.web import server as web

#: more frames of one kind than a page sends in a minute of use
FLOOD = 400


class Recorded(NoApp):
    """The page's app that never starts, recording focus and blur too."""

    async def blur(self) -> None:
        NoApp.asked.append(("blur",))

    async def focus(self) -> None:
        NoApp.asked.append(("focus",))


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    NoApp.asked = []
    monkeypatch.setattr(web, "GameService", Recorded)
    # the pace is not what these tests are about: a flood passes at once
    monkeypatch.setattr(web, "INPUT_RATE", 10**9)
    return NoApp.asked


async def until(condition: Any, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.02)


def test_a_frame_nested_deep_is_dropped_and_the_page_plays_on(
    asked: list[tuple[Any, ...]],
) -> None:
    """One frame of 4,000 "[" closed the page: "maximum recursion depth exceeded"."""

    async def talk(client: TestClient) -> None:
        websocket = await client.ws_connect("/ws")
        await websocket.send_str("[" * 4_000)
        await websocket.send_str(json.dumps(["stdin", "[[[[[[ a paste of brackets ]]]]]]"]))
        await websocket.send_str(json.dumps(["stdin", "q"]))
        await until(lambda: ("stdin", b"q") in asked)
        await websocket.close()

    in_process(talk)
    assert ("stdin", b"[[[[[[ a paste of brackets ]]]]]]") in asked


def test_a_flood_of_resizes_reaches_the_app_as_a_few(asked: list[tuple[Any, ...]]) -> None:
    """60 s of resizes took a page's process from 44 MB to 979 MB: each one was passed on."""
    sizes = [(100 + n % 2, 30 + n % 3) for n in range(FLOOD)] + [(150, 50)]

    async def talk(client: TestClient) -> None:
        websocket = await client.ws_connect("/ws")
        for width, height in sizes:
            await websocket.send_str(json.dumps(["resize", {"width": width, "height": height}]))
        await websocket.send_str(json.dumps(["stdin", "q"]))
        last = ("resize", *sizes[-1])
        await until(lambda: ("stdin", b"q") in asked and last in asked)
        await websocket.close()

    in_process(talk)
    resizes = [entry for entry in asked if entry[0] == "resize"]
    assert resizes[-1] == ("resize", *sizes[-1])
    assert len(resizes) < FLOOD // 10


def test_a_resize_to_the_size_it_has_is_not_passed_on(asked: list[tuple[Any, ...]]) -> None:
    async def talk(client: TestClient) -> None:
        websocket = await client.ws_connect("/ws?width=90&height=30")
        for _ in range(20):
            await websocket.send_str(json.dumps(["resize", {"width": 90, "height": 30}]))
        await websocket.send_str(json.dumps(["resize", {"width": 91, "height": 30}]))
        await until(lambda: ("resize", 91, 30) in asked)
        await websocket.close()

    in_process(talk)
    assert [entry for entry in asked if entry[0] == "resize"] == [("resize", 91, 30)]


def test_a_flood_of_focus_and_blur_reaches_the_app_as_a_few(
    asked: list[tuple[Any, ...]],
) -> None:
    """A focus/blur flood grew a page's process to 339 MB in 20 s."""

    async def talk(client: TestClient) -> None:
        websocket = await client.ws_connect("/ws")
        for number in range(FLOOD):
            await websocket.send_str(json.dumps(["focus" if number % 2 else "blur"]))
        await until(lambda: asked[-1:] == [("focus",)])
        await websocket.close()

    in_process(talk)
    changes = [entry for entry in asked if entry[0] in ("focus", "blur")]
    assert changes[-1] == ("focus",) and len(changes) < FLOOD // 10


def test_every_kind_of_frame_is_paced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pings, resizes and focus changes were read as fast as a page sent them."""
    NoApp.asked = []
    monkeypatch.setattr(web, "GameService", Recorded)
    monkeypatch.setattr(web, "INPUT_RATE", 1_000)
    monkeypatch.setattr(web, "FRAME_LIMIT", 100)
    ping = json.dumps(["ping", "x" * 40])

    async def talk(client: TestClient) -> float:
        websocket = await client.ws_connect("/ws")
        start = time.monotonic()
        for _ in range(25):  # 25 pings of 50 bytes: 1,150 bytes past the burst
            await websocket.send_str(ping)
        pongs = 0
        while pongs < 25:
            message = await websocket.receive(timeout=30)
            pongs += message.type == aiohttp.WSMsgType.TEXT
        took = time.monotonic() - start
        await websocket.close()
        return took

    assert in_process(talk) >= 1.0


class Watched(web.Pace):
    """The server's pace, telling the test when a page waits on it."""

    async def spend(self, size: int) -> None:
        NoApp.asked.append(("pace", size))
        await super().spend(size)


def test_a_stop_ends_at_once_a_page_that_waits_on_its_pace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a flood SIGINT waited for every queued frame (40 s, then a second SIGINT):
    here a page owes minutes of its pace when the server stops."""
    NoApp.asked = []
    monkeypatch.setattr(web, "GameService", Recorded)
    monkeypatch.setattr(web, "Pace", Watched)
    monkeypatch.setattr(web, "INPUT_RATE", 1)  # a byte a second, past the first 8 KiB

    async def run() -> float:
        with socket.socket() as unused:
            server = web.GameServer(
                unused, "http://127.0.0.1:1/", hosts=allowed_hosts("127.0.0.1", [])
            )
            client = TestClient(TestServer(await server.web_application()))
            await client.start_server()
            websocket = await client.ws_connect("/ws")
            await websocket.send_str(json.dumps(["stdin", "x" * 8_000]))
            await websocket.send_str(json.dumps(["stdin", "y" * 500]))
            await until(lambda: ("stdin", b"x" * 8_000) in NoApp.asked)
            await until(lambda: [entry[0] for entry in NoApp.asked].count("pace") == 2)
            began = time.monotonic()
            await client.server.close()  # the server's stop, as SIGINT makes it
            took = time.monotonic() - began
            await client.close()
            return took

    assert asyncio.run(run()) < web.STOP_SECONDS
    assert ("stdin", b"y" * 500) not in NoApp.asked  # what it had queued was dropped
