"""Key bindings: ids everywhere, rebinding by a key press, conflicts, reset, restarts."""

from __future__ import annotations

from typing import Any

import pytest
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from twofold.core.plugins import registry
from twofold.core.settings import Settings
from twofold.core.store import open_store
from twofold.ui.app import keys
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.keys import KeyBindingsScreen, KeyCapture, key_actions, rebind


def action(binding_id: str) -> keys.KeyAction:
    return next(a for a in key_actions() if a.binding_id == binding_id)


def own_bindings(cls: type[Any]) -> list[Binding]:
    return list(Binding.make_bindings(cls.__dict__.get("BINDINGS", [])))


def test_every_key_of_every_screen_has_a_binding_id() -> None:
    # private: ui/app/keys' own screen discovery, the list this test checks (ui/ moves now)
    keys._import_screens()
    missing = [
        f"{cls.__module__}.{cls.__name__}: {binding.key} -> {binding.action}"
        for cls in keys._subclasses(Screen)
        if cls.__module__.startswith("twofold.")
        for binding in own_bindings(cls)
        if not binding.id
    ]
    assert missing == []


def test_every_binding_id_is_named_and_belongs_to_a_named_screen() -> None:
    for item in key_actions():
        assert item.title, item.binding_id
        assert item.owner.__name__ in keys.SCREEN_TITLES, item.owner
        assert item.default_keys, item.binding_id


def test_binding_ids_are_unique_per_meaning() -> None:
    seen: dict[str, str] = {}
    for cls in keys.screen_classes():
        for binding in own_bindings(cls):
            assert binding.id is not None
            # one id, one action: a keymap entry must not move two different things
            assert seen.setdefault(binding.id, binding.action) == binding.action, binding.id


def test_a_rebind_replaces_one_key_and_keeps_the_others() -> None:
    undo = action("slide.undo")
    result = rebind(undo, "u", "x", {})
    assert result.refused is None
    assert result.keymap == {"slide.undo": "x,ctrl+z"}
    assert undo.keys(result.keymap) == ("x", "ctrl+z")
    # back to the default key: the keymap forgets the entry
    assert rebind(undo, "x", "u", result.keymap).keymap == {}


def test_a_key_used_on_the_same_screen_is_refused_with_the_other_action() -> None:
    result = rebind(action("slide.undo"), "u", "n", {})
    assert result.keymap == {}
    assert result.refused is not None
    assert "“New”" in result.refused and "Slide game" in result.refused
    # the same key on another screen is fine: "n" is not used in the menu
    assert rebind(action("menu.quit"), "q", "n", {}).refused is None


def test_a_conflict_counts_keys_that_were_rebound() -> None:
    keymap = rebind(action("slide.undo"), "u", "x", {}).keymap
    refused = rebind(action("slide.new"), "n", "x", keymap).refused
    assert refused is not None and "Undo" in refused
    # and the freed key is free
    assert rebind(action("slide.new"), "n", "u", keymap).refused is None


def test_a_key_shared_by_dialogs_is_checked_in_every_dialog() -> None:
    refused = rebind(action("dialog.next"), "l", "y", {}).refused
    assert refused is not None and "“Yes”" in refused


def test_the_same_key_twice_is_refused() -> None:
    assert rebind(action("slide.left"), "a", "h", {}).refused is not None
    assert rebind(action("slide.left"), "a", "a", {}).refused is not None


# -- in the app ------------------------------------------------------------------------------


def rows_of(screen: KeyBindingsScreen, binding_id: str) -> list[int]:
    return [i for i, (a, _k) in enumerate(screen.rows) if a.binding_id == binding_id]


async def open_keys(app: TwofoldApp, pilot: Any) -> KeyBindingsScreen:
    screen = KeyBindingsScreen()
    await app.push_screen(screen)
    await pilot.pause()
    return screen


async def choose_row(screen: KeyBindingsScreen, pilot: Any, binding_id: str, key: str) -> None:
    row = next(i for i in rows_of(screen, binding_id) if screen.rows[i][1] == key)
    screen.query_one(DataTable).move_cursor(row=row)
    await pilot.pause()


def status(screen: KeyBindingsScreen) -> str:
    return str(screen.query_one("#keys-status", Static).render())


async def test_rebinding_refusing_and_resetting_in_the_screen() -> None:
    store = open_store()
    app = TwofoldApp(registry(), store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_keys(app, pilot)
        await choose_row(screen, pilot, "slide.undo", "u")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, KeyCapture)
        await pilot.press("n")
        await pilot.pause()
        assert app.screen is screen
        assert "“New”" in status(screen)
        assert app.settings.keymap == {}

        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        assert app.settings.keymap == {"slide.undo": "x,ctrl+z"}
        assert store.load_settings().keymap == {"slide.undo": "x,ctrl+z"}
        # private: Textual reads back no keymap it was given (set_keymap only)
        assert app._keymap == {"slide.undo": "x,ctrl+z"}

        # Esc in the capture changes nothing
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        assert app.settings.keymap == {"slide.undo": "x,ctrl+z"}

        await pilot.press("r")
        await pilot.pause()
        assert app.settings.keymap == {}
        assert store.load_settings().keymap == {}
        # private: as above, Textual has no public read of the keymap
        assert app._keymap == {}
        assert [screen.rows[i][1] for i in rows_of(screen, "slide.undo")] == ["u", "ctrl+z"]
    store.close()


async def test_a_rebound_key_works_after_a_restart() -> None:
    store = open_store()
    store.save_settings(Settings())
    app = TwofoldApp(registry(), store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_keys(app, pilot)
        await choose_row(screen, pilot, "slide.undo", "u")
        await pilot.press("enter", "x")
        await pilot.pause()
        assert app.settings.keymap == {"slide.undo": "x,ctrl+z"}
    store.close()

    store = open_store()
    app = TwofoldApp(registry(), store, mode_id="2048")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        game = app.screen.session.game  # type: ignore[attr-defined]
        for key in ("left", "up", "right", "down"):
            await pilot.press(key)
            await pilot.pause()
            if game.history:
                break
        depth = len(game.history)
        assert depth > 0
        await pilot.press("u")  # the old key no longer undoes
        await pilot.pause()
        assert len(game.history) == depth
        await pilot.press("x")
        await pilot.pause()
        assert len(game.history) == depth - 1
    store.close()


@pytest.mark.parametrize("binding_id", ["slide.undo"])
def test_apply_keymap_with_no_keys_restores_the_defaults(binding_id: str) -> None:
    class Fake:
        def __init__(self) -> None:
            self.keymap: dict[str, str] = {}

        def set_keymap(self, keymap: dict[str, str]) -> None:
            self.keymap = keymap

    fake = Fake()
    keys.apply_keymap(fake, Settings(keymap={binding_id: "x"}))  # type: ignore[arg-type]
    assert fake.keymap == {binding_id: "x"}
    keys.apply_keymap(fake, Settings())  # type: ignore[arg-type]
    assert fake.keymap == {}


async def test_the_app_quit_key_can_be_pressed_and_is_refused() -> None:
    store = open_store()
    app = TwofoldApp(registry(), store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = await open_keys(app, pilot)
        await choose_row(screen, pilot, "slide.undo", "u")
        await pilot.press("enter", "ctrl+q")
        await pilot.pause()
        assert app.is_running and app.screen is screen
        assert "“Quit the app" in status(screen)
        await pilot.press("enter", "ctrl+p")
        await pilot.pause()
        assert app.screen is screen
        assert app.settings.keymap == {}
    store.close()


def test_help_lists_the_keys_the_player_chose() -> None:
    from twofold.ui.app.screens.help import help_markdown

    rows = [line for line in help_markdown(None, {"slide.undo": "x,ctrl+z"}).splitlines()]
    assert "| X, Ctrl+Z | Undo | Take back the last move |" in rows
    assert "| U, Ctrl+Z | Undo | Take back the last move |" in help_markdown(None).splitlines()
