"""The leaderboard's page in a real Chromium (Playwright), desktop and phone-sized: today's
board, a name's replay stepped move by move, a hostile name shown as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import missing
from tests.browser.served import CHROMIUM_ARGS, WAIT_MS, find_chromium
from twofold.ui.sending import send_result

from .conftest import daily_game, daily_result
from .servers import leaderboard

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.skipif(missing() is not None, reason=f"browser tests skipped: {missing()}")
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_page_shows_the_board_and_replays_a_game(tmp_path: Path, viewport: dict) -> None:
    from playwright.sync_api import sync_playwright

    game = daily_game(41)
    with leaderboard(str(tmp_path / "board.db"), tmp_path) as (_server, address):
        send_result(address, daily_result(41), "<img src=x onerror=f()>")
        wide = "W" * 24  # the widest name there is: one word, no place to break
        send_result(address, daily_result(42), wide)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=find_chromium(), args=CHROMIUM_ARGS
            )
            try:
                page = browser.new_page(viewport=viewport)
                page.set_default_timeout(WAIT_MS)
                page.goto(address)
                link = page.get_by_role("link", name="<img src=x onerror=f()>")
                assert link.is_visible()  # the name as text, never as markup
                assert page.locator("img").count() == 0
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"]  # nothing wider than the phone
                link.click()
                page.wait_for_selector("#board div")
                cells = page.locator("#board div")
                assert cells.count() == 16
                assert page.locator("#step").inner_text().startswith(f"0 / {len(game.log)}")
                page.click("#next")
                assert page.locator("#step").inner_text().startswith("1 /")
                assert page.locator("#said").inner_text() == game.log[0]
                page.click("#last")
                shown = [int(t or 0) for t in cells.all_inner_texts()]
                assert shown == [v for row in game.state.board for v in row]
                box = page.locator("#board").bounding_box()
                assert box is not None and box["x"] >= 0
                assert box["x"] + box["width"] <= viewport["width"]
                page.goto(address)
                page.get_by_role("link", name=wide).click()
                page.wait_for_selector("#board div")
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
            finally:
                browser.close()
