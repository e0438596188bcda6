"""Plugins in the app: in the menu, played on the generic screens, stopped when they fail."""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pytest
from textual.widgets import OptionList

from tests.waiting import notifications
from twofold.core import plugins
from twofold.core.store import open_store
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.screens.slide import SlidePlay


def fib_and_a_broken_plugin() -> plugins.Registry:
    """twofold's own entry points (not the developer's other plugins), a broken one, and the
    Fibonacci example (a test using it asks for ``other_entry_points``)."""
    import twofold_fibonacci

    own = [
        ep
        for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)
        if ep.dist is not None and ep.dist.name == plugins.BUILTIN_DISTRIBUTION
    ]
    broken = EntryPoint("broken-import", "twofold_broken.unimportable", plugins.ENTRY_POINT_GROUP)
    return plugins.load([("fibonacci", twofold_fibonacci)], entry_points_=[*own, broken])


@pytest.mark.usefixtures("other_entry_points")
async def test_the_menu_lists_the_plugins_modes_and_greys_the_broken_one() -> None:
    store = open_store()

    try:
        app = TwofoldApp(fib_and_a_broken_plugin(), store)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            options = app.screen.query_one("#modes", OptionList)
            found = [options.get_option_at_index(i) for i in range(options.option_count)]
            ids = {option.id: option for option in found}
            assert "fib" in ids and "fib-daily" in ids and "2048" in ids
            assert not ids["fib"].disabled
            assert any(o.disabled and "broken-import" in (o.id or "") for o in found)
    finally:
        store.close()


@pytest.mark.usefixtures("other_entry_points")
async def test_a_fibonacci_game_plays_on_the_generic_slide_screen() -> None:
    store = open_store()

    try:
        app = TwofoldApp(fib_and_a_broken_plugin(), store, mode_id="fib")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(getattr(screen, "play", None), SlidePlay)
            for key in ("left", "up", "right", "down"):
                await pilot.press(key)
            game = screen.session.game
            assert game.log and game.state.moves == len(game.log)
            await pilot.press("u")
            assert game.log[-1] == "undo"
            assert store.load_save("fib") is not None
    finally:
        store.close()


async def test_a_mode_whose_rules_crash_mid_game_is_stopped_with_a_notice_and_its_save_kept() -> (
    None
):
    from twofold_broken import faulty

    store = open_store()
    registry = plugins.load([("broken-faulty", faulty)], entry_points_=[])

    try:
        app = TwofoldApp(registry, store, mode_id="faulty")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(getattr(app.screen, "play", None), SlidePlay)
            await pilot.press("left", "up")
            saved = store.load_save("faulty")
            assert saved is not None and saved.actions == ("left", "up")
            await pilot.press("right")  # the rules divide by zero
            await pilot.pause()
            assert not isinstance(getattr(app.screen, "play", None), SlidePlay)
            assert any("faulty" in n.message for n in notifications(app))
            kept = store.load_save("faulty")
            assert kept is not None and kept.actions == saved.actions  # only the clock moved
    finally:
        store.close()


# -- both examples, the way a player meets them ---------------------------------------------


def examples() -> plugins.Registry:
    import twofold_chainsum
    import twofold_fibonacci

    return plugins.load(
        [("fibonacci", twofold_fibonacci), ("chainsum", twofold_chainsum)], entry_points_=[]
    )


def screen_text(app: TwofoldApp) -> str:
    """Every word on the current screen, as a player reads it."""
    from io import StringIO

    from rich.console import Console
    from textual.widgets import Markdown, Static

    console = Console(file=StringIO(), width=120, record=True)
    for widget in app.screen.query(Static):
        content = widget.content
        console.print(content if not isinstance(content, str) else str(widget.render()))
    parts = [console.export_text()]
    parts += [w.source for w in app.screen.query(Markdown)]
    return "\n".join(parts)


async def play_a_little(pilot: Any, screen: Any) -> None:
    """A few legal actions: arrows on a slide board, the hint's chain on a chain board."""
    if isinstance(getattr(screen, "play", None), SlidePlay):
        for key in ("left", "up", "right", "down"):
            await pilot.press(key)
        return
    from tests.ui_chain.conftest import drag

    await pilot.press("h")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    board = screen.board
    assert board.hint, "the example's hint shows a chain"
    await drag(pilot, board, list(board.hint))


@pytest.mark.parametrize(("mode_id", "stat"), [("fib", "Sums made"), ("chainsum", "Longest chain")])
async def test_each_example_plays_undoes_hints_helps_counts_and_resumes(
    mode_id: str, stat: str
) -> None:
    from twofold.ui.app.screens.help import HelpScreen
    from twofold.ui.app.screens.statistics import StatisticsScreen

    store = open_store()
    registry = examples()
    mode = registry.mode(mode_id)

    try:
        app = TwofoldApp(registry, store, mode_id=mode_id)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            screen = app.screen
            await play_a_little(pilot, screen)
            game = screen.session.game
            assert game.log, "the actions were played"
            played = list(game.log)
            await pilot.press("u")
            await pilot.pause()
            assert game.log[-1] == "undo"
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            helped = screen_text(app)
            assert mode.help.split("\n")[0][:40] in helped
            assert "2048" not in helped
            assert "2248" not in helped
            await pilot.press("escape")
            await pilot.press("t")
            await pilot.pause()
            assert isinstance(app.screen, StatisticsScreen)
            assert stat in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("q")  # the menu; the game is saved
            await pilot.pause()
            assert app.screen is not screen
            saved = store.load_save(mode_id)
            assert saved is not None and list(saved.actions) == [*played, "undo"]
        resumed = TwofoldApp(registry, store, mode_id=mode_id)
        async with resumed.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            assert resumed.screen.session.game.log == [*played, "undo"]
    finally:
        store.close()


async def test_a_malformed_event_returns_to_the_menu_with_the_save_kept() -> None:
    from twofold_broken import faulty

    store = open_store()
    registry = plugins.load([("broken-move", faulty)], entry_points_=[])

    try:
        app = TwofoldApp(registry, store, mode_id="misdrawn")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(getattr(app.screen, "play", None), SlidePlay)
            await pilot.press("left")
            await pilot.press("right")  # a merge on cell (7, 7) of a 2x2 board
            await pilot.pause()
            assert not isinstance(getattr(app.screen, "play", None), SlidePlay)
            notices = " ".join(n.message for n in notifications(app))
            assert "misdrawn" in notices and "merged" in notices
            kept = store.load_save("misdrawn")
            assert kept is not None and kept.actions == ("left",)
    finally:
        store.close()
