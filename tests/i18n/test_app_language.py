"""The app in German: switching in Settings redraws at once; menu, Footer, announcements."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import Any

import pytest
from textual.widgets import OptionList, Select
from textual.widgets._footer import FooterKey  # private: in no public Textual module

from tests.waiting import notifications, palette_lists
from twofold.core import _i18n as i18n
from twofold.core import plugins
from twofold.core.codes import code_from_text
from twofold.core.settings import Settings
from twofold.core.store import SqliteStore, open_store
from twofold.ui.app.app import TwofoldApp

CODE = code_from_text("twofold-i18n-tests")
MID_GAME = {
    "board": [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 4, 128], [0, 0, 0, 2]],
    "score": 1024,
    "moves": 120,
}
#: English words that must not be left on a German screen
ENGLISH = ("Quit", "Help", "Settings", "Statistics", "Play", "Back", "Score", "Best", "Moves",
           "Undo", "New", "Menu", "palette", "game", "Move")  # fmt: skip


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    opened = open_store()
    yield opened
    opened.close()


def make_app(store: SqliteStore, mode_id: str | None = None, **settings: Any) -> TwofoldApp:
    changed = dataclasses.replace(store.load_settings(), reduced_motion=True, **settings)
    store.save_settings(changed)
    code = CODE if mode_id else None
    return TwofoldApp(plugins.registry(), store, mode_id=mode_id, code=code)


def footer(app: TwofoldApp) -> list[str]:
    return [key.description for key in app.screen.query(FooterKey) if key.description]


def texts(app: TwofoldApp) -> str:
    """Every label and static on the current screen, as one string."""
    return "\n".join(str(widget.render()) for widget in app.screen.query("Label, Static"))


def english_words(text: str) -> list[str]:
    return [word for word in ENGLISH if f" {word} " in f" {text} "]


async def test_switching_the_language_in_settings_redraws_at_once(store: SqliteStore) -> None:
    app = make_app(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Play" in footer(app) or "Quit" in footer(app)
        await pilot.press("comma")
        await pilot.pause()
        language = app.screen.query_one("#setting-language", Select)
        language.focus()
        await pilot.press("enter")
        await pilot.pause()
        for _ in range(3):
            if language.value == "de":
                break
            await pilot.press("down", "enter")
            await pilot.pause()
            if language.value != "de":
                await pilot.press("enter")
                await pilot.pause()
        await pilot.pause()
        assert i18n.current_language() == "de"
        assert store.load_settings().language == "de"
        # the Settings screen itself is German now, Footer included
        assert type(app.screen).__name__ == "SettingsScreen"
        assert "Sprache" in texts(app)
        assert "Zurück" in footer(app)
        assert english_words(" ".join(footer(app))) == []

        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "MenuScreen"
        menu = texts(app)
        assert "Zweierpotenz-Puzzles" in menu
        assert "Ende" in footer(app)
        assert english_words(" ".join(footer(app))) == []

        modes = app.screen.query_one("#modes", OptionList)
        modes.highlighted = modes.get_option_index("2048")
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen.play).__name__ == "SlidePlay"
        await pilot.press("left", "down", "right", "up")
        await pilot.pause()
        announcement = str(app.screen.query_one("#announce").render())
        assert "Punkte" in announcement
        assert english_words(announcement) == []
        assert english_words(" ".join(footer(app))) == []
        assert i18n.missing() == frozenset()


async def test_the_language_setting_is_used_at_start(store: SqliteStore) -> None:
    app = make_app(store, "2048", language="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "Menü" in footer(app)
        assert "Punkte" in texts(app)
        await pilot.press("q")
        await pilot.pause()
        assert "Zweierpotenz-Puzzles" in texts(app)


async def test_the_command_palette_speaks_german(store: SqliteStore) -> None:
    app = make_app(store, language="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert "Befehle suchen" in str(palette.query_one("Input").placeholder)
        await pilot.press(*"zzzqqq")
        await palette_lists(pilot, "Keine Treffer")
        commands = palette.query_one(OptionList)
        shown = [str(commands.get_option_at_index(i).prompt.renderable)
                 for i in range(commands.option_count)]  # fmt: skip
        assert any("Keine Treffer" in text for text in shown), shown
        await pilot.press("escape")


async def test_a_2248_game_speaks_german() -> None:
    from tests.ui_chain.conftest import chain_screen, make_app

    i18n.set_language("de")
    app = make_app(Settings(language="de", tutorial_seen=True, reduced_motion=True))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = chain_screen(app)
        await app.push_screen(screen)
        await pilot.pause()
        # a chain of 2, 2, 4 on the bottom row, with the keyboard
        await pilot.press("left", "space", "right", "space", "right", "enter", "enter")
        await pilot.pause()
        assert screen.session.game.log == ["chain 7,0 7,1 7,2"]
        said = str(screen.query_one("#chain-announce").render())
        assert "Kacheln ergaben 8" in said and "Punkte" in said
        await pilot.press("1")  # arm the Hammer
        await pilot.pause()
        assert "Hammer: wähle" in str(screen.query_one("#chain-status").render())
        await pilot.press("escape", "r")
        await pilot.pause()
        assert english_words(" ".join(footer(app))) == []
        await pilot.press("escape")
        await pilot.pause()
        assert i18n.missing() == frozenset()
        await app.action_quit()


async def test_palette_commands_are_german_and_show_the_chosen_key(store: SqliteStore) -> None:
    from twofold.ui.app.app import screen_commands

    app = make_app(store, "2048", language="de", keymap={"slide.undo": "x,ctrl+z"})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("left", "up", "right", "down")  # something to undo
        await pilot.pause()
        commands = {command.title: command.help for command in screen_commands(app.screen)}
        assert commands["Zurück"] == "Den letzten Zug zurücknehmen (Taste: x)"
        assert commands["Hilfe"] == "Regeln und Tasten (Taste: ?)"
        assert "Nach links schieben" in commands


async def test_textual_notices_speak_german(store: SqliteStore, tmp_path: Any) -> None:
    from textual import events

    app = make_app(store, language="de")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.post_message(
            events.DeliveryComplete(key="k", path=tmp_path / "s.svg", name="screenshot")
        )
        app.post_message(
            events.DeliveryFailed(key="k", exception=OSError("full"), name="screenshot")
        )
        await pilot.press("ctrl+c")  # Textual: "press ctrl+q to quit"
        await pilot.pause()
        said = [(n.title, n.message) for n in notifications(app)]
        assert ("Bildschirmfoto", "Bildschirmfoto konnte nicht gespeichert werden") in said
        assert any(m.startswith("Bildschirmfoto gespeichert unter") for _t, m in said)
        assert any(t == "Möchtest du beenden?" for t, _m in said), said


def binding_tables(app: TwofoldApp) -> dict[str, list[int]]:
    """Each Binding object of every DOM class's table and of the app's own, by owner."""
    from textual.dom import DOMNode

    from twofold.ui.app.textual_private import merged_bindings, node_bindings

    def classes(base: type[Any]) -> list[type[Any]]:
        return [c for sub in base.__subclasses__() for c in (sub, *classes(sub))]

    owners: dict[str, Any] = {f"{c.__module__}.{c.__qualname__}": merged_bindings(c)
                              for c in classes(DOMNode)}  # fmt: skip
    owners["the app"] = node_bindings(app)
    return {
        owner: [id(b) for bs in table.key_to_bindings.values() for b in bs]
        for owner, table in owners.items()
    }


async def test_a_language_switch_translates_where_drawn_and_rewrites_no_binding_table(
    store: SqliteStore,
) -> None:
    from tests.waiting import until

    app = make_app(store)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "Quit" in footer(app), what="the English Footer")
        before = binding_tables(app)
        app.switch_language("de")
        await until(pilot, lambda: "Ende" in footer(app), what="the Footer in German")
        assert english_words(" ".join(footer(app))) == []
        # Textual's tables keep the bindings as declared: the words change where drawn
        assert binding_tables(app) == before
        app.switch_language("en")
        await until(pilot, lambda: "Quit" in footer(app), what="the Footer in English again")


async def test_textuals_keys_panel_speaks_german(store: SqliteStore) -> None:
    from rich.console import Console
    from textual.widgets._key_panel import BindingsTable

    from tests.waiting import until

    app = make_app(store, language="de")
    async with app.run_test(size=(120, 30)) as pilot:
        await until(pilot, lambda: "Ende" in footer(app), what="the Footer in German")
        app.action_show_help_panel()
        await until(pilot, lambda: bool(app.screen.query(BindingsTable)), what="the Keys panel")
        console = Console(width=100, file=io.StringIO())
        console.print(app.screen.query_one(BindingsTable).render_bindings_table())
        shown = console.file.getvalue()  # type: ignore[attr-defined]
        # the menu's keys, the app's and those of Textual's option list, all in German
        for words in ("Regeln und Tasten", "Die Befehlspalette öffnen", "Seite runter"):
            assert words in shown, shown
        assert english_words(shown) == [], shown


async def test_after_a_live_switch_a_games_footer_and_help_speak_german(
    store: SqliteStore,
) -> None:
    from textual.widgets import Markdown

    from tests.waiting import until
    from twofold.ui.app.screens.help import HelpScreen

    app = make_app(store, "2048")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "Menu" in footer(app), what="the game's English Footer")
        app.switch_language("de")
        # the game screen built in English draws its keys in German from now on
        await until(pilot, lambda: "Menü" in footer(app), what="the game's Footer in German")
        assert english_words(" ".join(footer(app))) == []
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen), what="Help")
        keys = app.screen.query_one("#help-text", Markdown).source
        assert "Den letzten Zug zurücknehmen" in keys and "Take back the last move" not in keys
        assert "| Tasten |" in keys, keys


def test_every_screen_of_twofold_draws_its_keys_translated() -> None:
    from textual.command import CommandPalette
    from textual.screen import Screen

    from twofold.ui.app.keys import _import_screens, _subclasses
    from twofold.ui.app.language import TranslatedScreen

    _import_screens()
    ours = [c for c in _subclasses(Screen) if c.__module__.startswith("twofold.")]
    untranslated = [
        c.__qualname__
        for c in ours
        # the palette says its words itself (TranslatedApp, TranslatedPalette)
        if not issubclass(c, TranslatedScreen | CommandPalette)
    ]
    assert len(ours) > 10 and untranslated == []
