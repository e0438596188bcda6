"""Settings: theme, reduced motion, sound, auto-hint, language and a leaderboard; saved as
they change."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Switch

from twofold.core._i18n import _, available_languages, language_name
from twofold.ui.app.seams import TwofoldHost, TwofoldScreen
from twofold.ui.app.widgets.footer import Footer

#: the settings shown as switches: field name -> label
SWITCHES = ("reduced_motion", "sound", "auto_hint")


def switch_labels() -> dict[str, str]:
    return {
        "reduced_motion": _("Reduced motion (tiles appear where they end)"),
        "sound": _("Sound (terminal bell on merges and wins)"),
        "auto_hint": _("Auto-hint in 2248 (after 10 s without a move)"),
    }


def languages() -> list[tuple[str, str]]:
    """(label, code) for the language list: the system's, then every catalog by its name."""
    found = [(_("From the system"), "")]
    found += [(language_name(code), code) for code in available_languages()]
    return found


class SettingsScreen(TwofoldScreen[None]):
    """Every setting on one screen; each change is used and saved at once."""

    DEFAULT_CSS = """
    SettingsScreen #settings {
        padding: 0 2;
    }
    SettingsScreen #settings-title {
        text-style: bold;
        color: $primary;
    }
    SettingsScreen .settings--row {
        height: auto;
    }
    SettingsScreen .settings--label {
        width: 24;
        padding-top: 1;
    }
    SettingsScreen .settings--switch-label {
        width: 1fr;
        padding-top: 1;
    }
    SettingsScreen Select, SettingsScreen Input {
        width: 1fr;
        max-width: 40;
    }
    SettingsScreen #settings-note, SettingsScreen .settings--field-note {
        color: $foreground-muted;
    }
    SettingsScreen #settings-note {
        margin-top: 1;
    }
    SettingsScreen .settings--field-note {
        padding-left: 24;
    }
    /* narrow: each label above its field, so no word is cut */
    SettingsScreen.-narrow .settings--row.-field {
        layout: vertical;
    }
    SettingsScreen.-narrow .settings--label {
        width: 100%;
        padding-top: 0;
    }
    SettingsScreen.-narrow Select, SettingsScreen.-narrow Input {
        width: 100%;
    }
    SettingsScreen.-narrow .settings--field-note {
        padding-left: 0;
    }
    """

    #: below this width a label sits above its field instead of beside it
    NARROW = 24 + 40 + 4

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "keys", _("Key bindings"), tooltip=_("Change the keys of every action"),
                id="settings.keys"),
        Binding("escape", "back", _("Back"), tooltip=_("Back to where you were"),
                id="settings.back"),
    ]  # fmt: skip

    @property
    def twofold(self) -> TwofoldHost:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        settings = self.twofold.settings
        themes = sorted(self.app.available_themes)
        theme = settings.theme if settings.theme in themes else self.app.theme
        language_options = languages()
        codes = [code for _label, code in language_options]
        with VerticalScroll(id="settings"):
            yield Label(_("Settings"), id="settings-title")  # as Statistics has its own
            with HorizontalGroup(classes="settings--row -field"):
                yield Label(_("Theme"), classes="settings--label")
                yield Select(
                    [(name, name) for name in themes],
                    value=theme,
                    allow_blank=False,
                    id="setting-theme",
                )
            with HorizontalGroup(classes="settings--row -field"):
                yield Label(_("Language"), classes="settings--label")
                yield Select(
                    language_options,
                    value=settings.language if settings.language in codes else "",
                    allow_blank=False,
                    id="setting-language",
                )
            labels = switch_labels()
            for name in SWITCHES:
                with HorizontalGroup(classes="settings--row"):
                    yield Switch(value=bool(getattr(settings, name)), id=f"setting-{name}")
                    yield Label(labels[name], classes="settings--switch-label")
            with HorizontalGroup(classes="settings--row"):
                yield Button(_("Key bindings…"), id="setting-keys", compact=True)
            with HorizontalGroup(classes="settings--row -field"):
                yield Label(_("Leaderboard"), classes="settings--label")
                yield Input(
                    settings.leaderboard,
                    placeholder=_("http://HOST:PORT/"),
                    id="setting-leaderboard",
                )
            yield Label(_("Empty: nothing is ever sent."), classes="settings--field-note")
            with HorizontalGroup(classes="settings--row -field"):
                yield Label(_("Name on it"), classes="settings--label")
                yield Input(
                    settings.leaderboard_name,
                    placeholder=_("1 to 24 characters"),
                    max_length=24,
                    id="setting-leaderboard_name",
                )
            yield Label(_("Changes are used and saved at once."), id="settings-note")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#setting-theme", Select).focus()

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width < self.NARROW, "-narrow")

    def _change(self, **changes: Any) -> bool:
        """Use and save a change; True when the language changed."""
        settings = dataclasses.replace(self.twofold.settings, **changes)
        if settings == self.twofold.settings:
            return False
        return self.twofold.save_settings(settings)

    @on(Select.Changed, "#setting-theme")
    def _theme(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self._change(theme=event.value)

    @on(Select.Changed, "#setting-language")
    def _language(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and self._change(language=event.value):
            # Every screen is built again in the new language, this one included.
            self.twofold.rebuild_screens()

    @on(Button.Pressed, "#setting-keys")
    def _keys(self) -> None:
        from twofold.ui.app.keys import KeyBindingsScreen

        self.app.push_screen(KeyBindingsScreen())

    @on(Input.Changed, "#setting-leaderboard, #setting-leaderboard_name")
    def _text(self, event: Input.Changed) -> None:
        name = (event.input.id or "").removeprefix("setting-")
        self._change(**{name: event.value.strip()})

    @on(Switch.Changed)
    def _switch(self, event: Switch.Changed) -> None:
        name = (event.switch.id or "").removeprefix("setting-")
        if name in SWITCHES:
            self._change(**{name: event.value})

    def action_keys(self) -> None:
        self._keys()

    def action_back(self) -> None:
        self.dismiss()
