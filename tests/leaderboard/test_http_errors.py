"""Requests aiohttp's own parser refuses get JSON too, from a real ``twofold leaderboard``.

Raw bytes over sockets: a bad request line, two Host headers, bad chunking, a line too
long, HTTPS on the HTTP port, and a fuzz of good requests cut and garbled at random. Every
answer is JSON ``{"error": ...}`` (or the page or entry asked for), never a 5xx, and the
server's console shows no traceback. (aiohttp alone answers these in text/plain.)
"""

from __future__ import annotations

import json
import random
import socket
from pathlib import Path

import pytest

from tests.leaderboard.servers import leaderboard

pytest.importorskip("aiohttp", reason="the web extra is not installed")

#: requests the HTTP parser refuses before any middleware sees them
PARSER_LEVEL = {
    "bad request line": b"BLAH\r\n\r\n",
    "two Host headers": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
    "bad chunking": (
        b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"zz\r\nabc\r\n0\r\n\r\n"
    ),
    "a line too long": b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "HTTPS on the HTTP port": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(40)),
    "a header with no colon": b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
    "a bad version": b"GET / HTTP/9.Z\r\nHost: 127.0.0.1\r\n\r\n",
    "content-length and chunked": (
        b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    ),
}
GOOD = (
    b"GET /api/boards/2048/K0K0K0K0 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b'Content-Length: 13\r\nConnection: close\r\n\r\n{"result": 1}',
)


def ask(port: int, request: bytes, wait: float = 30) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; the status, the headers and the body of the answer (status 0: none
    within ``wait`` seconds, as for a request still owed the body its length promised)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as connection:
        connection.sendall(request)
        answer = b""
        try:
            while chunk := connection.recv(65536):
                answer += chunk
        except TimeoutError:
            return 0, {}, b""
    if not answer:
        return 0, {}, b""
    head, _blank, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split(" ", 2)[1]), {k.lower(): v for k, v in headers.items()}, body


def is_json_error(status: int, headers: dict[str, str], body: bytes) -> bool:
    if not headers.get("content-type", "").startswith("application/json"):
        return False
    data = json.loads(body)
    return 400 <= status < 500 and isinstance(data, dict) and isinstance(data.get("error"), str)


def test_requests_the_parser_refuses_get_a_json_reason(tmp_path: Path) -> None:
    with leaderboard(str(tmp_path / "board.db"), tmp_path) as (server, address):
        port = int(address.rsplit(":", 1)[1].split("/")[0])
        for name, request in PARSER_LEVEL.items():
            status, headers, body = ask(port, request)
            assert status == 400 and is_json_error(status, headers, body), (name, status, body)
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "Error handling request" not in err, err


def test_a_fuzz_of_garbled_raw_requests_gets_json_and_no_5xx(tmp_path: Path) -> None:
    rng = random.Random(4343)
    with leaderboard(str(tmp_path / "board.db"), tmp_path) as (server, address):
        port = int(address.rsplit(":", 1)[1].split("/")[0])
        for _number in range(200):  # bounded: 200 requests, each a good one garbled
            request = bytearray(rng.choice(GOOD))
            for _cut in range(rng.randint(1, 6)):
                where = rng.randrange(len(request))
                request[where : where + rng.randint(0, 3)] = bytes(
                    rng.choice(b"\r\n :\x00\xff/aZ9{}") for _ in range(rng.randint(0, 3))
                )
            status, headers, body = ask(port, bytes(request), wait=3)
            if status == 0:
                continue  # the server waits for the rest of a body its length promised
            assert status < 500, (bytes(request), status, body)
            if status >= 400:
                assert is_json_error(status, headers, body), (bytes(request), status, body)
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "Error handling request" not in err, err


def test_a_client_hanging_up_before_its_body_leaves_no_traceback(tmp_path: Path) -> None:
    with leaderboard(str(tmp_path / "board.db"), tmp_path) as (server, address):
        port = int(address.rsplit(":", 1)[1].split("/")[0])
        for _number in range(5):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
                connection.sendall(
                    b"POST /api/results HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    b'Content-Type: application/json\r\nContent-Length: 900\r\n\r\n{"resu'
                )
        assert ask(port, GOOD[0])[0] == 200  # the server answers on, as before
        server.terminate()
        _out, err = server.communicate(timeout=30)
    assert "Traceback" not in err and "failed" not in err, err
