"""The leaderboard's pages in a real Chromium (Playwright), desktop and phone-sized: boards
coloured and paged, names cut to their column, a game replayed with the app's motion (or
at once, when the reader asks for reduced motion), controls drawn with no emoji font.

One server and one browser serve the whole module (one xdist worker: --dist loadgroup).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.browser.conftest import missing
from tests.browser.served import CHROMIUM_ARGS, WAIT_MS, find_chromium
from twofold.core.daily import daily_code, utc_today
from twofold.core.game import Game
from twofold.core.proof import Replayed
from twofold.core.result import result_text
from twofold.leaderboard import page as pages
from twofold.leaderboard.boards import Entry
from twofold.leaderboard.verifier import frames_of
from twofold.ui.app.board.motion import plan
from twofold.ui.submission import send_result

from .conftest import daily_chain_game, daily_game, daily_result
from .servers import leaderboard

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.xdist_group("leaderboard-browser"),
    pytest.mark.skipif(missing() is not None, reason=f"browser tests skipped: {missing()}"),
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
HOSTILE = "<img src=x onerror=f()>"
WIDE = "W" * 24  # the widest name there is: one word, no place to break
#: pictographs and the media-control symbols (⏮ ⏸ ⏭ and kin) an emoji font would draw
EMOJI = re.compile("[\u2300-\u23ff\u25a0-\u25ff\u2600-\u27bf\U0001f000-\U0001faff\ufe0f]")


@dataclass(frozen=True)
class Site:
    address: str
    slide: Game
    chain: Game


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    home = tmp_path_factory.mktemp("leaderboard-pages")
    slide, chain = daily_game(41), daily_chain_game(3, 8)
    with leaderboard(str(home / "board.db"), home) as (_server, address):
        send_result(address, result_text(slide, day=utc_today()), "Ada")
        send_result(address, daily_result(42), HOSTILE)
        send_result(address, daily_result(43), WIDE)
        for seed in range(pages.PER_PAGE - 2):  # one more than a page fills
            send_result(address, daily_result(200 + seed, 12), f"player {seed}")
        send_result(address, result_text(chain, day=utc_today()), "Chain")
        yield Site(address, slide, chain)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=find_chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def open_page(browser: Any, viewport: dict, reduced: bool = False) -> Any:
    tab = browser.new_page(viewport=viewport, reduced_motion="reduce" if reduced else None)
    tab.set_default_timeout(WAIT_MS)
    return tab


def open_replay(tab: Any, site: Site, name: str) -> None:
    tab.goto(site.address)
    tab.get_by_role("link", name=name, exact=True).click()
    tab.wait_for_selector("#replay[data-ready]")


def backgrounds(tab: Any, selector: str) -> dict[str, str]:
    """Each value shown in ``selector``'s elements, with its background colour."""
    return tab.eval_on_selector_all(
        selector,
        "els => Object.fromEntries("
        "els.map(e => [e.textContent, getComputedStyle(e).backgroundColor]))",
    )


def fits(tab: Any, viewport: dict, selector: str) -> None:
    box = tab.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (selector, box)
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (selector, box)


@VIEWPORTS
def test_the_boards_are_coloured_paged_and_names_cut(
    site: Site, browser: Any, viewport: dict
) -> None:
    tab = open_page(browser, viewport)
    try:
        tab.goto(site.address)
        assert tab.get_by_role("link", name=HOSTILE).is_visible()  # the name as text
        assert tab.locator("img").count() == 0
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        wide = tab.get_by_role("link", name=WIDE)
        cut = wide.evaluate(
            "a => [a.closest('td').scrollWidth > a.closest('td').clientWidth,"
            " getComputedStyle(a.closest('td')).textOverflow]"
        )
        assert cut == [True, "ellipsis"]
        colours = backgrounds(tab, ".chip")
        assert len(colours) >= 2 and len(set(colours.values())) == len(colours)
        tab.get_by_role("link", name="The whole board").click()
        assert tab.locator("td.name").count() == pages.PER_PAGE
        tab.get_by_role("link", name="Next page").click()
        tab.wait_for_url(re.compile(r"\?page=2$"))
        assert tab.locator("td.name").count() == 1
        assert tab.locator("td.n").first.inner_text() == str(pages.PER_PAGE + 1)
        tab.get_by_role("link", name="Previous page").click()
        assert tab.locator("td.name").count() == pages.PER_PAGE
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        open_replay(tab, site, WIDE)
        heading = tab.locator("h1.who")
        cut, style, right = heading.evaluate(
            "h => [h.scrollWidth > h.clientWidth, getComputedStyle(h).textOverflow,"
            " h.getBoundingClientRect().right]"
        )
        assert style == "ellipsis" and right <= viewport["width"]
        assert cut is (viewport == PHONE)  # the whole name on a desktop, cut on a phone
        assert tab.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        tab.close()


@VIEWPORTS
def test_a_replay_steps_with_the_apps_motion_and_words(
    site: Site, browser: Any, viewport: dict
) -> None:
    tab = open_page(browser, viewport)
    try:
        open_replay(tab, site, "Ada")
        total = len(site.slide.log)
        assert tab.locator("#step").inner_text() == f"Move 0 of {total} · score 0"
        assert tab.locator("#board .cells > div").count() == 16
        tab.click("#next")
        tab.wait_for_function("document.getElementById('replay').dataset.motions === '1'")
        replayed = daily_game(41, 0)
        said = replayed.act(site.slide.log[0]).announcement
        assert tab.locator("#said").inner_text() == said
        assert re.fullmatch(r"(Left|Right|Up|Down)\b.*row \d, column \d\.", said)
        assert tab.locator("#step").inner_text() == (
            f"Move 1 of {total} · score {replayed.state.score}"
        )
        tab.click("#last")
        tab.wait_for_function(f"document.getElementById('replay').dataset.at === '{total}'")
        shown = tab.eval_on_selector_all(
            "#board .tiles > div",
            "els => els.map(e => [+e.style.getPropertyValue('--y'),"
            " +e.style.getPropertyValue('--x'), +e.textContent])",
        )
        board = site.slide.state.board
        assert sorted(shown) == sorted(
            [r, c, v] for r, row in enumerate(board) for c, v in enumerate(row) if v
        )
        colours = backgrounds(tab, "#board .tiles > div")
        assert len(set(colours.values())) == len(colours) >= 3
        fits(tab, viewport, "#board")
        fits(tab, viewport, ".controls")
        tab.keyboard.press("Home")
        assert tab.get_attribute("#replay", "data-at") == "0"
        tab.keyboard.press("ArrowRight")
        assert tab.get_attribute("#replay", "data-at") == "1"
    finally:
        tab.close()


def planned(game: Game, steps: int) -> list[str | None]:
    """The app's motion of each of the game's first ``steps`` actions, as the page tells its
    own (``data-planned``): each phase's kind and seconds; None where nothing moves."""
    again = Game.start(game.mode, game.code)
    found: list[str | None] = []
    for action in game.log[:steps]:
        before = again.state.board
        step = again.act(action)
        motion = plan(before, again.state.board, step.events)
        found.append(
            None
            if motion is None
            else " ".join(f"{phase.kind}:{phase.seconds:g}" for phase in motion.phases)
        )
    return found


@pytest.mark.parametrize("name", ["Ada", "Chain"])
def test_the_page_plans_each_move_as_the_app_does(site: Site, browser: Any, name: str) -> None:
    """replay.js ports ui/app/board/motion.py by hand: its phases and their seconds are the
    app's, move by move, for a slide game and a chain game (its falls, its new tiles)."""
    game = site.slide if name == "Ada" else site.chain
    expected = planned(game, 10)
    assert expected and all(expected)  # every move of these games moves a tile
    tab = open_page(browser, DESKTOP)
    try:
        open_replay(tab, site, name)
        shown = []
        for number in range(1, len(expected) + 1):
            tab.click("#next")
            tab.wait_for_function(
                f"document.getElementById('replay').dataset.motions === '{number}'"
            )
            shown.append(tab.get_attribute("#replay", "data-planned"))
        assert shown == expected
    finally:
        tab.close()


@VIEWPORTS
def test_the_controls_draw_with_no_emoji_font(site: Site, browser: Any, viewport: dict) -> None:
    tab = open_page(browser, viewport)
    try:
        open_replay(tab, site, "Ada")
        buttons = tab.locator(".controls button")
        assert buttons.count() == 5
        for number in range(5):
            button = buttons.nth(number)
            assert (button.get_attribute("aria-label") or "").strip()
            glyph = button.locator("svg:visible")
            assert glyph.count() == 1
            box = glyph.bounding_box()
            assert box is not None and box["width"] >= 12 and box["height"] >= 12
            # drawn in a colour other than the button's own
            assert button.evaluate(
                "b => getComputedStyle(b.querySelector('svg:not([style*=none])')).fill"
                " !== getComputedStyle(b).backgroundColor"
            )
        text = tab.evaluate("document.documentElement.outerHTML")
        assert EMOJI.findall(text) == []
        tab.click("#play")
        assert tab.get_attribute("#play", "aria-label") == "Pause"
        assert tab.get_attribute("#said", "aria-live") == "off"  # not read at every move
        tab.click("#play")
        assert tab.get_attribute("#play", "aria-label") == "Play"
        assert tab.get_attribute("#said", "aria-live") == "polite"
    finally:
        tab.close()


@VIEWPORTS
def test_a_chain_game_fits_and_draws_its_chains(site: Site, browser: Any, viewport: dict) -> None:
    tab = open_page(browser, viewport)
    try:
        open_replay(tab, site, "Chain")
        assert tab.locator("#board .cells > div").count() == 40
        fits(tab, viewport, "#board")
        fits(tab, viewport, ".controls")
        fits(tab, viewport, "#step")
        tab.click("#next")
        # the chain shows before it merges
        tab.wait_for_selector("#board svg.chain polyline", state="attached")
        tab.wait_for_function("document.getElementById('replay').dataset.motions === '1'")
        tab.wait_for_selector("#replay:not([data-moving])")
        first = [int(n) + 1 for n in re.findall(r"\d+", site.chain.log[0].split()[1])]
        said = tab.locator("#said").inner_text()
        assert said.startswith(f"Chain from row {first[0]}, column {first[1]}: ")
        colours = backgrounds(tab, "#board .tiles > div")
        assert len(set(colours.values())) >= 3
    finally:
        tab.close()


@VIEWPORTS
def test_reduced_motion_shows_each_move_at_once(site: Site, browser: Any, viewport: dict) -> None:
    tab = open_page(browser, viewport, reduced=True)
    try:
        open_replay(tab, site, "Chain")
        tab.click("#next")
        tab.click("#next")
        assert tab.get_attribute("#replay", "data-at") == "2"
        assert tab.get_attribute("#replay", "data-motions") == "0"
        # already the board after the second move, with no frame in between
        board = daily_chain_game(3, 2).state.board
        shown = tab.eval_on_selector_all(
            "#board .tiles > div", "els => els.map(e => +e.textContent)"
        )
        assert shown == [v for row in board for v in row if v]
        assert tab.locator("#board svg.chain polyline").count() == 2  # where the chain was
        tab.click("#play")
        tab.wait_for_function("+document.getElementById('replay').dataset.at >= 3")
        assert tab.get_attribute("#replay", "data-motions") == "0"
    finally:
        tab.close()


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def hexagon_page(tmp: Path) -> tuple[str, dict[str, bytes], Game]:
    """The replay page of a Hex 2048 game, with everything it loads, made as the server
    makes them (the hex example is loaded from its folder, not installed)."""
    import aiohttp_jinja2
    from aiohttp import web

    sys.path.insert(0, str(EXAMPLES / "twofold-hex"))
    try:
        from twofold_hex import modes
    finally:
        sys.path.remove(str(EXAMPLES / "twofold-hex"))
    mode = next(m for m in modes() if m.daily)
    game = Game.start(mode, daily_code(mode.id, utc_today()))
    for action in ("w", "se", "ne", "e", "sw", "nw", "w", "e"):
        game.act(action)
    replayed = Replayed(mode, game.code, game.state, list(game.log), 1)
    entry = Entry(1, mode.id, game.code, None, "Hexa", game.state.score, 0, len(game.log),
                  "unassisted", False, "", 0.0, actions=len(game.log))  # fmt: skip
    app = web.Application()
    pages.setup(app)
    html = aiohttp_jinja2.get_env(app).get_template("replay.html").render(pages.replay(entry, mode))
    static = pages.HERE / "static"
    files = {
        "/replay/1": html.encode(),
        "/tiles.css": pages.tile_rules().encode(),
        "/api/entries/1/replay": json.dumps(frames_of(replayed)).encode(),
        **{f"/static/{path.name}": path.read_bytes() for path in static.iterdir()},
    }
    return "http://hex.test", files, game


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_hexagon_is_drawn_at_its_cells_places(
    browser: Any, viewport: dict, tmp_path: Path
) -> None:
    origin, files, game = hexagon_page(tmp_path)
    types = {".css": "text/css", ".js": "text/javascript", "/1": "text/html"}

    def answer(route: Any) -> None:
        path = urlsplit(route.request.url).path
        kind = next((t for end, t in types.items() if path.endswith(end)), "application/json")
        route.fulfill(status=200 if path in files else 404, body=files.get(path, b"{}"),
                      content_type=kind)  # fmt: skip

    tab = open_page(browser, viewport)
    try:
        tab.route(f"{origin}/**", answer)
        tab.goto(f"{origin}/replay/1")
        tab.wait_for_selector("#replay[data-ready]")
        places = tab.eval_on_selector_all(
            "#board .cells > div",
            "els => els.map(e => [+e.style.getPropertyValue('--x'),"
            " +e.style.getPropertyValue('--y')])",
        )
        layout = game.mode.layout
        assert sorted(places) == sorted(list(p) for p in layout.positions)  # no "no cell"
        assert {y for _x, y in places} == {0, 1, 2, 3, 4}
        assert sorted({x for x, y in places if y == 0}) == [1, 2, 3]  # offset rows
        tab.click("#last")
        tab.wait_for_selector("#replay:not([data-moving])")
        shown = tab.eval_on_selector_all(
            "#board .tiles > div",
            "els => els.map(e => [+e.style.getPropertyValue('--x'),"
            " +e.style.getPropertyValue('--y'), +e.textContent])",
        )
        where = dict(zip(layout.cells, layout.positions, strict=True))
        board = game.state.board
        assert sorted(shown) == sorted(
            [*where[(r, c)], v] for r, row in enumerate(board) for c, v in enumerate(row) if v > 0
        )
        fits(tab, viewport, "#board")
        fits(tab, viewport, ".controls")
        tab.click("#first")
        tab.click("#next")  # the hexagon moves as the app moves it
        tab.wait_for_function("document.getElementById('replay').dataset.motions === '1'")
        tab.wait_for_selector("#replay:not([data-moving])")
    finally:
        tab.close()
