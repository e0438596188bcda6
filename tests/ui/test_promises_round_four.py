"""What a careful player found still broken, checked through the real app: one key never
loses a game, the solver asks before a game stops counting, and every screen fits."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import AppFactory, set_settings
from tests.waiting import until
from twofold.core.store import SqliteStore
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.widgets.footer import Footer

MODES = ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248", "2248-daily", "2248-blitz")
SIZES = ((100, 32), (44, 20))


def game_screen(app: TwofoldApp) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


async def play(pilot: Pilot[None], *, until_points: bool = False, moves: int = 2) -> None:
    """Play moves the mode's own solver chooses, through the screen (bounded)."""
    screen = game_screen(pilot.app)  # type: ignore[arg-type]
    make = screen.mode.autoplayer
    assert make is not None
    player = make(None)
    for played in range(60):
        if until_points and screen.state.score > 0 and played >= moves:
            return
        if not until_points and played >= moves:
            return
        action = player.choose(screen.state)
        assert action is not None and screen.act(action) is not None
        await pilot.pause()
    raise AssertionError("no points after 60 moves")


async def press_b(pilot: Pilot[None]) -> str:
    await pilot.press("b")
    await pilot.pause()
    return game_screen(pilot.app).session.game.game_id  # type: ignore[arg-type]


# -- Last game swaps: the game it replaces is the one it brings back --------------------------


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode_id", MODES)
async def test_last_game_swaps_and_never_destroys(
    make_app: AppFactory, store: SqliteStore, mode_id: str, size: tuple[int, int]
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=size) as pilot:
        await play(pilot, until_points=True)
        first = game_screen(app).session.game.game_id
        await pilot.press("n")
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await play(pilot)
        second = game_screen(app).session.game
        second_id, second_log = second.game_id, list(second.log)
        assert second_id != first
        assert await press_b(pilot) == first
        assert "Back to game" in game_screen(app).announcer.text
        assert await press_b(pilot) == second_id  # twice: where the player started
        assert game_screen(app).session.game.log == second_log
        await pilot.press("q")  # the menu, and the mode again
        await pilot.pause()
        app.open_mode(mode_id)
        await pilot.pause()
        assert await press_b(pilot) == first
    app = make_app(mode_id, motion=False)  # the app again
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert game_screen(app).session.game.game_id == first
        assert await press_b(pilot) == second_id
        assert game_screen(app).session.game.log == second_log
        assert await press_b(pilot) == first


# -- Watch the solver asks before a counted game stops counting -------------------------------


def bar_text(app: TwofoldApp, name: str) -> str:
    from textual.widgets import Label

    return str(game_screen(app).query_one(f"#topbar-{name}", Label).render())


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_the_solver_asks_before_a_counted_game_stops_counting(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await play(pilot, until_points=True)
        screen = game_screen(app)
        await pilot.press("v")
        assert isinstance(app.screen, ConfirmDialog)
        assert "never counts" in app.screen.body
        await pilot.press("escape")  # Cancel: the game still counts, nobody plays it
        assert app.screen is screen and not screen.solver.watching
        assert not screen.game.flags.uncounted
        assert "not counted" not in bar_text(app, "code")
        await pilot.press("v", "y")
        assert screen.solver.watching and screen.game.flags.uncounted
        await pilot.press("v")  # its own key stops it
        assert not screen.solver.watching
        assert "not counted" in bar_text(app, "code")
        await pilot.press("v")  # a game that no longer counts: nothing more to ask
        assert app.screen is screen and screen.solver.watching
        await pilot.press("v")


# -- at the smallest size, the too-small board names the key that shows it ------------------


def board_words(app: TwofoldApp) -> str:
    from twofold.ui.app.board.widget import GameBoard

    board = game_screen(app).query_one(GameBoard)
    return " ".join("".join(board.render_line(y).text for y in range(board.size.height)).split())


@pytest.mark.parametrize("mode_id", ["2248", "2248-daily", "2248-blitz"])
async def test_the_smallest_size_names_the_key_that_shows_the_board(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(44, 20)) as pilot:
        await pilot.pause()
        words = board_words(app)
        assert "too small" in words and "press m (Max) to show the board alone" in words
        await pilot.press("m")  # and Max does show it, whole
        from twofold.ui.app.board.widget import GameBoard

        assert game_screen(app).query_one(GameBoard).geometry is not None


# -- Esc cancels what is in progress first; a pause keeps it; the solver's Esc does one thing --


def ladder_position() -> dict[str, object]:
    from tests.ui_chain.conftest import ladder

    return {"board": ladder()}


async def draw_two(pilot: Pilot[None]) -> None:
    """Start a chain of the ladder's two 2s with the keys (the cursor starts bottom left)."""
    await pilot.press("left", "space", "right", "space")  # the first key shows the cursor
    await pilot.pause()


def chain_of(app: TwofoldApp) -> list[tuple[int, int]]:
    from twofold.ui.app.board.chain import ChainBoard

    return list(game_screen(app).query_one(ChainBoard).chain)


async def test_esc_in_max_cancels_the_chain_before_leaving_max(
    make_app: AppFactory, store: SqliteStore
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app("2248", position=ladder_position(), motion=False)
    async with app.run_test(size=(44, 20)) as pilot:
        await pilot.press("m")
        screen = game_screen(app)
        assert screen.maximized is not None
        await draw_two(pilot)
        assert chain_of(app) == [(7, 0), (7, 1)]
        await pilot.press("escape")  # the chain goes, Max stays
        assert chain_of(app) == [] and screen.maximized is not None
        await pilot.press("escape")  # then Max goes
        assert screen.maximized is None and app.screen is screen


@pytest.mark.parametrize("how", ["p", "focus"])
async def test_a_pause_keeps_the_chain_being_drawn(
    make_app: AppFactory, store: SqliteStore, how: str
) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app("2248", position=ladder_position(), motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = game_screen(app)
        await draw_two(pilot)
        if how == "p":
            await pilot.press("p")
            assert screen.play.paused  # type: ignore[attr-defined]
            await pilot.press("p")
        else:
            screen.focus_lost()
            await pilot.pause()
            await pilot.press("escape")  # Esc ends the pause first
        assert not screen.play.paused  # type: ignore[attr-defined]
        assert chain_of(app) == [(7, 0), (7, 1)]  # where the player was
        await pilot.press("enter")  # and it merges
        assert screen.state.score > 0


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_esc_while_the_solver_plays_only_takes_the_board_back(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    from twofold.ui.app.dialogs import PauseDialog

    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = game_screen(app)
        await pilot.press("v")
        assert screen.solver.watching
        await pilot.press("escape")
        assert not screen.solver.watching
        assert "You have the board again." in screen.announcer.text
        assert app.screen is screen and not isinstance(app.screen, PauseDialog)
        await pilot.press("escape")  # the next Esc pauses, as ever
        assert not isinstance(app.screen, GameScreen)


# -- a footer offers only what the mode has ---------------------------------------------------


async def test_blitz_offers_no_undo(make_app: AppFactory, store: SqliteStore) -> None:
    set_settings(store, tutorial_seen=True)
    app = make_app("2248-blitz", motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = game_screen(app)
        assert not any(b.binding.action == "screen.undo" for b in screen.active_bindings.values())
        footer = screen.query_one(Footer)
        shown = [action for _k, _d, _t, action, *_s in footer.shown_keys(screen)[0]]
        assert "screen.undo" not in shown
    app = make_app("2248", motion=False)  # 2248 has its Undo
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        bindings = game_screen(app).active_bindings.values()
        assert any(b.binding.action == "screen.undo" and b.enabled for b in bindings)


# -- Settings at the smallest size: every word whole -------------------------------------------


def widget_words(widget: object) -> str:
    from textual.geometry import Region
    from textual.widget import Widget

    assert isinstance(widget, Widget)
    width, height = widget.region.size  # padding included
    strips = widget.render_lines(Region(0, 0, width, height))
    return " ".join(" ".join(strip.text for strip in strips).split())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_settings_cut_no_word(make_app: AppFactory, size: tuple[int, int]) -> None:
    from textual.widgets import Input, Label, Select

    from twofold.ui.app.screens.settings import SettingsScreen

    app = make_app(motion=False)
    async with app.run_test(size=size) as pilot:
        await app.push_screen(SettingsScreen())
        await pilot.pause()
        screen = app.screen
        width = size[0]
        for label in screen.query(Label):
            text = " ".join(str(label.render()).split())
            assert label.region.right <= width, text
            assert widget_words(label) == text, (label.size, label.region)  # wrapped, never cut
        for select in screen.query(Select):
            assert select.region.right <= width
        for select_id, shown in (("theme", "textual-dark"), ("language", "From the system")):
            current = screen.query(f"#setting-{select_id} SelectCurrent Static").first()
            assert widget_words(current) == shown
        field = screen.query_one("#setting-leaderboard", Input)
        assert field.region.right <= width
        assert field.placeholder in widget_words(field)  # the whole placeholder


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_help_cuts_no_key_name_at_the_smallest_size(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    from textual.widgets._markdown import MarkdownTableCellContents

    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(44, 20)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        cells = list(app.screen.query(MarkdownTableCellContents))
        assert cells
        for cell in cells:
            text = " ".join(str(cell.render()).split())
            assert widget_words(cell) == text  # wrapped, never "Ent…"


# -- the pause says what waits; a position is never passed off as a link ----------------------


@pytest.mark.parametrize(("mode_id", "clock"), [("2048", False), ("2248-blitz", True)])
async def test_the_pause_names_a_clock_only_where_there_is_one(
    make_app: AppFactory, store: SqliteStore, mode_id: str, clock: bool
) -> None:
    from twofold.ui.app.dialogs import PauseDialog

    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("escape")
        assert isinstance(app.screen, PauseDialog)
        assert ("clock" in app.screen.body) is clock


async def test_copy_link_on_a_position_says_it_cannot_travel(make_app: AppFactory) -> None:
    from tests.ui.conftest import MID_GAME

    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("c")
        screen = game_screen(app)
        assert app.screen is screen and app.clipboard == ""  # nothing copied
        assert "cannot travel as a link" in screen.announcer.text


# -- a second window's Best is the records' Best ------------------------------------------------


async def test_a_second_window_shows_the_records_best(
    make_app: AppFactory, store: SqliteStore
) -> None:
    from twofold.core.store import open_store
    from twofold.ui.app.screens.statistics import StatisticsScreen

    first = make_app("2048", motion=False)
    async with first.run_test(size=(100, 32)) as pilot:
        await play(pilot, until_points=True, moves=6)
        best = game_screen(first).state.score
        assert best > 0
        other = open_store(owner="second-window")
        try:
            second = TwofoldApp(first.registry, other, mode_id="2048")
            async with second.run_test(size=(100, 32)) as pilot2:
                await pilot2.pause()
                screen = game_screen(second)
                assert not screen.session.seated  # the first window holds the mode
                assert bar_text(second, "best") == f"Best {best}"
                second.push_screen(StatisticsScreen("2048"))
                await pilot2.pause()
                assert second.store.records("2048").best == best  # what Statistics shows
        finally:
            other.close()


# -- the mode menu fits the smallest size, or scrolls visibly ----------------------------------


async def test_the_menu_fits_at_the_smallest_size_with_every_mode_saved(
    make_app: AppFactory, store: SqliteStore
) -> None:
    from textual.widgets import OptionList

    from twofold.core.plugins import registry
    from twofold.core.session import Session

    for mode in registry().modes.values():  # every mode with a game in progress
        session = Session(mode, store)
        assert mode.autoplayer is not None
        action = mode.autoplayer(None).choose(session.game.state)
        assert action is not None
        session.act(action)
        session.close()
    app = make_app(motion=False)
    async with app.run_test(size=(44, 20)) as pilot:
        await pilot.pause()
        screen = app.screen
        modes = screen.query_one("#modes", OptionList)
        description = screen.query_one("#mode-description")
        footer = screen.query_one(Footer)
        await until(  # fitted again once the footer has wrapped
            pilot, lambda: description.region.bottom <= footer.region.y, what="the fit"
        )
        assert modes.region.bottom <= description.region.y  # its bottom border shows
        assert description.region.bottom <= footer.region.y  # and the words under it
        assert modes.max_scroll_y > 0  # it scrolls: the rest is a key press away
        words = " ".join(str(description.render()).split())
        assert widget_words(description) == words


# -- below the smallest size, one message on every screen ---------------------------------------


@pytest.mark.parametrize("size", [(30, 12), (40, 16), (43, 20), (44, 19)])
@pytest.mark.parametrize("mode_id", [None, "2048", "2248"])
async def test_below_the_smallest_size_one_message_names_the_size(
    make_app: AppFactory, store: SqliteStore, mode_id: str | None, size: tuple[int, int]
) -> None:
    from textual.widgets import Static

    from twofold.ui.app.screens.too_small import TooSmallScreen

    set_settings(store, tutorial_seen=True)
    app = make_app(mode_id, motion=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        words = widget_words(app.screen.query_one("#too-small", Static))
        assert words == "Terminal too small: make it at least 44x20."
        await pilot.resize_terminal(44, 20)  # large enough: back where the player was
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        if mode_id is not None:
            assert game_screen(app).mode.id == mode_id


# -- every end of a game offers Copy result, and Send when a leaderboard is set ----------------


@pytest.mark.parametrize("leaderboard", ["", "http://127.0.0.1:9/"])
async def test_game_over_offers_copy_result_and_send(
    make_app: AppFactory, store: SqliteStore, leaderboard: str
) -> None:
    from tests.ui.conftest import NEARLY_OVER
    from twofold.ui.app.dialogs import GameOverDialog, ResultDialog

    set_settings(store, leaderboard=leaderboard, leaderboard_name="Ana")
    app = make_app("2048", position=NEARLY_OVER, motion=False)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("right")
        await pilot.pause()
        assert isinstance(app.screen, GameOverDialog)
        assert app.screen.query("#choice-copy")
        assert bool(app.screen.query("#choice-send")) is bool(leaderboard)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ResultDialog)
        assert app.clipboard.startswith("twofold 2048: Score ")


@pytest.mark.parametrize("leaderboard", ["", "http://127.0.0.1:9/"])
async def test_the_chain_result_offers_copy_result_and_send(leaderboard: str) -> None:
    from tests.ui_chain.conftest import no_pairs, playing, shown
    from twofold.core.settings import Settings
    from twofold.ui.app.dialogs import ResultDialog
    from twofold.ui.app.screens.chain.dialogs import ChainResultDialog, RescueDialog

    settings = Settings(tutorial_seen=True, leaderboard=leaderboard, leaderboard_name="Ana")
    async with playing(position={"board": no_pairs(), "score": 500}, settings=settings) as (
        pilot,
        _screen,
    ):
        await shown(pilot, RescueDialog)
        await pilot.click("#choice-end")  # no chain left: End game
        dialog = await shown(pilot, ChainResultDialog)
        assert dialog.query("#choice-copy")
        assert bool(dialog.query("#choice-send")) is bool(leaderboard)
        await pilot.press("y")
        await shown(pilot, ResultDialog)
        assert "Score 500" in pilot.app.clipboard
