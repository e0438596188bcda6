"""The leaderboard's pages as HTML (templates, autoescaped): the tiles' colours from the
app's palette, the mode's name and the code as players see them, paging, moves in words."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient

from twofold.core import palette
from twofold.core.codes import format_code
from twofold.core.daily import daily_code, utc_today
from twofold.core.result import result_text
from twofold.leaderboard import page

from .conftest import daily_chain_game, daily_game, daily_result


async def send(client: TestClient, result: str, name: str) -> dict:
    response = await client.post("/api/results", json={"result": result, "name": name})
    assert response.status == 201, await response.text()
    return await response.json()


async def test_the_tiles_are_coloured_from_the_apps_palette(client: TestClient) -> None:
    response = await client.get("/tiles.css")
    assert response.status == 200 and response.content_type == "text/css"
    css = await response.text()
    for value in (2, 8, 2048, 131072):
        background, text = palette.tile_colours(value)
        assert f".classic .t{value} {{ background: {background}; color: {text}; }}" in css
    vivid = "#{:02x}{:02x}{:02x}".format(*palette.vivid_rgb(8))
    assert f".vivid .t8 {{ background: {vivid};" in css
    assert palette.LIGHT_EMPTY in css and palette.EMPTY_VIVID in css


async def test_a_name_is_text_on_every_page(client: TestClient) -> None:
    entry = await send(client, daily_result(61), "<script>x()</script>")
    for path in ("/", "/daily/2048-daily", f"/replay/{entry['id']}"):
        text = await (await client.get(path)).text()
        assert "<script>x()</script>" not in text, path
        assert "&lt;script&gt;x()&lt;/script&gt;" in text, path


async def test_a_replay_is_titled_with_the_modes_name_and_the_code_as_shown(
    client: TestClient,
) -> None:
    entry = await send(client, daily_result(62), "Ana")
    text = await (await client.get(f"/replay/{entry['id']}")).text()
    code = format_code(daily_code("2048-daily", utc_today()))
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    assert title is not None and title[1].strip() == f"2048 Daily {code} · Ana"
    assert f"in 2048 Daily {code}" in text


async def test_the_boards_are_paged_with_links(client: TestClient) -> None:
    for seed in range(page.PER_PAGE + 2):
        await send(client, daily_result(100 + seed, 20), f"player {seed}")
    front = await (await client.get("/")).text()
    assert front.count("/replay/") == page.ON_FRONT
    assert 'href="/daily/2048-daily"' in front
    first = await (await client.get("/daily/2048-daily")).text()
    assert first.count("/replay/") == page.PER_PAGE
    assert 'rel="next" href="/daily/2048-daily?page=2"' in first and 'rel="prev"' not in first
    second = await (await client.get("/daily/2048-daily?page=2")).text()
    assert second.count("/replay/") == 2
    assert 'rel="prev" href="/daily/2048-daily"' in second and 'rel="next"' not in second
    ranks = re.findall(r'<td class="n rank">(\d+)</td>', second)
    assert ranks == [str(page.PER_PAGE + 1), str(page.PER_PAGE + 2)]
    # the API the pages stand on is as it was
    api = await (await client.get("/api/daily/2048-daily?limit=1&offset=25")).json()
    assert [e["rank"] for e in api["entries"]] == [26]
    for bad in ("/daily/2048-daily?page=x", "/daily/2248", "/daily/nothing"):
        response = await client.get(bad)
        assert response.status in (400, 404) and "error" in await response.json(), bad


async def test_a_replay_says_each_move_in_the_apps_words(client: TestClient) -> None:
    game = daily_game(63, 5)
    entry = await send(client, daily_result(63, 5), "Ana")
    frames = await (await client.get(f"/api/entries/{entry['id']}/replay")).json()
    again = daily_game(63, 0)
    said = [again.act(action).announcement for action in game.log]
    assert frames["words"] == said
    assert frames["words"][0].startswith(("Left", "Right", "Up", "Down"))
    assert frames["events"][0][-1]["type"] == "appeared"

    chain = daily_chain_game(5, 3)
    entry = await send(client, result_text(chain, day=utc_today()), "Bo")
    frames = await (await client.get(f"/api/entries/{entry['id']}/replay")).json()
    first = [int(n) + 1 for n in re.findall(r"\d+", chain.log[0].split()[1])]
    assert frames["words"][0].startswith(f"Chain from row {first[0]}, column {first[1]}: ")
    merged = next(e for e in frames["events"][0] if e["type"] == "merged")
    assert len(merged["cells"]) == len(chain.log[0].split()) - 1
