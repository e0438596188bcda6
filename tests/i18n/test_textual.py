"""Textual's own words (binding descriptions, palette, key names) are in the catalog."""

from __future__ import annotations

from typing import Any

import textual.app
import textual.command
import textual.containers
import textual.screen
import textual.widgets
from textual.binding import Binding
from textual.dom import DOMNode

from twofold.core import _i18n as i18n
from twofold.core._i18n import _
from twofold.ui.app.language import KEY_NAMES, TEXTUAL_MESSAGES


def textual_descriptions() -> set[str]:
    for name in textual.widgets.__all__:
        getattr(textual.widgets, name)  # widgets load lazily

    def classes(base: type[Any]) -> list[type[Any]]:
        found = []
        for cls in base.__subclasses__():
            found += [cls, *classes(cls)]
        return found

    texts: set[str] = set()
    for cls in classes(DOMNode):
        if cls.__module__.startswith("textual"):
            for binding in Binding.make_bindings(cls.__dict__.get("BINDINGS", [])):
                texts |= {t for t in (binding.description, binding.tooltip) if t}
    return texts


def test_every_textual_binding_description_is_marked() -> None:
    assert textual.app and textual.command and textual.containers and textual.screen
    assert sorted(textual_descriptions() - set(TEXTUAL_MESSAGES)) == []


def test_textual_words_and_key_names_have_german() -> None:
    i18n.set_language("de")
    for message in TEXTUAL_MESSAGES:
        _(message)
    for key in KEY_NAMES:
        i18n.pgettext("key", key)
    assert i18n.missing() == frozenset()


def test_key_names_on_screen_are_german() -> None:
    from textual.app import App

    from twofold.ui.app.language import key_display

    app: App[None] = App()
    i18n.set_language("de")
    shown = [key_display(app, Binding(key, "")) for key in ("space", "ctrl+pageup", "shift+tab")]
    assert shown == ["Leertaste", "^Bild↑", "Umschalt+Tab"]
    # a key shown the way its binding asks stays as it is
    assert key_display(app, Binding("left", "", key_display="←")) == "←"
    i18n.set_language("en")
    assert key_display(app, Binding("space", "")) == "space"
