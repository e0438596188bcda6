"""The mode menu (plugin modes, problems, saves, best scores), help, statistics, settings."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import OptionList, Select, Sparkline, Static, Switch

from tests.ui.conftest import CODE, MID_GAME, AppFactory
from tests.waiting import until
from twofold.core import _i18n as i18n
from twofold.core._presentation import Statistic
from twofold.core._rules import Mode
from twofold.core.session import FinishedGame
from twofold.core.store import SqliteStore
from twofold.plugin import hookimpl
from twofold.ui.app.app import TwofoldApp, run_app
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.screens.help import HelpScreen
from twofold.ui.app.screens.menu import MenuScreen
from twofold.ui.app.screens.settings import SettingsScreen
from twofold.ui.app.screens.slide import SlidePlay
from twofold.ui.app.screens.statistics import StatisticsScreen
from twofold.variants.classic2048.rules import ClassicRules


class MiniPlugin:
    """A third party's plugin: a 3x3 slide mode, and a mode with controls no screen has."""

    @hookimpl
    def twofold_register_modes(self, register: Callable[..., None]) -> None:
        register(
            Mode(
                id="mini-3x3",
                title="Mini 3x3",
                rules=ClassicRules(3),
                controls="slide",
                goal=64,
                description="A plugin's tiny board.",
            )
        )
        register(Mode(id="dial", title="Dial", rules=ClassicRules(4), controls="dial"))


class BrokenPlugin:
    @hookimpl
    def twofold_register_modes(self, register: Callable[..., None]) -> None:
        raise RuntimeError("the plugin fell over")


PLUGINS = (("mini", MiniPlugin()), ("broken", BrokenPlugin()))


def menu_options(app: TwofoldApp) -> dict[str, Any]:
    option_list = app.screen.query_one("#modes", OptionList)
    return {option.id: option for option in option_list.options}


def finish(
    store: SqliteStore,
    mode_id: str,
    score: int,
    tiles: tuple[int, ...],
    n: int,
    stats: dict[str, int] | None = None,
) -> None:
    store.record_finished(
        FinishedGame(
            game_id=f"{mode_id}-{n}",
            mode_id=mode_id,
            code=CODE,
            score=score,
            largest=max(tiles),
            moves=score // 10,
            elapsed=60.0 * n,
            counted=True,
            won=max(tiles) >= 2048,
            tiles=tiles,
            stats=stats or {},
            day=None,
            finished_at=1_700_000_000.0 + n,
        )
    )


async def test_the_menu_lists_every_mode_plugin_modes_and_problems(make_app: AppFactory):
    app = make_app(extra=PLUGINS)
    async with app.run_test(size=(80, 24)):
        assert isinstance(app.screen, MenuScreen)
        options = menu_options(app)
        for mode_id in ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248", "mini-3x3"):
            assert mode_id in options and not options[mode_id].disabled
        problems = [o for key, o in options.items() if key.startswith("problem:")]
        assert all(o.disabled for o in problems)
        texts = " ".join(str(o.prompt) for o in problems)
        assert "the plugin fell over" in texts
        assert "unknown controls 'dial'" in texts


async def test_chain_modes_are_greyed_when_their_screen_is_missing(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setitem(sys.modules, "twofold.ui.app.screens.chain", None)  # importing it fails

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        options = menu_options(app)
        assert options["2248"].disabled
        assert "no screen for chain games is installed" in str(options["2248"].prompt)
        assert not app.open_mode("2248")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)


async def test_the_menu_shows_best_scores_and_waiting_games(
    make_app: AppFactory, store: SqliteStore
):
    finish(store, "2048-5x5", 3456, (2, 4, 256), 1)

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert "best 3456" in str(menu_options(app)["2048-5x5"].prompt)
        assert "no games yet" in str(menu_options(app)["2048"].prompt)
        app.open_mode("2048")
        await pilot.pause()
        await pilot.press("left", "up", "right", "q")
        assert isinstance(app.screen, MenuScreen)
        assert "game in progress" in str(menu_options(app)["2048"].prompt)


async def test_enter_and_click_open_a_mode(make_app: AppFactory):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        option_list = app.screen.query_one("#modes", OptionList)
        index = [o.id for o in option_list.options].index("2048-5x5")
        option_list.highlighted = index
        await pilot.press("enter")
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), SlidePlay) and screen.mode.id == "2048-5x5"
        await pilot.press("q")
        index = [o.id for o in option_list.options].index("2048-6x6")
        await pilot.click("#modes", offset=(5, 1 + index))
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), SlidePlay) and screen.mode.id == "2048-6x6"


async def test_a_plugins_slide_mode_plays_on_the_slide_screen(make_app: AppFactory):
    app = make_app(extra=PLUGINS)
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.open_mode("mini-3x3")
        await pilot.pause()
        screen = app.screen
        assert isinstance(getattr(screen, "play", None), SlidePlay)
        board = screen.query_one(SlideBoard)
        assert len(board.board) == 3
        geometry = board.geometry
        assert geometry is not None and geometry.cols == 3
        for key in ("left", "up", "right", "down"):
            await pilot.press(key)
        assert board.board == screen.session.game.state.board
        assert screen.session.game.state.moves >= 1


async def test_a_chain_screen_that_fails_to_import_greys_its_modes(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
):
    import builtins

    real_import = builtins.__import__

    def failing_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "twofold.ui.app.screens.chain":
            raise RuntimeError("broken chain screen")
        return real_import(name, *args, **kwargs)

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert not menu_options(app)["2248"].disabled  # found, not yet imported
        monkeypatch.setattr(builtins, "__import__", failing_import)
        assert not app.open_mode("2248")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        option = menu_options(app)["2248"]
        assert option.disabled and "failed to load (RuntimeError)" in str(option.prompt)


async def test_help_lists_rules_and_every_key(make_app: AppFactory):
    app = make_app("2048")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        text = app.screen.query_one("#help-text").source  # type: ignore[attr-defined]
        for words in ("merge", "Undo", "Copy link", "Ctrl+Z", "W", "H"):
            assert words in text
        await pilot.press("escape")
        assert isinstance(getattr(app.screen, "play", None), SlidePlay)


async def test_statistics_show_records_tiles_and_recent_scores(
    make_app: AppFactory, store: SqliteStore
):
    for n, score in enumerate((1200, 3400, 2200), start=1):
        finish(store, "2048", score, (2, 4, 8, 16, 128, 256), n)

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.screen.query_one("#modes", OptionList).highlighted = list(app.registry.modes).index(
            "2048"
        )
        await pilot.press("t")
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        assert screen.mode_id == "2048"
        sparkline = screen.query_one("#stats-scores", Sparkline)
        assert list(sparkline.data or []) == [1200.0, 3400.0, 2200.0]
        tiles = str(screen.query_one("#stats-tiles", Static).render())
        assert "256" in tiles
        await pilot.press("right_square_bracket")
        assert screen.mode_id != "2048"
        await pilot.press("escape")
        assert isinstance(app.screen, MenuScreen)


class ChainsPlugin:
    """A third party's mode with a statistic of its own."""

    @hookimpl
    def twofold_register_modes(self, register: Callable[..., None]) -> None:
        own = (Statistic("sum_chains", "Chains", "total"),)
        register(Mode(id="chains", title="Chain sum", rules=ClassicRules(4), statistics=own))


def shown_records(screen: StatisticsScreen) -> str:
    console = Console(file=io.StringIO(), record=True, width=80)
    console.print(screen.query_one("#stats-records", Static).content)
    return console.export_text()


async def test_statistics_show_each_modes_own_statistics(make_app: AppFactory, store: SqliteStore):
    for n, sums in enumerate((4, 5), start=1):
        finish(store, "chains", 100 * n, (2, 4, 64), n, stats={"sum_chains": sums})
    finish(store, "2048", 1000, (2, 2048), 3)
    finish(store, "2248", 500, (2, 64), 4, stats={"longest_chain": 7, "merges": 30})

    app = make_app(extra=[("chains", ChainsPlugin())])
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(StatisticsScreen("chains"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        text = shown_records(screen)
        assert "Chains" in text and "9" in text and "Games played" in text
        for other in ("2048", "2248", "Longest chain", "Merges", "streak"):
            assert other not in text
        screen.query_one("#stats-mode", Select).value = "2048"
        await pilot.pause()
        text = shown_records(screen)
        assert "Games reaching 2048" in text and "Longest chain" not in text
        screen.query_one("#stats-mode", Select).value = "2248"
        await pilot.pause()
        text = shown_records(screen)
        assert "Longest chain" in text and "Merges" in text and "30" in text
        assert "Games reaching 2048" not in text


async def test_settings_are_used_and_saved(make_app: AppFactory, store: SqliteStore):
    app = make_app("2048")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        screen.query_one("#setting-theme", Select).value = "nord"
        await pilot.pause()
        assert app.theme == "nord"
        await pilot.click("#setting-sound")
        await pilot.click("#setting-reduced_motion")
        assert screen.query_one("#setting-sound", Switch).value
        saved = store.load_settings()
        assert saved.theme == "nord" and saved.sound and saved.reduced_motion
        await pilot.press("escape")
        game = app.screen
        assert isinstance(getattr(game, "play", None), SlidePlay)
        assert not game.query_one(SlideBoard).animate_moves


async def test_a_new_language_rebuilds_the_screens_at_once(
    make_app: AppFactory, store: SqliteStore
):
    app = make_app("2048", position=MID_GAME, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("left")
        played = app.screen.session.game.state  # type: ignore[attr-defined]
        assert played.moves == MID_GAME["moves"] + 1
        await pilot.press("comma")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), what="the settings")
        before = app.screen
        before.query_one("#setting-language", Select).value = "de"
        # the rebuild is the app's next message, not the same one: wait on it, not on a pause
        await until(
            pilot,
            lambda: isinstance(app.screen, SettingsScreen) and app.screen is not before,
            what="the settings screen built again in German",
        )
        assert i18n.current_language() == "de"
        assert store.load_settings().language == "de"
        await pilot.press("escape")
        await until(
            pilot,
            lambda: isinstance(getattr(app.screen, "play", None), SlidePlay),
            what="the game again",
        )
        game = app.screen
        assert isinstance(getattr(game, "play", None), SlidePlay)
        assert game.session.game.state == played
        descriptions = {a.binding.description for a in game.active_bindings.values()}
        assert i18n._("Move") != "Move"
        assert i18n._("Move") in descriptions


async def test_key_bindings_open_from_settings(make_app: AppFactory):
    app = make_app(motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("comma")
        await pilot.click("#setting-keys")
        assert type(app.screen).__name__ == "KeyBindingsScreen"


async def test_saved_settings_apply_at_start(make_app: AppFactory):
    app = make_app(theme="textual-light")
    async with app.run_test(size=(80, 24)):
        assert app.theme == "textual-light"


async def test_sound_rings_the_bell_on_a_merge(make_app: AppFactory, store: SqliteStore):
    position = {"board": [[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}

    app = make_app("2048", position=position, motion=False)
    rings: list[float] = []
    app.bell = lambda: rings.append(time.monotonic())  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        app.settings = app.settings.__class__(**{**app.settings.as_dict(), "sound": True})
        await pilot.press("left")
        assert len(rings) == 1


def test_run_app_refuses_an_unknown_mode(capsys: Any):
    assert run_app("no-such-mode") == 2
    assert "no-such-mode" in capsys.readouterr().err


async def test_help_from_the_menu_covers_2248_and_starts_its_tutorial(make_app: AppFactory) -> None:
    from twofold.ui.app.screens.help import help_markdown
    from twofold.ui.app.screens.tutorial import TutorialScreen

    text = help_markdown(None)
    assert "2248" in text and "retire" in text.lower()

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.screen, TutorialScreen)
