"""A plugin's slide mode is in the app's menu and plays on the generic slide screen."""

from __future__ import annotations

import asyncio
from importlib.metadata import EntryPoint

from textual.widgets import OptionList

from twofold.core import plugins
from twofold.core.store import open_store
from twofold.ui.app import TwofoldApp
from twofold.ui.screens.slide import SlideScreen


def fib_and_a_broken_plugin() -> plugins.Registry:
    import twofold_fibonacci

    broken = EntryPoint("broken-import", "twofold_broken.unimportable", plugins.ENTRY_POINT_GROUP)
    return plugins.load(
        [("fibonacci", twofold_fibonacci)], entry_points_=[*plugins._entry_points(), broken]
    )


def test_the_menu_lists_the_plugins_modes_and_greys_the_broken_one() -> None:
    store = open_store()

    async def body() -> None:
        app = TwofoldApp(fib_and_a_broken_plugin(), store)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            options = app.screen.query_one("#modes", OptionList)
            found = [options.get_option_at_index(i) for i in range(options.option_count)]
            ids = {option.id: option for option in found}
            assert "fib" in ids and "fib-daily" in ids and "2048" in ids
            assert not ids["fib"].disabled
            assert any(o.disabled and "broken-import" in (o.id or "") for o in found)

    try:
        asyncio.run(body())
    finally:
        store.close()


def test_a_fibonacci_game_plays_on_the_generic_slide_screen() -> None:
    store = open_store()

    async def body() -> None:
        app = TwofoldApp(fib_and_a_broken_plugin(), store, mode_id="fib")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SlideScreen)
            for key in ("left", "up", "right", "down"):
                await pilot.press(key)
            game = screen.session.game
            assert game.log and game.state.moves == len(game.log)
            await pilot.press("u")
            assert game.log[-1] == "undo"
            assert store.load_save("fib") is not None

    try:
        asyncio.run(body())
    finally:
        store.close()


def test_a_mode_whose_rules_crash_mid_game_is_stopped_with_a_notice_and_its_save_kept() -> None:
    from twofold_broken import faulty

    store = open_store()
    registry = plugins.load([("broken-faulty", faulty)], entry_points_=[])

    async def body() -> None:
        app = TwofoldApp(registry, store, mode_id="faulty")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, SlideScreen)
            await pilot.press("left", "up")
            saved = store.load_save("faulty")
            assert saved is not None and saved.actions == ("left", "up")
            await pilot.press("right")  # the rules divide by zero
            await pilot.pause()
            assert not isinstance(app.screen, SlideScreen)
            assert any("faulty" in str(n.message) for n in app._notifications)
            kept = store.load_save("faulty")
            assert kept is not None and kept.actions == saved.actions  # only the clock moved

    try:
        asyncio.run(body())
    finally:
        store.close()
