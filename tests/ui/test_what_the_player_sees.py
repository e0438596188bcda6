"""What a player tripped on in the app: plots, titles, Copy, R, Esc, help, undo, hints, bars."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from rich.cells import cell_len
from textual.containers import VerticalGroup
from textual.pilot import Pilot
from textual.widgets import Label, Sparkline
from textual.widgets._footer import FooterKey  # private: in no public Textual module

from tests.ui.conftest import CODE, LONG_ROWS, MID_GAME, AppFactory, set_settings
from tests.ui.test_menu_and_screens import finish
from tests.ui_chain.conftest import ladder
from tests.waiting import footer_drawn, notifications, until
from twofold.core import plugins
from twofold.core.session import Session
from twofold.core.store import SqliteStore
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.dialogs import BoardReading, PauseDialog, ResultDialog
from twofold.ui.app.keys import KeyBindingsScreen, key_actions
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.help import HelpScreen
from twofold.ui.app.screens.menu import MenuScreen
from twofold.ui.app.screens.settings import SettingsScreen
from twofold.ui.app.screens.statistics import StatisticsScreen

#: no pairs but a bottom row of 2 2 4 8 16: the chain (7,0) (7,1) (7,2) makes 8
LADDER = ladder()
#: every built-in mode's family: no tutorial comes first
FAMILIES = tuple(sorted({mode.family for mode in plugins.registry().modes.values()}))


@contextlib.asynccontextmanager
async def playing(
    make_app: AppFactory,
    store: SqliteStore,
    mode_id: str,
    size: tuple[int, int],
    position: dict[str, Any] | None = None,
    *,
    motion: bool = False,
    screen: type[GameScreen] = GameScreen,
) -> AsyncIterator[tuple[TwofoldApp, Pilot[None]]]:
    """The app in a game of ``mode_id`` (code CODE), every tutorial seen, once its screen is up."""
    set_settings(store, tutorials_seen=FAMILIES)
    app = make_app(mode_id, code=CODE, position=position, motion=motion)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, screen))
        yield app, pilot


# -- 10. one finished game is a bar, not a wall ---------------------------------------------


@pytest.mark.parametrize("scores", [(2116,), (900, 900, 900)], ids=["one game", "equal scores"])
async def test_recent_scores_of_one_game_or_equal_scores_are_a_plot_not_a_wall(
    make_app: AppFactory, store: SqliteStore, scores: tuple[int, ...]
) -> None:
    for n, score in enumerate(scores, start=1):
        finish(store, "2048", score, (2, 4, 8, 256), n)
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.push_screen(StatisticsScreen("2048"))
        await until(pilot, lambda: isinstance(app.screen, StatisticsScreen))
        await pilot.pause()
        plot = app.screen.query_one("#stats-scores", Sparkline)
        assert plot.region.width <= 2 * len(scores)  # a bar a game, never stretched
        assert app.export_screenshot().count("█") <= 4 * 2  # one bar at most, four rows tall


# -- 13. the small things ------------------------------------------------------------------


async def test_settings_has_a_title_as_statistics_has(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(SettingsScreen())
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen))
        title = app.screen.query_one("#settings-title", Label)
        assert str(title.render()) == "Settings"
        assert title.region.y <= 1  # at the top, where Statistics has its own


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
async def test_copy_link_and_copy_result_are_shown_one_way(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    async with playing(make_app, store, mode_id, (80, 24)) as (app, pilot):
        shown = []
        for key, title in (("c", "Link copied"), ("y", "Result copied")):
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, ResultDialog), what=title)
            dialog = app.screen
            assert isinstance(dialog, ResultDialog)
            shown.append((dialog.title_text, dialog.body == app.clipboard))
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert shown == [("Link copied", True), ("Result copied", True)]
        assert notifications(app) == []  # no toast beside the dialog


# -- 12. Best on screen is the records' Best, always -----------------------------------------------


async def test_best_after_reopening_and_undoing_is_the_records_best(
    make_app: AppFactory, store: SqliteStore
) -> None:
    session = Session(plugins.registry().mode("2048"), store)
    session.new_game(CODE)
    for action in ("left", "up", "right", "down") * 10:
        before = session.game.state.score
        session.act(action)
        if session.game.state.score > before:
            break  # the last move scored: undo takes points back
    session.close()
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        best = screen.topbar.query_one("#topbar-best", Label)
        await pilot.press("u")
        await until(pilot, lambda: screen.state.score < session.game.state.score)
        records = store.records("2048").best
        assert records == screen.state.score  # the records take the game in progress in
        assert str(best.render()) == f"Best {records}"


# -- 5. R reads the board in one way, in every mode ----------------------------------------


@pytest.mark.parametrize(
    ("mode_id", "position", "size"),
    [
        ("2048-6x6", LONG_ROWS, (44, 20)),
        ("2048", None, (80, 24)),
        ("2248", None, (44, 23)),
        ("2248", None, (100, 32)),
    ],
)
async def test_r_reads_the_board_in_a_dialog_whole_and_gone_with_it(
    make_app: AppFactory,
    store: SqliteStore,
    mode_id: str,
    position: dict[str, Any] | None,
    size: tuple[int, int],
) -> None:
    async with playing(make_app, store, mode_id, size, position=position) as (app, pilot):
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, BoardReading))
        await pilot.pause()
        reading = app.screen
        assert reading.body.splitlines() == game.read_lines()
        words = reading.query_one("#dialog-words")
        assert words.max_scroll_y == 0  # every row shown, none behind a scroll
        frame = reading.query_one(VerticalGroup).region
        assert frame.y >= 0 and frame.bottom <= size[1] and frame.right <= size[0]
        assert notifications(app) == []  # no toast over the arrows or the next screen
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game)
        await pilot.press("q")
        await until(pilot, lambda: not isinstance(app.screen, GameScreen))
        assert not any(isinstance(screen, BoardReading) for screen in app.screen_stack)


# -- 11. Esc means the same in every game --------------------------------------------------


@pytest.mark.parametrize("mode_id", ["2048", "2048-6x6", "2248", "2248-blitz"])
async def test_esc_closes_what_is_open_else_pauses_and_never_leaves(
    make_app: AppFactory, store: SqliteStore, mode_id: str
) -> None:
    async with playing(make_app, store, mode_id, (80, 24)) as (app, pilot):
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("question_mark")  # something open: Esc closes it
        await until(pilot, lambda: app.screen is not game)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is game)
        for _ in range(3):  # one more Esc pauses, the next plays on: never the menu
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, PauseDialog))
            pause = app.screen
            assert isinstance(pause, PauseDialog)
            assert [choice for choice, _label, _variant in pause.buttons] == ["resume", "menu"]
            assert not game.game.running
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is game)
            assert game.game.running
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, PauseDialog))
        await pilot.click("#choice-menu")
        await until(pilot, lambda: isinstance(app.screen, MenuScreen))


# -- 8. a key shown acts, or says in one line why it cannot now -----------------------------


async def test_2048_help_offers_no_tutorial_key(make_app: AppFactory, store: SqliteStore) -> None:
    async with playing(make_app, store, "2048", (100, 32)) as (app, pilot):
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        shown = [key.description for key in app.screen.query(FooterKey)]
        assert "Back" in shown and "Tutorial" not in shown


async def test_the_key_bindings_list_only_what_an_installed_mode_offers(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await app.push_screen(KeyBindingsScreen())
        await until(pilot, lambda: isinstance(app.screen, KeyBindingsScreen))
        screen = app.screen
        assert isinstance(screen, KeyBindingsScreen)
        listed = {action.binding_id for action, _key in screen.rows}
        assert "slide.hint" not in listed  # no slide mode here has a hint (2048 has none)
        assert "chain.sample" not in listed  # nor a chain mode a Sample
        assert {"slide.undo", "slide.watch_solver", "slide.sample", "chain.hint"} <= listed
    # a plugin's slide mode with a hint brings the key back
    slide = plugins.registry().mode("2048")
    hinted = dataclasses.replace(slide, id="hinted", hint=lambda state: None)
    from twofold.ui.app.keys import offered_actions

    kept = offered_actions(key_actions(), [hinted])
    assert "slide.hint" in {action.binding_id for action in kept}


@pytest.mark.parametrize(
    ("mode_id", "position", "why"),
    [
        ("2048", None, "nothing to undo"),
        ("2248", {"board": LADDER, "powerups": {"undo": 0}}, "no Undo left"),
    ],
)
async def test_undo_that_cannot_act_says_why_in_the_announcement(
    make_app: AppFactory,
    store: SqliteStore,
    mode_id: str,
    position: dict[str, Any] | None,
    why: str,
) -> None:
    async with playing(make_app, store, mode_id, (100, 32), position=position) as (app, pilot):
        game = app.screen
        assert isinstance(game, GameScreen)
        if position is not None:  # a merge first: its words must not stay after the refusal
            game.act("chain 7,0 7,1 7,2")
            await pilot.pause()
        keys = lambda: [key for key in game.query(FooterKey) if key.action == "screen.undo"]  # noqa: E731
        await until(pilot, keys, what="the footer's undo key")
        assert not keys()[0].has_class("-disabled")  # shown as a key that acts
        await pilot.press("u")
        await until(pilot, lambda: game.announcer.text == why, what=why)


# -- 9. a hint is a path, shown at once, hidden with the board ------------------------------


async def test_a_long_hint_shows_at_once_as_a_path_and_hides_with_the_board(
    make_app: AppFactory, store: SqliteStore
) -> None:
    position = {"board": [[2] * 5 for _ in range(8)]}  # the hint is all 40 tiles
    async with playing(make_app, store, "2248", (80, 24), position=position, motion=True) as (
        app,
        pilot,
    ):
        screen = app.screen
        assert isinstance(screen, GameScreen) and isinstance(screen.play, ChainPlay)
        await pilot.press("h")
        await until(pilot, lambda: bool(screen.board.hint), what="the hint")
        hint = screen.board.hint
        assert len(hint) == 40
        assert screen.board.marks()[2] == hint  # every tile of the path lit at once
        markers = [screen.board._markers(cell) for cell in hint]  # private: the arrows drawn
        assert markers[0][0] == "▶" and all(" " not in pair for pair in markers)
        said = screen.announcer.text
        assert "along the arrows" in said and len(said) <= 80  # a path, not 40 coordinates
        await pilot.press("p")
        await until(pilot, lambda: screen.play.paused)
        await pilot.pause()
        assert not screen.announcer.display  # hidden with the board
        assert "along the arrows" not in app.export_screenshot()
        await pilot.press("p")
        await until(pilot, lambda: screen.announcer.display)


# -- 6. every bar fits, or wraps, at every size the screen accepts --------------------------

MID_BOARD = MID_GAME["board"]
#: a 2048 game far on: the numbers on its top bar are as long as they get
FAR_ON = {**LONG_ROWS, "score": 1234567, "moves": 27400}


def cut_items(screen: Any) -> list[str]:
    """What shows less than whole on the screen's bars: its top bar, Footer, power-up row."""
    width, height = screen.size
    cut = []
    items: list[tuple[Any, str]] = []
    for label in screen.query(".topbar--title, .topbar--field"):
        items.append((label, str(label.render())))
    for key in screen.query(FooterKey):
        items.append((key, key.render().plain))
    for button in screen.query("PowerUpBar Button"):
        if button.display:
            items.append((button, str(button.label)))
    for widget, text in items:
        region, bar = widget.region, widget.parent.region
        if widget.parent.has_class("binding-group") or type(widget.parent).__name__ == "KeyGroup":
            bar = widget.parent.parent.region  # a key of a group, in the Footer
        inside = bar.contains_region(region) and region.right <= width and region.bottom <= height
        if text and (not inside or region.width < cell_len(text.rstrip())):
            cut.append(text)
    palette = [key.region for key in screen.query(FooterKey) if key.has_class("-command-palette")]
    for key in screen.query(FooterKey):
        if palette and not key.has_class("-command-palette") and key.region.overlaps(palette[0]):
            cut.append(key.render().plain)  # under the palette's key
    return cut


@pytest.mark.parametrize(
    ("mode_id", "position", "size"),
    [
        ("2048-6x6", FAR_ON, (44, 20)),
        ("2048", FAR_ON | {"board": MID_BOARD}, (44, 20)),
        ("2048", None, (80, 24)),
        ("2248", None, (44, 20)),
        ("2248", None, (44, 26)),
        ("2248-daily", None, (44, 26)),
        ("2248-blitz", None, (44, 26)),
        ("2248", None, (80, 24)),
        ("2248", None, (100, 32)),
    ],
)
async def test_every_bar_shows_every_item_whole(
    make_app: AppFactory,
    store: SqliteStore,
    mode_id: str,
    position: dict[str, Any] | None,
    size: tuple[int, int],
) -> None:
    async with playing(make_app, store, mode_id, size, position=position) as (app, pilot):
        screen = app.screen
        await footer_drawn(pilot, screen)
        await pilot.pause()
        await pilot.pause()
        assert cut_items(screen) == []
