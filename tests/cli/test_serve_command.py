"""``twofold serve`` without a browser: its mistakes are one line and exit 2; links; the page."""

from __future__ import annotations

import asyncio
import html
import importlib.util
import socket
from typing import Any

import pytest

from twofold.ui.app import links
from twofold.ui.command import serve
from twofold.ui.command.cli import main

has_web = importlib.util.find_spec("textual_serve") is not None


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


class NoServer:
    """Stands in for the web server: records what it was given and returns at once."""

    made: list[NoServer] = []  # noqa: RUF012

    def __init__(self, listening: socket.socket, url: str, **options: Any) -> None:
        self.listening, self.url, self.options = listening, url, options
        NoServer.made.append(self)

    def serve(self) -> None:
        self.listening.close()


@pytest.fixture
def no_server(monkeypatch: pytest.MonkeyPatch) -> list[NoServer]:
    pytest.importorskip("textual_serve")
    import twofold.ui.web.server

    NoServer.made = []
    monkeypatch.setattr(twofold.ui.web.server, "GameServer", NoServer)
    return NoServer.made


def test_without_the_web_extra_it_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(serve, "web_extra_missing", lambda: True)
    assert main(["serve"]) == 2
    line = one_line(capsys.readouterr().err)
    assert "pip install 'twofold[web]'" in line


def test_a_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str], no_server: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    line = one_line(capsys.readouterr().err)
    assert f"port {port} is already in use" in line
    assert not no_server


@pytest.mark.parametrize(
    ("host", "said"),
    [
        ("192.0.2.1", "cannot listen on 192.0.2.1"),  # TEST-NET: no interface of ours has it
        ("no such host!", "cannot listen on host 'no such host!'"),
    ],
)
def test_a_host_that_cannot_be_bound_is_one_line(
    host: str, said: str, capsys: pytest.CaptureFixture[str], no_server: Any
) -> None:
    assert main(["serve", "--host", host, "--port", "0"]) == 2
    assert said in one_line(capsys.readouterr().err)


def test_a_port_out_of_range_is_one_line(
    capsys: pytest.CaptureFixture[str], no_server: Any
) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "not between 0 and 65535" in one_line(capsys.readouterr().err)


def test_loopback_serves_quietly_and_prints_the_url(
    capsys: pytest.CaptureFixture[str], no_server: list[NoServer]
) -> None:
    assert main(["serve", "--port", "0"]) == 0
    out, err = capsys.readouterr()
    (made,) = no_server
    assert made.url.startswith("http://127.0.0.1:") and made.url in out
    assert err == ""


def test_any_other_host_warns_in_one_line(
    capsys: pytest.CaptureFixture[str], no_server: list[NoServer]
) -> None:
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    line = one_line(capsys.readouterr().err)
    assert "warning" in line and "anyone who can reach it can play as you" in line


# -- links ------------------------------------------------------------------------------------


def test_a_terminal_copies_the_share_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(links.SERVED_AT, raising=False)
    assert links.game_link("2048", "0000200G") == "2048/0000-200G"  # the code as people see it


def test_a_served_app_copies_a_link_to_its_page(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(links.SERVED_AT, "http://example.test:8000")
    link = links.game_link("2048-5x5", "0000200G")
    assert link == "http://example.test:8000/?game=2048-5x5/0000-200G"


def test_the_page_title_names_the_game() -> None:
    assert links.page_title() == "twofold"
    assert links.page_title("2248 Blitz") == "2248 Blitz · twofold"


# -- the page ---------------------------------------------------------------------------------


@pytest.mark.skipif(not has_web, reason="needs the web extra")
def test_a_page_for_a_bad_link_is_a_clear_error_not_an_app() -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from twofold.ui.web.server import GameServer

    async def fetch() -> list[tuple[int, str]]:
        with socket.socket() as unused:
            server = GameServer(unused, "http://127.0.0.1:1/")
            client = TestClient(TestServer(await server.web_application()))
            await client.start_server()
            try:
                answers = []
                for path in ("/?game=2048/0000200G", "/?game=2048/NOPE", "/?game=9999/0000200G"):
                    response = await client.get(path)
                    answers.append((response.status, html.unescape(await response.text())))
                # a page of another site may not open a game here
                response = await client.get("/ws", headers={"Origin": "http://elsewhere.test"})
                answers.append((response.status, await response.text()))
                return answers
            finally:
                await client.close()

    (good, bad_code, bad_mode, foreign) = asyncio.run(fetch())
    assert good[0] == 200 and "<title>2048 · twofold</title>" in good[1]
    assert "/ws/game/2048/0000-200G" in good[1]
    assert bad_code[0] == 400 and "NOPE" in bad_code[1]
    assert bad_mode[0] == 400 and "unknown mode '9999'" in bad_mode[1]
    assert foreign[0] == 403
