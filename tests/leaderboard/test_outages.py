"""A leaderboard process when what it stands on fails: its PostgreSQL stopped and started under
it (503 with a reason and Retry-After, one log line, back by itself), malformed requests on the
wire (no 5xx, no traceback), and kill -9 of the server (its workers end with it).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import alive, descendants
from tests.waiting import wait_until

from .conftest import daily_result
from .servers import leaderboard, postgresql


def call(address: str, path: str, body: dict | None = None) -> tuple[int, str, dict, str]:
    """(status, content type, JSON body, Retry-After) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        address + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers.get_content_type(), json.load(response), ""
    except urllib.error.HTTPError as error:
        kind = error.headers.get_content_type()
        return error.code, kind, json.loads(error.read()), error.headers.get("Retry-After", "")


def submit(address: str, seed: int) -> tuple[int, str, dict, str]:
    return call(address, "api/results", {"result": daily_result(seed), "name": "Pg"})


@pytest.mark.slow
def test_postgresql_stopped_and_started_under_the_leaderboard(tmp_path: Path) -> None:
    with (
        postgresql(tmp_path / "pg") as cluster,
        leaderboard(cluster, tmp_path) as (server, address),
    ):
        assert submit(address, 1)[0] == 201
        for outage, mode in enumerate(("fast", "immediate")):
            cluster.stop(mode)
            for seed in range(3):
                for status, kind, body, retry in (
                    submit(address, 10 * outage + seed + 2),
                    call(address, "api/daily/2048-daily"),
                    call(address, "api/entries/1"),
                ):
                    assert (status, kind) == (503, "application/json"), (status, body)
                    assert body["error"] and int(retry) >= 1
            cluster.start()
            seed = 50 + outage
            assert wait_until(lambda seed=seed: submit(address, seed)[0] in (200, 201), 60)
            assert call(address, "api/entries/1")[0] == 200
        server.send_signal(signal.SIGTERM)
        _out, err = server.communicate(timeout=60)
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    down = [line for line in lines if "cannot be reached" in line]
    assert len(down) == 2, lines  # one line an outage, however many requests came


@pytest.mark.slow
def test_malformed_requests_on_the_wire_get_no_5xx_and_no_traceback(tmp_path: Path) -> None:
    raw = [
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"b" * 20_000 + b"\r\n\r\n",
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(40)),
        b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -5\r\n\r\n",
        b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n",
        b"G\x00T / HTTP/1.1\r\n\r\n",
    ]
    with leaderboard(str(tmp_path / "board.db"), tmp_path) as (server, address):
        port = int(address.rsplit(":", 1)[1].strip("/"))
        for request in raw:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                connection.sendall(request)
                answer = b""
                while chunk := connection.recv(65536):
                    answer += chunk
            status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
            assert status < 500, (request[:60], answer[:200])
        assert call(address, "api/daily/2048-daily")[0] == 200  # still serving
        server.send_signal(signal.SIGTERM)
        _out, err = server.communicate(timeout=60)
    assert "Traceback" not in err and "Error handling request" not in err, err


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_kill_9_of_the_server_ends_its_workers(tmp_path: Path) -> None:
    with leaderboard(str(tmp_path / "board.db"), tmp_path, workers=2) as (server, address):
        assert submit(address, 3)[0] == 201
        workers = descendants(server.pid)
        assert workers
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)
    assert wait_until(lambda: not any(alive(pid) for pid in workers), 30), [
        (pid, alive(pid)) for pid in workers
    ]
