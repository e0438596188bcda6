"""No cross-site writes: POST takes application/json only, from no Origin or the server's own.

A page on another site can send a form or text/plain without asking (no CORS preflight);
such a body is 415, and a browser's Origin naming another site is 403. No answer carries a
CORS header, so no other site's page may send JSON here or read what comes back.
"""

from __future__ import annotations

import json

from aiohttp.test_utils import TestClient

from .conftest import daily_result


async def board(client: TestClient) -> list[dict]:
    return (await (await client.get("/api/daily/2048-daily?assisted=1")).json())["entries"]


async def test_what_a_page_elsewhere_may_post_is_refused(client: TestClient) -> None:
    body = json.dumps({"result": daily_result(70), "name": "Ana"})
    plain = await client.post(
        "/api/results",
        data=body,
        headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
    )
    form = await client.post("/api/results", data={"result": daily_result(70), "name": "Ana"})
    evil = await client.post(
        "/api/results",
        data=body,
        headers={"Content-Type": "application/json", "Origin": "http://evil.example"},
    )
    null = await client.post(
        "/api/results", data=body, headers={"Content-Type": "application/json", "Origin": "null"}
    )
    assert (plain.status, form.status, evil.status, null.status) == (403, 415, 403, 403)
    text_only = await client.post("/api/results", data=body, headers={"Content-Type": "text/plain"})
    assert text_only.status == 415
    assert "application/json" in (await text_only.json())["error"]
    assert await board(client) == []


async def test_the_server_s_own_pages_and_programs_may_post(client: TestClient) -> None:
    own = f"http://{client.server.host}:{client.server.port}"
    mine = await client.post(
        "/api/results",
        json={"result": daily_result(71), "name": "Ana"},
        headers={"Origin": own},
    )
    program = await client.post("/api/results", json={"result": daily_result(72), "name": "Bo"})
    assert (mine.status, program.status) == (201, 201)
    assert "Access-Control-Allow-Origin" not in mine.headers


async def test_no_cors_is_allowed(client: TestClient) -> None:
    preflight = await client.options(
        "/api/results",
        headers={
            "Origin": "http://evil.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status == 405
    assert "Access-Control-Allow-Origin" not in preflight.headers
    read = await client.get("/api/daily/2048-daily", headers={"Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in read.headers
