"""The slide screen driven through Pilot: keys, clicks, drags, dialogs and animation."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # private: in no public Textual module

from tests.ui.conftest import CODE, MID_GAME, NEARLY_OVER, NEARLY_WON, AppFactory
from tests.waiting import palette_lists
from twofold.core.codes import share_string
from twofold.ui.app.app import TwofoldApp, screen_commands
from twofold.ui.app.board import motion as board_motion
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.dialogs import (
    BoardReading,
    ConfirmDialog,
    GameOverDialog,
    ResultDialog,
    WinDialog,
)
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.slide import SlidePlay


def slide(app: TwofoldApp) -> GameScreen:
    screen = app.screen
    assert isinstance(getattr(screen, "play", None), SlidePlay), screen
    return screen


def record_plays(screen: GameScreen) -> list[str]:
    """Replace the screen's act() with a recorder; returns the list of actions asked."""
    asked: list[str] = []
    screen.act = asked.append  # type: ignore[method-assign,assignment]
    return asked


@pytest.mark.parametrize(
    ("keys", "direction"),
    [
        (("left", "a", "h"), "left"),
        (("right", "d", "l"), "right"),
        (("up", "w", "k"), "up"),
        (("down", "s", "j"), "down"),
        (("u", "ctrl+z"), "undo"),
    ],
)
async def test_every_key_of_spec_section_3(
    make_app: AppFactory, keys: tuple[str, ...], direction: str
):
    app = make_app("2048", position=MID_GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        slide(app).session.act("left")  # so that undo is possible
        asked = record_plays(slide(app))
        for key in keys:
            await pilot.press(key)
        assert asked == [direction] * len(keys)


async def test_a_move_changes_board_score_and_moves(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        before = screen.session.game.state
        await pilot.press("left")
        after = screen.session.game.state
        assert after.moves == before.moves + 1
        assert after.board != before.board
        assert screen.query_one(SlideBoard).board == after.board
        assert "Score" in screen.announcer.text


async def test_undo_says_why_until_a_move_then_takes_it_back(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        # a key shown acts, or says why it cannot: never greyed and silent
        assert screen.check_action("undo", ()) is True
        await pilot.press("u")
        assert screen.announcer.text == "nothing to undo"
        before = screen.session.game.state
        await pilot.press("left")
        await pilot.press("u")
        assert screen.session.game.state == before
        assert screen.query_one(SlideBoard).board == before.board
        assert screen.check_action("undo", ()) is True


@pytest.mark.parametrize(
    ("start", "end", "direction"),
    [
        ((10, 8), (14, 8), "right"),  # 4 columns
        ((20, 8), (17, 8), "left"),  # 3 columns, the least that counts
        ((20, 5), (21, 7), "down"),  # 2 rows beat 1 column
        ((20, 9), (20, 7), "up"),
        ((10, 8), (16, 10), "right"),  # 6 columns weigh 3 rows, beating 2 rows
    ],
)
async def test_a_drag_on_the_board_is_a_swipe(
    make_app: AppFactory, start: tuple[int, int], end: tuple[int, int], direction: str
):
    app = make_app("2048", position=MID_GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        asked = record_plays(slide(app))
        await pilot.mouse_down("#board", offset=start)
        await pilot.hover("#board", offset=end)
        await pilot.mouse_up("#board", offset=end)
        assert asked == [direction]


async def test_a_short_drag_or_a_click_is_no_swipe(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        asked = record_plays(slide(app))
        await pilot.mouse_down("#board", offset=(20, 8))
        await pilot.hover("#board", offset=(22, 9))
        await pilot.mouse_up("#board", offset=(22, 9))
        await pilot.click("#board", offset=(20, 8))
        assert asked == []


@pytest.mark.parametrize("direction", ["left", "up", "down", "right"])
async def test_the_arrow_buttons_move(make_app: AppFactory, direction: str):
    app = make_app("2048", position=MID_GAME)
    async with app.run_test(size=(80, 24)) as pilot:
        asked = record_plays(slide(app))
        await pilot.click(f"#arrow-{direction}")
        assert asked == [direction]


async def test_new_game_asks_only_when_the_game_has_points(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")  # no: keep playing
        assert app.screen is screen
        assert screen.session.game.code == CODE
        await pilot.press("n", "y")
        assert app.screen is screen
        assert screen.session.game.code != CODE
        assert screen.session.game.state.score == 0
        code = screen.session.game.code
        await pilot.press("n")  # no points: no question
        assert app.screen is screen
        assert screen.session.game.code != code


async def test_restart_and_last_game(make_app: AppFactory):
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("b")  # nothing to bring back yet: it says so
        assert "no earlier game" in screen.announcer.text
        first = screen.session.game.state
        await pilot.press("left", "up", "right", "down")
        played = screen.session.game.state
        await pilot.press("ctrl+r")
        if played.score:  # a game with points asks before it is replaced
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("y")
        assert screen.session.game.state == first
        assert screen.query_one(SlideBoard).board == first.board
        await pilot.press("b")
        assert screen.session.game.state == played
        await pilot.press("b")  # a swap: the restarted game is the one back now
        assert screen.session.game.state == first
        assert "Back to game" in screen.announcer.text


async def test_copy_link_and_copy_result(make_app: AppFactory):
    app = make_app("2048", code=CODE, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        assert app.clipboard == share_string("2048", CODE)
        assert isinstance(app.screen, ResultDialog)  # shown as Copy result is
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, ResultDialog)
        assert "Score 1024" in app.clipboard
        assert "Largest tile 128" in app.clipboard
        assert "Moves 120" in app.clipboard
        assert share_string("2048", CODE) in app.clipboard
        await pilot.press("escape")
        assert isinstance(getattr(app.screen, "play", None), SlidePlay)


async def test_the_win_dialog_shows_once_and_keep_going_is_kept(make_app: AppFactory):
    app = make_app("2048", position=NEARLY_WON, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("left")
        assert isinstance(app.screen, WinDialog)
        assert "You reached 2048!" in screen.announcer.text
        await pilot.press("k")
        assert app.screen is screen
        assert screen.session.game.flags.kept_going
        await pilot.press("right", "left", "up")
        assert app.screen is screen
        saved = app.store.load_save("2048")
        assert saved is not None and saved.flags and saved.flags.get("kept_going")


async def test_the_win_dialog_can_start_a_new_game(make_app: AppFactory):
    app = make_app("2048", position=NEARLY_WON, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("left")
        await pilot.click("#choice-new")
        assert app.screen is screen
        assert screen.session.game.state.score == 0


async def test_game_over_panel_offers_new_game_and_undo(make_app: AppFactory):
    app = make_app("2048", position=NEARLY_OVER, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("right")
        dialog = app.screen
        assert isinstance(dialog, GameOverDialog)
        text = str(dialog.body)
        assert "Score: 1200" in text and "Largest tile: 64" in text and "Moves: 151" in text
        await pilot.press("u")
        assert app.screen is screen
        assert screen.session.game.state.board == tuple(tuple(row) for row in NEARLY_OVER["board"])
        await pilot.press("right")
        assert isinstance(app.screen, GameOverDialog)
        await pilot.click("#choice-new")
        assert app.screen is screen
        assert not screen.session.game.over


async def test_a_finished_game_updates_best(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.best_score("2048") == 0
        await pilot.press("left")
        await pilot.press("ctrl+r")  # the played game is finished (a position: uncounted)
        assert app.best_score("2048") == 0


async def test_read_board_opens_the_reading_every_mode_has(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        reading = app.screen
        assert isinstance(reading, BoardReading)  # R reads the board aloud, as in 2248
        assert reading.body.splitlines()[0].startswith("Row 1: 2, 4, 8, 16")
        assert len(reading.body.splitlines()) == 4


async def test_maximise_the_board_and_back(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        small = screen.query_one(SlideBoard).size
        await pilot.press("m")
        assert screen.maximized is screen.query_one(SlideBoard)
        assert screen.query_one(SlideBoard).size.height > small.height
        await pilot.press("m")
        assert screen.maximized is None


async def test_every_action_is_in_the_command_palette(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        commands = {command.title: command.help for command in app.get_system_commands(app.screen)}
        titles = set(commands)
        for title in (
            "Move left",
            "Move up",
            "Move down",
            "Move right",
            "New",
            "Restart",
            "Copy link",
            "Copy result",
            "Read",
            "Max",
            "Help",
            "Statistics",
            "Settings",
            "Menu",
            "Last game",
            "Sample",
            "Watch the solver",
        ):
            assert title in titles
        # the footer has no room for every key: the palette names each one it lacks
        for title, key in (
            ("Copy link", "c"),
            ("Copy result", "y"),
            ("Last game", "b"),
            ("Sample", "e"),
            ("Watch the solver", "v"),
            ("Restart", "^r"),
            ("Statistics", "t"),
            ("Settings", ","),
        ):
            assert commands[title].endswith(f"(Key: {key})"), (title, commands[title])
        # Undo is offered before the first move too: it says there is nothing to undo
        assert "Undo" in titles
        await pilot.press("left")
        titles = {c.title for c in screen_commands(app.screen)}
        assert "Undo" in titles


async def test_the_palette_runs_a_command(make_app: AppFactory):
    app = make_app("2048", code=CODE, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"copy link")
        await palette_lists(pilot, "Copy link")
        await pilot.press("enter")
        await pilot.pause()
        assert app.clipboard == share_string("2048", CODE)


async def test_moves_animate_and_a_key_finishes_the_animation(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    # A slow animation, so that the second key surely arrives while it runs.
    monkeypatch.setattr(board_motion, "TEMPO", 50.0)

    app = make_app("2048", position=MID_GAME, motion=True)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        board = screen.query_one(SlideBoard)
        await pilot.press("left")
        assert board.animating
        await pilot.press("up")  # arrives mid-animation: applied at once
        assert screen.session.game.state.moves == MID_GAME["moves"] + 2
        assert board.board == screen.session.game.state.board
        assert board.animating  # the second move's own animation
        board.finish_animation()
        assert not board.animating


async def test_reduced_motion_draws_moves_where_they_end(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        board = slide(app).query_one(SlideBoard)
        await pilot.press("left")
        assert not board.animating


async def test_textual_animations_none_is_reduced_motion(make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=True)
    app.animation_level = "none"
    async with app.run_test(size=(80, 24)) as pilot:
        board = slide(app).query_one(SlideBoard)
        await pilot.press("left")
        assert not board.animating


@pytest.mark.parametrize("mode_id", ["2048", "2048-5x5", "2048-6x6"])
async def test_every_size_fits_80x24(make_app: AppFactory, mode_id: str):
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(80, 24)):
        board = slide(app).query_one(SlideBoard)
        geometry = board.geometry
        assert geometry is not None
        assert geometry.tile_height >= 2


async def test_a_larger_terminal_gets_larger_tiles(make_app: AppFactory):
    async def tile_height(size: tuple[int, int]) -> int:
        app = make_app("2048", motion=False)
        async with app.run_test(size=size):
            geometry = slide(app).query_one(SlideBoard).geometry
            assert geometry is not None
            return geometry.tile_height

    assert await tile_height((120, 40)) > await tile_height((80, 24))


async def test_too_small_a_terminal_says_so(make_app: AppFactory):
    from twofold.ui.app.screens.too_small import TooSmallScreen

    app = make_app("2048-6x6", motion=False)
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)  # one message, for every screen
        assert "too small" in str(app.screen.query_one("#too-small").render())


async def test_quitting_saves_and_reopening_resumes(make_app: AppFactory):
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left", "up", "right")
        played = slide(app).session.game.state
        await pilot.press("q")

    app = make_app(None, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        menu_text = str(app.screen.query_one("#modes").get_option("2048").prompt)
        assert "game in progress" in menu_text
        app.open_mode("2048")
        await pilot.pause()
        screen = slide(app)
        assert screen.session.game.state == played
        assert "Welcome back" in screen.announcer.text


async def test_menu_goes_back_to_the_menu_and_saves(make_app: AppFactory):
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left", "up")
        state = slide(app).session.game.state
        await pilot.press("escape")  # Esc pauses; Menu from the pause leaves
        assert type(app.screen).__name__ == "PauseDialog"
        await pilot.press("q")
        assert type(app.screen).__name__ == "MenuScreen"
        saved = app.store.load_save("2048")
        assert saved is not None and len(saved.actions) == state.moves
        assert app.sessions == []


async def test_the_score_flashes_when_a_merge_moves_it(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    from twofold.ui.app.widgets.topbar import TopBar

    position = {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]}
    flashed: list[str] = []
    real_flash = TopBar.flash

    def spy(self: TopBar, name: str) -> None:
        flashed.append(name)
        real_flash(self, name)

    # a spy, not the class itself: a loaded machine may end the flash before we look
    monkeypatch.setattr(TopBar, "flash", spy)

    app = make_app("2048", position=position, motion=True)
    async with app.run_test(size=(80, 24)) as pilot:
        topbar = slide(app).query_one(TopBar)
        await pilot.press("down")  # no merge: no flash
        assert flashed == []
        await pilot.press("left")
        assert flashed == ["score"]
        topbar.flash("score")
        assert topbar.query_one("#topbar-score").has_class("-flash")
        await pilot.pause(1.0)
        assert not topbar.query_one("#topbar-score").has_class("-flash")


async def test_reduced_motion_does_not_flash_the_score(make_app: AppFactory):
    position = {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}

    app = make_app("2048", position=position, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left")
        assert not slide(app).query_one("#topbar-score").has_class("-flash")


async def test_the_sample_opens_a_solver_game_that_never_counts(make_app: AppFactory):
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("e")
        game = screen.session.game
        assert game.state.moves == 240
        assert game.flags.uncounted
        assert screen.query_one(SlideBoard).board == game.state.board
        assert "Sample" in screen.announcer.text


async def test_watching_the_solver_and_taking_over(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    from textual import events

    from twofold.ui.app.screens import solver as solver_module

    monkeypatch.setattr(solver_module, "SOLVER_PAUSE", 0.01)

    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        assert screen.active_bindings["v"].binding.action == "screen.watch_solver"
        screen.action_watch_solver()  # V; Pilot's press would wait for an idle app
        assert screen.solver.watching
        # Pilot waits for an idle app, which a playing solver never is: plain sleeps.
        for _ in range(200):
            await asyncio.sleep(0.01)
            if screen.session.game.state.moves >= 3:
                break
        assert screen.session.game.state.moves >= 3
        assert screen.session.game.flags.solver and screen.session.game.flags.uncounted
        screen.on_key(events.Key("v", "v"))  # its own key is left to toggle it
        assert screen.solver.watching
        screen.on_key(events.Key("x", "x"))  # any other key takes over
        assert not screen.solver.watching
        moves = screen.session.game.state.moves
        await pilot.pause(0.1)
        assert screen.session.game.state.moves == moves
        screen.action_watch_solver()
        assert screen.solver.watching
        screen.action_watch_solver()
        assert not screen.solver.watching


def test_modes_offer_sample_and_solver_only_through_the_contract(make_app: AppFactory):
    app = make_app()
    mode = app.registry.mode("2048-5x5")
    assert mode.sample is not None and mode.autoplayer is not None
    assert mode.sample() is not None
    daily = app.registry.mode("2048-daily")
    assert daily.sample is None  # today's board has no stored game


async def test_the_clock_stops_while_the_terminal_is_away(make_app: AppFactory):
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        game = slide(app).session.game
        assert game.running
        app.app_focus = False
        await pilot.pause()
        assert not game.running
        app.app_focus = True
        await pilot.pause()
        assert game.running


async def test_a_move_that_changes_no_key_leaves_the_footer_as_it_is(make_app: AppFactory):
    """The footer was built again after every move, the same as before: most of a move's time."""
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = slide(app)
        await pilot.press("left")  # undo is offered from now on: the footer changes once
        await pilot.pause()
        footer = screen.query_one(Footer)
        keys = list(footer.children)
        assert keys
        for move in ("up", "right", "down"):
            moves = screen.session.game.state.moves
            await pilot.press(move)
            await pilot.pause()
            if screen.session.game.state.moves > moves:
                break
        assert screen.session.game.state.moves > MID_GAME["moves"] + 1, "no second move"
        assert list(footer.children) == keys  # the very same keys, not a new footer


async def test_the_footer_is_built_again_only_when_its_keys_change(make_app: AppFactory):
    """Textual's Footer rebuilds on every bindings signal (focus, screen switches), most of
    them the same keys: ours rebuilds when a key, its label or its state changes."""
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = slide(app)
        footer = screen.query_one(Footer)
        keys = list(footer.query(FooterKey))
        screen.refresh_bindings()  # the signal, with the same keys
        await pilot.pause()
        assert list(footer.query(FooterKey)) == keys
        await pilot.press("left")  # a move: the same keys, nothing built again
        await pilot.pause()
        assert list(footer.query(FooterKey)) == keys
        app.set_keymap({"slide.undo": "x,ctrl+z"})  # another key for Undo: built again
        screen.refresh_bindings()
        await pilot.pause()
        [undo] = [key for key in footer.query(FooterKey) if key.action == "screen.undo"]
        assert undo.key_display == "x"
        assert list(footer.query(FooterKey)) != keys
