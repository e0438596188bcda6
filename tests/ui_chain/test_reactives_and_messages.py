"""The chain game in Textual's terms: what it holds is reactive and what shows it follows;
what the bar and the end of a game say are messages its play widget handles."""

from __future__ import annotations

from textual import on
from textual.app import App, ComposeResult
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Button

from tests.ui_chain.conftest import board_of, make_app, playing
from tests.waiting import until
from twofold.core._presentation import Status
from twofold.core.plugins import registry
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.chain.dialogs import (
    ChainResultDialog,
    NoMoreMovesDialog,
    RescueDialog,
)
from twofold.ui.app.screens.chain.end import Over, Stuck
from twofold.ui.app.screens.chain.powerups import PowerUpBar
from twofold.ui.app.screens.game import GameScreen


class BarHost(App[None]):
    """The power-up bar alone, bound to this app's status and armed power-up."""

    status: var[Status] = var(Status)
    armed: var[str | None] = var(None)

    def __init__(self) -> None:
        super().__init__()
        self.chosen: list[str] = []
        self.asked: list[str] = []

    def compose(self) -> ComposeResult:
        mode = registry().mode("2248")
        yield PowerUpBar(mode.powerups, hint=True).data_bind(BarHost.status, BarHost.armed)

    @on(PowerUpBar.Chosen)
    def _chosen(self, message: PowerUpBar.Chosen) -> None:
        self.chosen.append(message.powerup)

    @on(PowerUpBar.Asked)
    def _asked(self, message: PowerUpBar.Asked) -> None:
        self.asked.append(message.action)


async def test_the_bar_says_what_was_pressed_and_shows_what_it_is_bound_to() -> None:
    app = BarHost()
    async with app.run_test(size=(100, 10)) as pilot:
        app.status = Status(powerups={"hammer": 2, "swap": 0, "shuffle": 1, "undo": 1})
        await pilot.pause()
        hammer = app.query_one("#powerup-hammer", Button)
        assert "×2" in str(hammer.label)
        assert app.query_one("#powerup-swap", Button).disabled
        await pilot.click("#powerup-hammer")
        await pilot.click("#powerup-hint")
        await pilot.click("#powerup-pause")
        await pilot.pause()
        assert app.chosen == ["hammer"]
        assert app.asked == ["hint", "pause"]
        assert not hammer.has_class("-armed")  # the bar arms nothing itself
        app.armed = "hammer"
        await pilot.pause()
        assert hammer.has_class("-armed")


async def test_the_armed_power_up_is_the_screens_and_the_board_follows() -> None:
    async with playing() as (pilot, screen):
        await pilot.click("#powerup-hammer")
        await pilot.pause()
        assert screen.play.armed == "hammer"
        assert board_of(screen).picking == "hammer"
        screen.play.armed = None
        await pilot.pause()
        assert not screen.query_one("#powerup-hammer").has_class("-armed")
        assert board_of(screen).picking is None


async def test_pause_is_a_reactive_that_stops_the_clock_and_hides_the_board() -> None:
    async with playing("2248-blitz") as (pilot, screen):
        game = screen.session.game
        assert game.running
        screen.play.paused = True
        await pilot.pause()
        assert not game.running
        assert not board_of(screen).display
        screen.play.paused = False
        await pilot.pause()
        assert game.running
        assert board_of(screen).display


async def test_the_end_is_a_message_shown_as_its_dialog_then_the_result() -> None:
    async with playing() as (pilot, screen):
        screen.play.post_message(Over("Time's up!", "The clock has run out."))
        await until(pilot, lambda: isinstance(pilot.app.screen, NoMoreMovesDialog))
        assert pilot.app.screen.title_text == "Time's up!"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ChainResultDialog))
        assert pilot.app.screen.title_text == "Time's up!"


async def test_a_rescue_is_offered_once_however_often_it_is_asked() -> None:
    async with playing() as (pilot, screen):
        offers = [("hammer", "Hammer", False)]
        screen.play.post_message(Stuck(offers))
        screen.play.post_message(Stuck(offers))
        await pilot.pause()
        await pilot.pause()
        offers_shown = [s for s in pilot.app.screen_stack if isinstance(s, RescueDialog)]
        assert len(offers_shown) == 1


async def test_a_chain_mode_plays_on_the_one_game_screen_three_levels_below_screen() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.open_mode("2248")
        await until(pilot, lambda: isinstance(app.screen, GameScreen))
        screen = app.screen
        assert type(screen) is GameScreen and isinstance(screen.play, ChainPlay)
        assert type(screen).__mro__.index(Screen) <= 3
        # the board has the focus, so the play widget's keys come first
        await until(pilot, lambda: screen.play.board.has_focus)
