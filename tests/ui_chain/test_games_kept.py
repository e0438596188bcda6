"""On the chain screen, End game ends the game for good, a Blitz game run out of
time is finished in the menu, and the tutorial comes once per game, never over a dialog."""

from __future__ import annotations

from textual.widgets import OptionList

from tests.ui_chain.conftest import FakeClock, board_of, drag, no_pairs, playing, shown
from tests.waiting import until
from twofold.core.settings import Settings
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.chain.dialogs import ChainResultDialog, NoMoreMovesDialog, RescueDialog
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.menu import MenuScreen
from twofold.ui.app.screens.tutorial import TutorialScreen


def menu_line(app: TwofoldApp, mode_id: str) -> str:
    assert isinstance(app.screen, MenuScreen), app.screen
    return str(app.screen.query_one("#modes", OptionList).get_option(mode_id).prompt)


# -- 3. End game ends the game -----------------------------------------------------------------


async def test_end_game_finishes_and_records_the_game() -> None:
    async with playing(position={"board": no_pairs(), "score": 500}) as (pilot, screen):
        await shown(pilot, RescueDialog)  # a Hammer would open a chain
        # a click lands only on a laid-out button: on a busy machine the dialog may not be yet
        end = pilot.app.screen.query_one("#choice-end")
        await until(pilot, lambda: end.region.area > 0, what="the dialog's buttons laid out")
        await pilot.click("#choice-end")
        await until(
            pilot,
            lambda: isinstance(pilot.app.screen, ChainResultDialog),
            what="the result after End game",
        )
        session = screen.session
        game_id = session.game.game_id
        assert session.game.over
        assert [f.game_id for f in session.store.finished_games("2248")] == [game_id]
        await pilot.press("escape")  # look at the board
        await pilot.press("q")
        await pilot.pause()
        assert "game in progress" not in menu_line(pilot.app, "2248")
        pilot.app.open_mode("2248")  # reopened: over, with no Hammer offered again
        await shown(pilot, NoMoreMovesDialog)
        assert pilot.app.screen.title_text == "Game over"
        reopened = pilot.app.screen_stack[-2]
        assert reopened.session.game.game_id == game_id and reopened.session.game.over
        assert reopened.act("hammer 0,0") is None  # nothing plays on
        assert reopened.session.game.log == []


# -- 4. a Blitz game run out of time is not in progress ------------------------------------------


async def test_a_blitz_game_out_of_time_is_not_in_progress_in_the_menu() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        await pilot.press("q")
        await pilot.pause()
        assert "game in progress" in menu_line(pilot.app, "2248-blitz")
        await pilot.app.push_screen(GameScreen(screen.session, play=ChainPlay))
        await pilot.pause()
        clock.now += 181
        pilot.app.screen.tick()
        await shown(pilot, NoMoreMovesDialog)
        assert "Time's up" in pilot.app.screen.title_text
        await pilot.press("enter", "escape", "q")
        await pilot.pause()
        assert "game in progress" not in menu_line(pilot.app, "2248-blitz")


# -- 7. the tutorial once per game, never over a dialog ------------------------------------------


def tutorials(app: TwofoldApp) -> list[TutorialScreen]:
    return [screen for screen in app.screen_stack if isinstance(screen, TutorialScreen)]


async def test_the_tutorial_skipped_in_classic_is_not_shown_in_daily_or_blitz() -> None:
    async with playing(settings=Settings()) as (pilot, _screen):
        assert isinstance(pilot.app.screen, TutorialScreen)
        await pilot.press("escape")  # Skip
        await pilot.pause()
        seen = pilot.app.settings
        assert not tutorials(pilot.app)
    for mode_id in ("2248-daily", "2248-blitz"):
        async with playing(mode_id, settings=seen) as (pilot, screen):
            assert not tutorials(pilot.app), mode_id
            assert pilot.app.screen is screen


async def test_the_tutorial_never_comes_over_a_dialog() -> None:
    async with playing(position={"board": no_pairs()}) as (pilot, screen):
        assert isinstance(pilot.app.screen, RescueDialog)
        screen._settings = Settings()  # as if the tutorial were still due for this game
        assert screen.show_first_tutorial()
        await shown(pilot, RescueDialog)
        assert not tutorials(pilot.app)
