"""Leaderboard servers as processes: 50 concurrent clients, kill -9 mid-load, PostgreSQL shared.

Every result is counted once, whichever server takes it and however often it is sent, and
no entry a server acknowledged is lost when it is killed.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from twofold.leaderboard.boards import APPLICATION_ID
from twofold.ui.submission import SendError, send_result

from .conftest import daily_result
from .servers import leaderboard, postgresql

CLIENTS = 50


def board(address: str) -> list[dict]:
    url = address + "api/daily/2048-daily?assisted=1&limit=1000"
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())["entries"]


def send_all(addresses: list[str], results: list[str]) -> list[int]:
    """Every result sent by one of CLIENTS threads, spread over the servers; the ranks."""

    def one(number: int) -> int:
        address = addresses[number % len(addresses)]
        # each result twice, by its one sender (anyone else is told whose game it is)
        return send_result(
            address, results[number % len(results)], f"c{number % len(results)}"
        ).rank

    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(one, range(2 * len(results))))


@pytest.mark.slow
def test_fifty_clients_each_result_counted_once_on_sqlite(tmp_path: Path) -> None:
    results = [daily_result(seed) for seed in range(CLIENTS)]
    database = tmp_path / "board.db"
    with leaderboard(str(database), tmp_path) as (_server, address):
        ranks = send_all([address], results)  # every result twice, at once
        entries = board(address)
    assert len(entries) == len(results) and all(rank >= 1 for rank in ranks)
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    header = database.read_bytes()[:100]
    assert int.from_bytes(header[68:72], "big") == APPLICATION_ID
    assert header[18:20] == b"\x02\x02"  # WAL


@pytest.mark.slow
def test_kill_9_mid_load_loses_no_acknowledged_entry(tmp_path: Path) -> None:
    results = [daily_result(seed) for seed in range(100, 100 + 4 * CLIENTS)]
    database = str(tmp_path / "board.db")
    acknowledged: list[str] = []
    with leaderboard(database, tmp_path) as (server, address):

        def one(result: str) -> None:
            try:
                send_result(address, result, "k")
            except SendError:
                return  # sent as the server died: never acknowledged
            acknowledged.append(result)
            if len(acknowledged) == 40:
                os.kill(server.pid, signal.SIGKILL)

        with ThreadPoolExecutor(CLIENTS // 5) as pool:
            list(pool.map(one, results))
        server.wait(30)
    assert 40 <= len(acknowledged) < len(results)
    with leaderboard(database, tmp_path) as (_again, address):
        kept = {entry["name"] for entry in board(address)}
        assert len(board(address)) >= len(acknowledged)
        for result in acknowledged:  # each one is there: sending it again finds it
            assert send_result(address, result, "k").new is False
    assert kept == {"k"}


@pytest.mark.slow
def test_two_servers_share_one_postgresql(tmp_path: Path) -> None:
    results = [daily_result(seed) for seed in range(300, 300 + CLIENTS)]
    with (
        postgresql(tmp_path / "pg") as url,
        leaderboard(url, tmp_path) as (_one, first),
        leaderboard(url, tmp_path) as (_two, second),
    ):
        send_all([first, second], results)
        assert len(board(first)) == len(results)
        assert board(first) == board(second)
