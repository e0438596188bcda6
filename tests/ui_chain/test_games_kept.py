"""Issue 30 on the chain screen: End game ends the game for good, a Blitz game run out of
time is finished in the menu, and the tutorial comes once per game, never over a dialog."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.ui_chain.conftest import FakeClock, board_of, drag, playing
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.chain.dialogs import NoMoreMovesDialog
from twofold.ui.app.screens.menu import MenuScreen


def menu_line(app: TwofoldApp, mode_id: str) -> str:
    assert isinstance(app.screen, MenuScreen), app.screen
    return str(app.screen.query_one("#modes", OptionList).get_option(mode_id).prompt)


# -- 4. a Blitz game run out of time is not in progress ------------------------------------------


async def test_a_blitz_game_out_of_time_is_not_in_progress_in_the_menu() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        await pilot.press("q")
        await pilot.pause()
        assert "game in progress" in menu_line(pilot.app, "2248-blitz")
        await pilot.app.push_screen(screen.__class__(screen.session))
        await pilot.pause()
        clock.now += 181
        pilot.app.screen.tick()
        await pilot.pause()
        assert isinstance(pilot.app.screen, NoMoreMovesDialog)
        assert "Time's up" in pilot.app.screen.title_text
        await pilot.press("enter", "escape", "q")
        await pilot.pause()
        assert "game in progress" not in menu_line(pilot.app, "2248-blitz")
