"""The leaderboard's HTTP API (docs/leaderboard.md) on SQLite: verified, counted once, bounded."""

from __future__ import annotations

import dataclasses

from aiohttp.test_utils import TestClient, TestServer

from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code, utc_today
from twofold.core.plugins import registry
from twofold.core.proof import proof_of
from twofold.leaderboard.server import MAX_BODY, Leaderboard

from .conftest import daily_game, daily_result


async def send(client: TestClient, result: str, name: str = "Ana") -> tuple[int, dict]:
    response = await client.post("/api/results", json={"result": result, "name": name})
    return response.status, await response.json()


async def test_a_verified_result_gets_its_entry_and_rank(client: TestClient) -> None:
    game = daily_game(1)
    status, entry = await send(client, daily_result(1))
    assert status == 201
    assert entry["new"] is True
    assert (entry["mode"], entry["code"], entry["day"]) == (
        "2048-daily",
        game.code,
        utc_today().isoformat(),
    )
    assert (entry["score"], entry["moves"], entry["rank"]) == (game.state.score, 40, 1)
    assert entry["assisted"] is False


async def test_the_same_game_sent_again_is_never_counted_twice(client: TestClient) -> None:
    first = await send(client, daily_result(2))
    again = await send(client, daily_result(2).splitlines()[-1])
    other = await send(client, daily_result(2).splitlines()[-1], name="Someone else")
    assert (first[0], again[0], other[0]) == (201, 200, 409)
    assert again[1]["id"] == first[1]["id"] and again[1]["new"] is False
    assert (other[1]["owner"], other[1]["id"]) == ("Ana", first[1]["id"])
    board = await (await client.get("/api/daily/2048-daily")).json()
    assert len(board["entries"]) == 1


async def test_boards_are_best_first_and_unassisted_by_default(client: TestClient) -> None:
    scores = []
    for seed in range(3, 7):
        status, entry = await send(client, daily_result(seed), name=f"p{seed}")
        assert status == 201
        scores.append(entry["score"])
    status, assisted = await send(client, daily_result(9, undo=True), name="undoer")
    assert status == 201 and assisted["assisted"] is True and assisted["played"] == "undo"
    board = await (await client.get("/api/daily/2048-daily")).json()
    assert [e["score"] for e in board["entries"]] == sorted(scores, reverse=True)
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3, 4]
    assert set(board["entries"][0]) >= {"rank", "name", "score", "largest", "moves", "assisted"}
    every = await (await client.get("/api/daily/2048-daily?assisted=1")).json()
    assert len(every["entries"]) == 5
    code = daily_code("2048-daily", utc_today())
    same = await (await client.get(f"/api/boards/2048-daily/{code}")).json()
    assert same["entries"] == board["entries"]
    day = await (await client.get(f"/api/daily/2048-daily/{utc_today().isoformat()}")).json()
    assert day["entries"] == board["entries"]


async def test_what_does_not_verify_is_422_with_its_reason(client: TestClient) -> None:
    result = daily_result(10)
    headline, link, proof = result.splitlines()
    forged = headline.replace("Score ", "Score 9", 1)
    cases = {
        "\n".join([forged, link, proof]): "the headline claims",
        proof[:-2]: "check does not match",
        "hello": "not a twofold proof",
    }
    for text, reason in cases.items():
        status, answer = await send(client, text)
        assert status == 422, text
        assert reason in answer["error"]


async def test_a_mode_not_installed_on_the_server_is_named(client: TestClient) -> None:
    mode = dataclasses.replace(registry().mode("2048"), id="elsewhere")
    proof = proof_of(mode, code_from_text("x"), ["left"])
    status, answer = await send(client, proof)
    assert status == 422 and "'elsewhere' is not installed" in answer["error"]


async def test_names_are_checked_and_escaped_on_the_page(client: TestClient) -> None:
    for bad in ("", " ", "x" * 25, "tab\there", 7):
        status, _answer = await send(client, daily_result(11), name=bad)  # type: ignore[arg-type]
        assert status == 422, bad
    status, entry = await send(client, daily_result(11), name="<script>x</script>")
    assert status == 201
    page = await (await client.get("/")).text()
    assert "<script>x</script>" not in page and "&lt;script&gt;x&lt;/script&gt;" in page
    assert f"/replay/{entry['id']}" in page
    replay = await (await client.get(f"/replay/{entry['id']}")).text()
    assert "<script>x</script>" not in replay


async def test_a_replay_gives_every_board_of_the_game(client: TestClient) -> None:
    game = daily_game(12)
    _status, entry = await send(client, daily_result(12))
    frames = await (await client.get(f"/api/entries/{entry['id']}/replay")).json()
    assert len(frames["boards"]) == len(game.log) + 1
    assert frames["boards"][-1] == [list(row) for row in game.state.board]
    assert frames["scores"][-1] == game.state.score
    stored = await (await client.get(f"/api/entries/{entry['id']}")).json()
    assert stored["proof"] == daily_result(12).splitlines()[-1]
    assert (await client.get("/api/entries/999")).status == 404


async def test_bodies_json_and_hosts_are_bounded(client: TestClient) -> None:
    big = await client.post(
        "/api/results", data=b"x" * (MAX_BODY + 1), headers={"Content-Type": "application/json"}
    )
    assert big.status == 413
    json_type = {"Content-Type": "application/json"}
    assert (await client.post("/api/results", data=b"{not json", headers=json_type)).status == 400
    assert (await client.post("/api/results", json=["result"])).status == 400
    other = await client.get("/api/daily/2048-daily", headers={"Host": "evil.example"})
    assert other.status == 403
    assert (await client.get("/api/daily/2048")).status == 404
    assert (await client.get("/api/daily/2048-daily/yesterday")).status == 400


async def test_a_client_over_its_rate_is_told_to_wait(boards, checker) -> None:  # type: ignore[no-untyped-def]
    now = [1000.0]  # a clock that moves only when told: a busy machine refills no bucket
    service = Leaderboard(boards, checker, rate=60, burst=2, clock=lambda: now[0])
    async with TestClient(TestServer(service.app())) as client:
        statuses = [(await send(client, daily_result(20 + n)))[0] for n in range(4)]
        assert statuses == [201, 201, 429, 429]
        now[0] += 1.0  # a minute's rate of 60 gives one token back each second
        assert (await send(client, daily_result(24)))[0] == 201
        assert (await send(client, daily_result(25)))[0] == 429
