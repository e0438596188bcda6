"""What a web page can ask of ``twofold serve``, and what outlives it.

Only the hosts the server was started for are answered (DNS rebinding), sizes and frames
are bounded, so is the number of pages, and no page's process outlives a killed server.
Some tests run a real ``twofold serve`` and talk to it as a page's websocket does; the
others drive the server's web application in this process, with the page's app replaced.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual_serve")

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from tests.browser.served import Served, start_server
from tests.processes import alive
from tests.waiting import wait_until
from twofold.core.codes import code_from_text
from twofold.core.store import open_store
from twofold.ui.command.serve import allowed_hosts
from twofold.ui.web import server as web

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads processes from /proc"
)
CODE = code_from_text("served bounds")
#: generous: the machine is shared and each page starts a Python process
WAIT = 30.0


# -- processes --------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    """The running processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int(Path(entry, "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if parent == pid and alive(int(entry.name)):
                found.append(int(entry.name))
    return found


def environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    pairs = (item.decode(errors="replace").partition("=") for item in raw if item)
    return {name: value for name, _sep, value in pairs}


@pytest.fixture
def served(twofold_home: Path) -> Iterator[Served]:
    server = start_server(twofold_home)
    yield server
    server.stop()


def websocket_url(served: Served, path: str = "ws") -> str:
    return served.url.replace("http://", "ws://") + path


def port_of(served: Served) -> int:
    return int(served.url.rstrip("/").rsplit(":", 1)[1])


async def first_screen(websocket: aiohttp.ClientWebSocketResponse) -> None:
    """Wait until the page's app has drawn (sent terminal output)."""
    message = await asyncio.wait_for(websocket.receive(), WAIT)
    assert message.type == aiohttp.WSMsgType.BINARY, message


async def next_output(websocket: aiohttp.ClientWebSocketResponse) -> aiohttp.WSMessage:
    """The next message that is not a pong."""
    while True:
        message = await asyncio.wait_for(websocket.receive(), WAIT)
        if message.type != aiohttp.WSMsgType.TEXT or not message.data.startswith('["pong"'):
            return message


# -- 12. DNS rebinding ------------------------------------------------------------------------


@linux_only
def test_a_page_of_another_name_is_refused_and_no_app_starts(served: Served) -> None:
    """A websocket to 127.0.0.1 with Host and Origin evil.example:P got 101 and an app."""
    port = port_of(served)
    evil = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}

    async def ask() -> tuple[int, str, int]:
        async with aiohttp.ClientSession() as client:
            page = await client.get(served.url, headers={"Host": evil["Host"]})
            text = await page.text()
            try:
                websocket = await client.ws_connect(websocket_url(served), headers=evil)
            except aiohttp.WSServerHandshakeError as refused:
                return page.status, text, refused.status
            await websocket.close()
            return page.status, text, 101

    page, text, websocket = asyncio.run(ask())
    assert (page, websocket) == (403, 403)
    assert "--allow-host" in text and "evil.example" in text
    assert children(served.process.pid) == []


class NoApp(web.GameService):
    """A page's app that never starts: records what the server asks of it."""

    asked: list[tuple[Any, ...]]  # set by the fixture

    async def start(self, width: int, height: int) -> None:
        NoApp.asked.append(("start", width, height))

    async def set_terminal_size(self, width: int, height: int) -> None:
        NoApp.asked.append(("resize", width, height))

    async def send_bytes(self, data: bytes) -> bool:
        NoApp.asked.append(("stdin", data))
        return True

    async def stop_within(self, seconds: float) -> None:
        NoApp.asked.append(("stop",))


@pytest.fixture
def no_app(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    NoApp.asked = []
    monkeypatch.setattr(web, "GameService", NoApp)
    return NoApp.asked


def in_process(
    talk: Callable[[TestClient], Any], *, hosts: frozenset[str] | None = None, max_pages: int = 8
) -> Any:
    """Run ``talk`` against the server's web application, in this process."""

    async def run() -> Any:
        with socket.socket() as unused:
            server = web.GameServer(
                unused,
                "http://127.0.0.1:1/",
                hosts=hosts if hosts is not None else allowed_hosts("127.0.0.1", []),
                max_pages=max_pages,
            )
            client = TestClient(TestServer(await server.web_application()))
            await client.start_server()
            try:
                return await talk(client)
            finally:
                await client.close()

    return asyncio.run(run())


@pytest.mark.parametrize(
    "host",
    [
        "evil.example:8000",
        "evil.example",
        "localhost.evil.example:8000",
        "127.0.0.1.evil:80",
        "localhost:port",
        "me@localhost",
        "localhost?x",
        "",
    ],
)
@pytest.mark.parametrize("path", ["/", "/ws", "/ws/game/2048/0000200G", "/static/js/textual.js"])
def test_every_request_for_another_host_is_refused(
    host: str, path: str, no_app: list[tuple[Any, ...]]
) -> None:
    async def talk(client: TestClient) -> int:
        headers = {"Host": host, "Connection": "Upgrade", "Upgrade": "websocket"}
        headers |= {"Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        response = await client.get(path, headers=headers)
        return response.status

    assert in_process(talk) == 403
    assert no_app == []


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:8000",
        "localhost:8000",
        "LOCALHOST.:8000",
        "[::1]:8000",
        "games.example:8000",
        "games.example",
        "10.1.2.3:8000",
    ],
)
def test_the_hosts_it_was_started_for_are_answered(host: str) -> None:
    hosts = allowed_hosts("10.1.2.3", ["games.example"])

    async def talk(client: TestClient) -> tuple[int, str]:
        response = await client.get("/", headers={"Host": host})
        return response.status, await response.text()

    status, page = in_process(talk, hosts=hosts)
    assert status == 200 and f"ws://{host}/ws" in page


def test_listening_everywhere_answers_the_name_it_prints() -> None:
    assert socket.gethostname().lower() in allowed_hosts("0.0.0.0", [])
    assert allowed_hosts("127.0.0.1", []) == {"127.0.0.1", "localhost", "::1"}


@pytest.mark.parametrize("given", ["evil.example:8000", "http://x/", "a b", ""])
def test_a_bad_allow_host_is_one_line_and_exit_2(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from twofold.ui.command.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--allow-host", given])
    assert stopped.value.code == 2
    assert "is not a host name" in capsys.readouterr().err


# -- 13. sizes, frames, pages -----------------------------------------------------------------


def test_sizes_are_clamped_to_a_screen(no_app: list[tuple[Any, ...]]) -> None:
    """?width=100000 grew a page's process by 85 MB/s; a resize to -5x-5 crashed it."""
    messages = [
        ["resize", {"width": 100_000, "height": 100_000}],
        ["resize", {"width": -5, "height": -5}],
        ["resize", {"width": "120", "height": 40}],
        ["resize", {"width": True, "height": 40}],  # not a number: dropped
        ["resize", {"width": 90}],  # no height: dropped
        ["resize", [1, 2]],
        "not json",
        {"not": "a list"},
        ["stdin", "q"],
    ]

    most = (web.MAX_COLUMNS, web.MAX_ROWS)
    least = (web.MIN_COLUMNS, web.MIN_ROWS)
    # a resize reaches the app once the one before it has settled: each waits
    reaches = {0: ("resize", *most), 1: ("resize", *least), 2: ("resize", 120, 40)}

    async def talk(client: TestClient) -> None:
        websocket = await client.ws_connect("/ws?width=100000&height=-5")
        for number, message in enumerate(messages):
            text = message if isinstance(message, str) else json.dumps(message)
            await websocket.send_str(text)
            if number in reaches:
                deadline = time.monotonic() + WAIT
                while reaches[number] not in no_app and time.monotonic() < deadline:
                    await asyncio.sleep(0.02)
        await websocket.close()

    in_process(talk)
    assert [asked for asked in no_app if asked != ("stop",)] == [
        ("start", most[0], least[1]),
        ("resize", *most),
        ("resize", *least),
        ("resize", 120, 40),
        ("stdin", b"q"),
    ]
    assert no_app[-1] == ("stop",)


def test_a_screen_size_is_from_one_cell_to_the_largest_screen() -> None:
    assert web.screen_size("100000", "100000") == (
        web.MAX_COLUMNS,
        web.MAX_ROWS,
    )
    assert web.screen_size(-5, 0) == (web.MIN_COLUMNS, web.MIN_ROWS)
    assert web.screen_size(" 90 ", 30) == (90, 30)
    assert web.screen_size("1e9", 30) is None
    assert web.screen_size(None, 30) is None
    assert web.screen_size(90.5, 30) is None


async def drawn_with(websocket: aiohttp.ClientWebSocketResponse, text: bytes) -> bool:
    """Wait until the app's output shows ``text``; False if the page ends first."""
    output = b""
    while text not in output:
        message = await next_output(websocket)
        if message.type != aiohttp.WSMsgType.BINARY:
            return False
        output += message.data
    return True


@linux_only
def test_a_page_process_gets_a_clamped_size_and_lives_through_a_negative_resize(
    served: Served,
) -> None:
    """A resize to -5x-5 ended the page's app (the menu's layout fails below 10 columns)."""

    async def open_page(query: str) -> tuple[dict[str, str], bool, bool]:
        async with (
            aiohttp.ClientSession() as client,
            client.ws_connect(websocket_url(served, f"ws?{query}")) as websocket,
        ):
            (page,) = wait_until(lambda: children(served.process.pid), WAIT)
            # between its fork and its exec a page still has the server's environment
            started = wait_until(lambda: "ROWS" in environment(page) and environment(page), WAIT)
            drawn = await drawn_with(websocket, b"twofold")  # the menu
            await websocket.send_json(["resize", {"width": -5, "height": -5}])
            await websocket.send_json(["resize", {"width": 90, "height": 30}])
            # the menu drawn again at 90x30: its app lived through -5x-5
            again = drawn and await drawn_with(websocket, b"twofold")
            return started, again, alive(page)

    huge, huge_drawn, huge_running = asyncio.run(open_page("width=100000&height=100000"))
    assert (huge["COLUMNS"], huge["ROWS"]) == (
        str(web.MAX_COLUMNS),
        str(web.MAX_ROWS),
    )
    assert huge_drawn and huge_running
    wait_until(lambda: not children(served.process.pid), WAIT)
    small, small_drawn, small_running = asyncio.run(open_page("width=-5&height=-5"))
    assert (small["COLUMNS"], small["ROWS"]) == (
        str(web.MIN_COLUMNS),
        str(web.MIN_ROWS),
    )
    assert small_drawn and small_running


@linux_only
def test_a_frame_over_the_cap_closes_the_page_and_ends_its_app(served: Served) -> None:
    """A 3.9 MB frame cost its page's process 314 MB."""

    async def play() -> tuple[aiohttp.WSMessage, int]:
        async with (
            aiohttp.ClientSession() as client,
            client.ws_connect(websocket_url(served)) as websocket,
        ):
            await first_screen(websocket)
            (page,) = children(served.process.pid)
            await websocket.send_json(["stdin", "x" * web.FRAME_LIMIT])
            message = await next_output(websocket)
            while message.type == aiohttp.WSMsgType.BINARY:
                message = await next_output(websocket)
            return message, page

    closed, page = asyncio.run(play())
    assert closed.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert closed.data == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    assert wait_until(lambda: not alive(page), WAIT)


def test_input_past_its_allowance_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []
    real_sleep = asyncio.sleep

    async def sleep(
        seconds: float,
    ) -> None:  # counts the waits, not the clock: a busy machine is slow
        slept.append(seconds)
        await real_sleep(seconds)

    monkeypatch.setattr(asyncio, "sleep", sleep)

    async def spend() -> tuple[list[float], float]:
        start = time.monotonic()
        pace = web.Pace(rate=1000, burst=100)
        await pace.spend(100)  # the burst: at once
        at_once = list(slept)
        await pace.spend(50)  # 50 bytes over: up to 0.05 s at 1000 bytes a second
        return at_once, time.monotonic() - start

    at_once, waited = asyncio.run(spend())
    assert at_once == []
    assert len(slept) <= 1 and all(0 < seconds <= 0.05 for seconds in slept)
    assert waited >= 0.05


@linux_only
def test_pages_over_the_cap_are_refused_with_a_clear_line(twofold_home: Path) -> None:
    """30 pages cost 44.9 MB each, with no cap."""
    served = start_server(twofold_home, "--max-pages", "2")

    async def play() -> tuple[int, str, int]:
        async with aiohttp.ClientSession() as client:
            first = await client.ws_connect(websocket_url(served))
            second = await client.ws_connect(websocket_url(served))
            await first_screen(first)
            await first_screen(second)
            page = await client.get(served.url)
            page_text = await page.text()
            try:
                third = await client.ws_connect(websocket_url(served))
                await third.close()
                refused = 101
            except aiohttp.WSServerHandshakeError as error:
                refused = error.status
            await first.close()
            # once a page has closed (its app saved and ended), a new one opens
            deadline = time.monotonic() + WAIT
            while True:
                try:
                    again = await client.ws_connect(websocket_url(served))
                    break
                except aiohttp.WSServerHandshakeError:
                    assert time.monotonic() < deadline, "no page opened after one closed"
                    await asyncio.sleep(0.1)
            await first_screen(again)
            await again.close()
            await second.close()
            return page.status, page_text, refused

    try:
        page, page_text, refused = asyncio.run(play())
    finally:
        served.stop()
    assert page == 503 and "2 pages are open" in page_text and "--max-pages" in page_text
    assert refused == 503


def test_help_names_the_page_cap_and_the_hosts(capsys: pytest.CaptureFixture[str]) -> None:
    from twofold.ui.command.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--max-pages N" in shown and "(default 8)" in shown
    assert "--allow-host NAME" in shown


# -- 14. no orphans ---------------------------------------------------------------------------


def saved_moves(home: Path) -> int:
    store = open_store(home)
    try:
        saved = store.load_save("2048")
    finally:
        store.close()
    return 0 if saved is None else len(saved.actions)


def play_json(home: Path, lines: str) -> list[dict[str, Any]]:
    env = {**os.environ, "TWOFOLD_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    result = subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", "play", "2048", "--json"],
        input=lines.encode(),
        capture_output=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


@linux_only
def test_no_page_process_outlives_a_killed_server(twofold_home: Path) -> None:
    """kill -9 on the server left every page's process running, holding its mode's seat."""
    served = start_server(twofold_home)
    pages: list[int] = []

    async def play() -> None:
        async with aiohttp.ClientSession() as client:
            url = websocket_url(served, f"ws/game/2048/{CODE}")
            async with client.ws_connect(url) as websocket:
                await first_screen(websocket)
                pages.extend(children(served.process.pid))
                deadline = time.monotonic() + WAIT
                keys = ["\x1b[B", "\x1b[D", "\x1b[C", "\x1b[A"]
                while saved_moves(twofold_home) == 0:  # a move the page made, saved
                    assert time.monotonic() < deadline, "the page's moves were never saved"
                    await websocket.send_json(["stdin", keys[0]])
                    keys = keys[1:] + keys[:1]
                    await asyncio.sleep(0.2)
                served.process.kill()
                served.process.wait()

    try:
        asyncio.run(play())
        assert len(pages) == 1
        assert wait_until(lambda: not alive(pages[0]), timeout=15), "the page's process lives on"
    finally:
        for pid in pages:  # on a failure, no process of this test is left behind
            if alive(pid):
                os.kill(pid, 9)
        served.stop()
    moves = saved_moves(twofold_home)
    first, *_ = play_json(twofold_home, "quit\n")
    assert "notice" not in first, first["notice"]  # the seat is free: no "another window"
    assert first["code"] == CODE and first["moves"] == moves
    later = play_json(twofold_home, "left\ndown\nright\nup\nquit\n")
    assert saved_moves(twofold_home) == moves + sum(reply["changed"] for reply in later[1:5])


def test_a_page_process_whose_server_is_already_gone_does_not_start(twofold_home: Path) -> None:
    """Started after its server died (its parent is not the server): it ends at once."""
    gone = ["--server", "1", "--served-at", "x"]
    result = subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.page_process", *gone, "play", "2048", "--json"],
        input=b"left\nquit\n",
        capture_output=True,
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (0, b"")


def test_a_page_process_runs_twofold_told_its_page_address(twofold_home: Path) -> None:
    script = (
        "import os, sys; from twofold.ui.command import page_process;"
        "code = page_process.main(['--server', str(os.getppid()), '--served-at',"
        " 'http://127.0.0.1:8123', 'play', '2048', '--json']);"
        "print(os.environ['TWOFOLD_SERVED_AT'], file=sys.stderr); sys.exit(code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], input=b"quit\n", capture_output=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert replies and replies[0]["mode"] == "2048"
    assert result.stderr.decode().strip() == "http://127.0.0.1:8123"


@linux_only
async def test_a_page_stop_cut_short_by_the_servers_end_still_ends_its_app() -> None:
    """The loop's last cancel can land in a slow stop: the app is killed and reaped first,
    so no process or pipe outlives the loop ("Event loop is closed" at exit)."""
    service = web.GameService(
        "true", write_bytes=_nothing, write_str=_nothing, close=_nothing, download_manager=None
    )
    process = await asyncio.create_subprocess_exec(
        "sleep", "60", stdout=asyncio.subprocess.PIPE, stdin=asyncio.subprocess.PIPE
    )
    service._process = process  # what textual-serve's start sets: see ui/web/serve_private.py

    async def slow_stop() -> None:
        await asyncio.sleep(60)

    service.stop = slow_stop  # type: ignore[method-assign]
    stopping = asyncio.ensure_future(service.stop_within(30))
    await asyncio.sleep(0.2)
    stopping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopping
    assert process.returncode is not None  # killed and reaped, not left to the loop's end


async def _nothing(*_args: object) -> None:
    return None
