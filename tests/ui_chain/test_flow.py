"""Pause, the Blitz clock, the end of a game, New game and the tutorial."""

from __future__ import annotations

from tests.ui_chain.conftest import (
    FakeClock,
    board_of,
    drag,
    ladder,
    no_pairs,
    playing,
    shown,
)
from tests.waiting import palette_lists
from twofold.core.settings import Settings
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.chain.dialogs import ChainResultDialog, NoMoreMovesDialog, RescueDialog
from twofold.ui.app.screens.tutorial import TutorialScreen
from twofold.ui.app.widgets.topbar import TopBar


def topbar_text(screen, name: str) -> str:  # type: ignore[no-untyped-def]
    return str(screen.query_one(TopBar).query_one(f"#topbar-{name}").render())


async def test_pause_hides_the_board() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("p")
        assert screen.play.paused
        assert not board.display
        assert screen.query_one("#chain-paused").display
        await pilot.press("h")  # play keys do nothing while paused
        assert board.hint == ()
        await pilot.press("p")
        assert not screen.play.paused
        assert board.display


async def test_escape_pauses_when_no_chain_is_started() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("escape")
        assert screen.play.paused
        await pilot.press("escape")
        assert not screen.play.paused


async def test_losing_focus_pauses() -> None:
    async with playing() as (pilot, screen):
        pilot.app.app_focus = False
        await pilot.pause()
        assert screen.play.paused
        assert not screen.session.game.running


async def test_pause_freezes_the_blitz_clock() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        game = screen.session.game
        assert topbar_text(screen, "clock").endswith("3:00")
        clock.now += 10
        screen.tick()
        assert topbar_text(screen, "clock").endswith("2:50")
        await pilot.press("p")
        clock.now += 60
        screen.tick()
        assert game.time_left == 170
        assert topbar_text(screen, "clock").endswith("2:50")
        await pilot.press("p")
        clock.now += 5
        screen.tick()
        assert game.time_left == 165


async def test_blitz_ends_when_the_clock_runs_out() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        board = board_of(screen)
        await drag(pilot, board, [(7, 0), (7, 1), (7, 2)])
        clock.now += 181
        screen.tick()
        await shown(pilot, NoMoreMovesDialog)
        assert "Time's up" in pilot.app.screen.title_text
        await pilot.press("enter")
        await shown(pilot, ChainResultDialog)
        assert screen.session.store.records("2248-blitz").played == 0  # a position game


async def test_blitz_offers_a_free_shuffle_when_stuck() -> None:
    async with playing("2248-blitz", position={"board": no_pairs()}) as (pilot, screen):
        dialog = await shown(pilot, RescueDialog)
        assert [b[0] for b in dialog.buttons] == ["shuffle", "end"]
        assert not screen.query_one("#powerup-shuffle").disabled
        await pilot.click("#choice-shuffle")
        await pilot.pause()
        assert screen.session.game.log == ["shuffle"]


async def test_stuck_with_a_power_up_offers_it_beside_end_game() -> None:
    async with playing(position={"board": no_pairs()}) as (pilot, screen):
        dialog = await shown(pilot, RescueDialog)
        choices = [b[0] for b in dialog.buttons]
        assert choices[-1] == "end"
        assert set(choices[:-1]) == set(screen.rules.report(screen.state)["rescues"])
        await pilot.click("#choice-hammer")
        await pilot.pause()
        assert screen.play.armed == "hammer"


async def test_end_game_shows_the_result() -> None:
    async with playing(position={"board": no_pairs(), "score": 120}) as (pilot, _screen):
        await pilot.pause()
        await pilot.click("#choice-end")
        result = await shown(pilot, ChainResultDialog)
        assert "Score: 120" in result.body
        assert "Longest chain: 0" in result.body


async def test_no_more_moves_then_result_then_play_again() -> None:
    position = {
        "board": no_pairs(),
        "powerups": {"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0},
    }
    async with playing(position=position) as (pilot, screen):
        await shown(pilot, NoMoreMovesDialog)
        assert pilot.app.screen.title_text == "No more moves"
        await pilot.press("enter")
        result = await shown(pilot, ChainResultDialog)
        for line in ("Score:", "Best:", "Highest tile: 128", "Longest chain:", "Merges:"):
            assert line in result.body
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert not screen.session.game.over


async def test_new_game_asks_when_the_game_has_points() -> None:
    async with playing() as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        old = screen.session.game
        await pilot.press("n")
        await shown(pilot, ConfirmDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.session.game is old
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert screen.session.game is not old
        assert screen.state.score == 0


async def test_new_game_without_points_does_not_ask() -> None:
    async with playing() as (pilot, screen):
        old = screen.session.game
        await pilot.press("n")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert screen.session.game is not old


async def test_tutorial_on_first_launch_then_never_again() -> None:
    async with playing(settings=Settings()) as (pilot, screen):
        await shown(pilot, TutorialScreen)
        tutorial = pilot.app.screen
        await pilot.press("right")
        assert tutorial.step == 1
        await pilot.press("left")
        assert tutorial.step == 0
        await pilot.press("right", "right", "right")
        await pilot.pause()
        assert pilot.app.screen is screen
        assert pilot.app.settings.has_seen_tutorial("2248")
        assert pilot.app.store.load_settings().tutorials_seen == ("2248",)


async def test_help_starts_the_tutorial_again() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("t")
        await shown(pilot, TutorialScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen


async def test_daily_top_bar_shows_merges_left() -> None:
    async with playing("2248-daily") as (pilot, screen):
        assert topbar_text(screen, "merges_left") == "Merges left 30"
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        assert topbar_text(screen, "merges_left") == "Merges left 29"


async def test_read_board_lists_every_row() -> None:
    async with playing() as (pilot, _screen):
        await pilot.press("r")
        await pilot.pause()
        reading = pilot.app.screen
        assert "Row 8: 2, 2, 4, 8, 16" in reading.body


async def test_every_action_is_in_the_command_palette() -> None:
    async with playing() as (pilot, screen):
        names = {command.title for command in pilot.app.get_system_commands(screen)}
        for title in ("Hint", "Undo", "Hammer", "Swap", "Shuffle", "Pause", "New", "Help"):
            assert title in names
        assert {"Tutorial", "Merge the chain", "Cancel the chain", "Read"} <= names


async def test_the_palette_runs_a_chain_action() -> None:
    async with playing() as (pilot, _screen):
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"tutorial")
        await palette_lists(pilot, "utorial")
        await pilot.press("enter")
        await shown(pilot, TutorialScreen)


async def test_daily_ends_when_the_merges_are_spent() -> None:
    position = {"board": ladder(), "merges_left": 1}
    async with playing("2248-daily", position=position) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2)])
        await shown(pilot, NoMoreMovesDialog)
        assert pilot.app.screen.title_text == "No merges left"
        assert topbar_text(screen, "merges_left") == "Merges left 0"


async def test_statistics_settings_and_back_to_the_menu() -> None:
    from twofold.ui.app.screens.menu import MenuScreen

    async with playing() as (pilot, screen):
        await pilot.press("t")
        await pilot.pause()
        assert pilot.app.screen is not screen
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("comma")
        await pilot.pause()
        assert pilot.app.screen is not screen
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        await drag(pilot, board_of(screen), [(7, 0), (7, 1)])
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, MenuScreen)
        saved = pilot.app.store.load_save("2248")
        assert saved is not None and saved.actions == ("chain 7,0 7,1",)


async def test_a_click_on_the_paused_board_plays_on() -> None:
    async with playing() as (pilot, screen):
        await pilot.press("p")
        await pilot.click("#chain-paused")
        assert not screen.play.paused


async def test_at_61_columns_the_power_up_bar_and_the_guidance_are_whole() -> None:
    from textual.widgets import Button

    from twofold.ui.app.screens.chain.powerups import PowerUpBar

    async with playing(size=(61, 24)) as (pilot, screen):
        await pilot.pause()
        buttons = [b for b in screen.query_one(PowerUpBar).query(Button) if b.display]
        assert [b.id for b in buttons][-1] == "powerup-pause"
        for button in buttons:
            assert button.region.right <= 61, button.id  # none cut at the right
            assert button.region.width >= len(str(button.label)), button.id
    async with playing(size=(50, 24)) as (pilot, screen):
        await pilot.pause()
        status = screen.query_one("#chain-status")
        lines = [status.render_line(y).text.strip() for y in range(status.size.height)]
        guidance = "Drag through touching tiles, or use the arrow keys and Space"
        assert " ".join(lines) == guidance  # wrapped onto a second line, never cut


async def test_a_paused_blitz_clock_stays_stopped_when_focus_or_a_screen_comes_back() -> None:
    clock = FakeClock()
    async with playing("2248-blitz", clock=clock) as (pilot, screen):
        game = screen.session.game
        await pilot.press("p")
        pilot.app.app_focus = False  # the terminal loses the player's attention...
        await pilot.pause()
        pilot.app.app_focus = True  # ...and gets it back: the board is still paused
        await pilot.pause()
        clock.now += 30
        screen.tick()
        assert screen.play.paused and game.time_left == 180
        await pilot.press("question_mark")  # a screen over the paused board, then closed
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.play.paused
        clock.now += 30
        screen.tick()
        assert game.time_left == 180
        await pilot.press("p")
        clock.now += 5
        screen.tick()
        assert game.time_left == 175
