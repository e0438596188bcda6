"""The menu's keys, apart from its screen: Help lists them without opening the menu."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from twofold.core._i18n import _


def menu_bindings() -> list[BindingType]:
    """The keys of the mode menu (their ids name them in the key bindings)."""
    return [
        Binding("enter", "open", _("Play"), tooltip=_("Open the highlighted mode"),
                id="menu.open"),
        Binding("question_mark,f1", "help", _("Help"), tooltip=_("Rules and keys"),
                id="menu.help"),
        Binding("t", "statistics", _("Statistics"), tooltip=_("Records and recent scores"),
                id="menu.statistics"),
        Binding("comma", "settings", _("Settings"), tooltip=_("Theme, motion, sound"),
                id="menu.settings"),
        Binding("q", "app.quit", _("Quit"), tooltip=_("Quit twofold"), id="menu.quit"),
    ]  # fmt: skip
