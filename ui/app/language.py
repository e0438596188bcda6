"""The app in the player's language: Textual's own words, key names, and switching live.

Key labels are ``Binding`` descriptions fixed when a screen's module is imported, and
Textual's own (the palette, its system commands) are English. They are translated where
they are drawn, never rewritten in Textual's tables: :class:`TranslatedScreen` gives the
Footer, the Keys panel and the action bar each binding in the current language, and
:class:`TranslatedApp` (a mixin for the ``App``) translates what Textual draws itself:
key names in the Footer, the command palette, its system commands and Textual's
ctrl+c notice.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import ActiveBinding, Binding
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.screen import Screen, ScreenResultType

from twofold.core import _i18n as i18n
from twofold.core._i18n import N_, Np_, _, pgettext, retranslate
from twofold.ui.app.textual_private import QuietPalette

#: Textual's own player-visible words, so the catalog carries them
TEXTUAL_MESSAGES = (
    N_("palette"),
    N_("Open the command palette"),
    N_("Quit"),
    N_("Quit the app and return to the command prompt."),
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
    N_("Focus Next"),
    N_("Focus Previous"),
    N_("Copy selected text"),
    # headings in Textual's Keys panel
    N_("Input"),
    N_("Collapsible"),
    # the descriptions of the keys of Textual's widgets (the Keys panel shows them)
    N_("Bottom"),
    N_("Copy"),
    N_("Cursor Down"),
    N_("Cursor Up"),
    N_("Cursor down"),
    N_("Cursor down select"),
    N_("Cursor left"),
    N_("Cursor left select"),
    N_("Cursor left word select"),
    N_("Cursor line end"),
    N_("Cursor line end select"),
    N_("Cursor line start"),
    N_("Cursor line start select"),
    N_("Cursor page down"),
    N_("Cursor page up"),
    N_("Cursor right"),
    N_("Cursor right select"),
    N_("Cursor right word select"),
    N_("Cursor to next ancestor"),
    N_("Cursor to next sibling"),
    N_("Cursor to parent"),
    N_("Cursor to previous sibling"),
    N_("Cursor up"),
    N_("Cursor up select"),
    N_("Cursor word left"),
    N_("Cursor word right"),
    N_("Cut"),
    N_("Cut selected text"),
    N_("Delete all to the left"),
    N_("Delete all to the right"),
    N_("Delete character left"),
    N_("Delete character right"),
    N_("Delete left to start of word"),
    N_("Delete line"),
    N_("Delete right to start of word"),
    N_("Delete to line end"),
    N_("Delete to line start"),
    N_("Dismiss menu"),
    N_("Down"),
    N_("End"),
    N_("Exit the command palette"),
    N_("Expand or collapse all"),
    N_("First"),
    N_("Go to bottom"),
    N_("Go to end"),
    N_("Go to start"),
    N_("Go to top"),
    N_("Home"),
    N_("Last"),
    N_("Move cursor left"),
    N_("Move cursor left a word"),
    N_("Move cursor left a word and select"),
    N_("Move cursor left and select"),
    N_("Move cursor right a word"),
    N_("Move cursor right a word and select"),
    N_("Move cursor right and select"),
    N_("Move cursor right or accept the completion suggestion"),
    N_("Next command"),
    N_("Next option"),
    N_("Next page"),
    N_("Next tab"),
    N_("Open link"),
    N_("Page Down"),
    N_("Page Left"),
    N_("Page Right"),
    N_("Page Up"),
    N_("Page down"),
    N_("Page up"),
    N_("Paste"),
    N_("Paste text from the clipboard"),
    N_("Press button"),
    N_("Previous command"),
    N_("Previous option"),
    N_("Previous page"),
    N_("Previous tab"),
    N_("Redo"),
    N_("Scroll Down"),
    N_("Scroll End"),
    N_("Scroll Home"),
    N_("Scroll Left"),
    N_("Scroll Right"),
    N_("Scroll Up"),
    N_("Select"),
    N_("Select all"),
    N_("Select line"),
    N_("Select line end"),
    N_("Select line start"),
    N_("Show menu"),
    N_("Submit"),
    N_("Toggle"),
    N_("Toggle collapsible"),
    N_("Toggle option"),
    N_("Top"),
    N_("Undo"),
    N_("Up"),
)

#: the names Textual gives keys on screen (after its own aliases), translated with
#: the context "key" so "end" the key is not "end" the verb
KEY_NAMES = frozenset(
    message
    for _context, message in (
        Np_("key", "esc"),
        Np_("key", "space"),
        Np_("key", "tab"),
        Np_("key", "enter"),
        Np_("key", "pgup"),
        Np_("key", "pgdn"),
        Np_("key", "del"),
        Np_("key", "insert"),
        Np_("key", "home"),
        Np_("key", "end"),
        Np_("key", "shift"),
        Np_("key", "alt"),
        Np_("key", "super"),
        Np_("key", "ctrl"),
    )
)


def key_display(app: App[Any], binding: Binding) -> str:
    """How the key of ``binding`` looks in the Footer, in the current language."""
    text = App.get_key_display(app, binding)
    if binding.key_display:
        return text
    return "+".join(_key_name(part) for part in text.split("+"))


def _key_name(part: str) -> str:
    caret = "^" if part.startswith("^") and len(part) > 1 else ""  # Textual's ctrl
    name = part[len(caret) :]
    return caret + pgettext("key", name) if name in KEY_NAMES else part


def key_label(app: App[Any], key: str) -> str:
    """How one key ("ctrl+z", "question_mark") is shown to the player."""
    return app.get_key_display(Binding(key, ""))


# -- bindings, translated where they are drawn ------------------------------------------------

#: each binding drawn, by id: the binding, the language and its translation into it
_translations: dict[int, tuple[Binding, str, Binding]] = {}
_TRANSLATIONS_KEPT = 2048


def said(binding: Binding, language: str = "") -> Binding:
    """``binding`` with its words (description, tooltip, group) in the current language.

    BINDINGS are written once, when a screen's module is imported; they are put into the
    player's language each time they are drawn, so Textual's binding tables stay as declared.
    """
    language = language or i18n.current_language()
    known = _translations.get(id(binding))
    if known is not None and known[0] is binding and known[1] == language:
        return known[2]
    group = binding.group
    if group is not None and group.description:
        group = dataclasses.replace(group, description=retranslate(group.description))
    translated = dataclasses.replace(
        binding,
        description=retranslate(binding.description),
        tooltip=retranslate(binding.tooltip),
        group=group,
    )
    if len(_translations) > _TRANSLATIONS_KEPT:
        _translations.clear()
    # the binding itself is kept with its translation, so its id is never another's
    _translations[id(binding)] = (binding, language, translated)
    return translated


class TranslatedScreen(Screen[ScreenResultType]):
    """A screen whose keys are drawn in the current language.

    Textual's Footer, its Keys panel and twofold's action bar read a screen's
    ``active_bindings``; this screen gives them each binding through :func:`said`.
    """

    #: whether the screen takes the next key press itself (rebinding a key)
    CAPTURES_KEYS: ClassVar[bool] = False

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        drawn = {}
        language = i18n.current_language()
        for key, active in super().active_bindings.items():
            binding = said(active.binding, language)
            # Textual's tooltip is the binding's own; another is translated as it comes
            same = active.tooltip == active.binding.tooltip
            tooltip = binding.tooltip if same else retranslate(active.tooltip)
            drawn[key] = ActiveBinding(active.node, binding, active.enabled, tooltip)
        return drawn


def _classes(base: type) -> Iterator[type]:
    for cls in base.__subclasses__():
        yield cls
        yield from _classes(cls)


def translate_group_titles() -> None:
    """Put the headings of widgets' keys in Textual's Keys panel ("Input") in the current
    language: the panel reads the public ``BINDING_GROUP_TITLE`` of each widget class."""
    for cls in _classes(DOMNode):
        title = cls.__dict__.get("BINDING_GROUP_TITLE")
        if isinstance(title, str) and title:
            cls.BINDING_GROUP_TITLE = retranslate(title)


# -- the app ---------------------------------------------------------------------------------


class TranslatedApp(App[Any]):
    """Mix in before ``App``: Textual's own words and key names in the current language."""

    def get_key_display(self, binding: Binding) -> str:
        return key_display(self, binding)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a screen that takes the next key press (rebinding a key) gets ctrl+q and ctrl+p too
        captures = isinstance(self.screen, TranslatedScreen) and self.screen.CAPTURES_KEYS
        if captures and action in self.CAPTURED_ACTIONS:
            return False
        return super().check_action(action, parameters)

    #: the app's own priority actions a key-capturing screen keeps from running
    CAPTURED_ACTIONS = frozenset({"quit", "command_palette", "help_quit"})

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            yield command._replace(title=retranslate(command.title), help=retranslate(command.help))

    def action_command_palette(self) -> None:
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(
                TranslatedPalette(id="--command-palette", placeholder=_("Search for commands…"))
            )

    def search_themes(self) -> None:
        from textual.theme import ThemeProvider

        self.push_screen(
            TranslatedPalette(providers=[ThemeProvider], placeholder=_("Search for themes…"))
        )

    def action_help_quit(self) -> None:
        for key, active in self.active_bindings.items():
            if active.binding.action in ("quit", "app.quit"):
                self.notify(
                    _("Press {key} to quit.").format(
                        key=f"[b]{self.get_key_display(active.binding.with_key(key))}[/b]"
                    ),
                    title=_("Do you want to quit?"),
                )
                return

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        if event.name != "screenshot":
            return
        event.prevent_default()  # Textual's own handler says it in English
        if event.path is None:
            self.notify(_("Saved screenshot"), title=_("Screenshot"))
        else:
            where = f"[$text-success]{str(event.path)!r}[/]"
            self.notify(_("Saved screenshot to {path}").format(path=where), title=_("Screenshot"))

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        if event.name != "screenshot":
            return
        event.prevent_default()
        self.notify(_("Failed to save screenshot"), title=_("Screenshot"), severity="error")

    def switch_language(self, language: str | None) -> bool:
        """Use ``language`` ("" or None: the environment's) from now on.

        Key labels change at once; True when the language changed, so the screens on
        the stack should be built again (``TwofoldApp.rebuild_screens``).
        """
        before = i18n.current_language()
        code = i18n.set_language(language or None)
        _translations.clear()  # a plugin's catalog may have come since
        translate_group_titles()
        self.refresh_bindings()  # the Footers draw their keys again, in the new language
        return code != before


class TranslatedPalette(QuietPalette):
    """The command palette, saying "no matches" in the current language."""

    def no_matches(self) -> None:
        from rich.align import Align
        from rich.text import Text

        self.show_no_matches(Align.center(Text(_("No matches found"), style="not bold")))
