"""Help: the rules of the mode in play and every key of its screen."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Markdown

from twofold.core.i18n import N_, _, retranslate
from twofold.core.rules import Mode

_KEY_NAMES = {
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "question_mark": "?",
    "comma": ",",
}
#: key names that are words, translated when shown
_KEY_WORDS = {
    "escape": N_("Esc"),
    "enter": N_("Enter"),
    "space": N_("Space"),
    "backspace": N_("Backspace"),
    "ctrl": N_("Ctrl"),
    "shift": N_("Shift"),
}


def _key_part(part: str) -> str:
    if part in _KEY_NAMES:
        return _KEY_NAMES[part]
    if part in _KEY_WORDS:
        return _(_KEY_WORDS[part])
    return part.capitalize() if len(part) > 1 else part.upper()


def key_names(keys: str) -> str:
    """``"u,ctrl+z"`` as a person reads it: ``U, Ctrl+Z``."""
    return ", ".join(
        "+".join(_key_part(part) for part in key.strip().split("+")) for key in keys.split(",")
    )


def keys_table(bindings: list[BindingType], keymap: Mapping[str, str] | None = None) -> str:
    """A Markdown table of keys and what they do, from a screen's BINDINGS.

    ``keymap`` (the player's keys, binding id -> keys) replaces the defaults it names.
    """
    keymap = keymap or {}
    rows = [f"| {_('Keys')} | {_('Action')} | {_('What it does')} |", "|---|---|---|"]
    for binding in bindings:
        if not isinstance(binding, Binding) or binding.system or not binding.description:
            continue
        # BINDINGS keep the language of their import; retranslate gives today's
        what, why = retranslate(binding.description), retranslate(binding.tooltip)
        keys = keymap.get(binding.id or "") or binding.key
        rows.append(f"| {key_names(keys)} | {what} | {why} |")
    return "\n".join(rows)


def slide_rules() -> str:
    return "\n".join(
        [
            _("Slide every tile as far as it goes in one direction. Two equal tiles that "
              "meet merge into one of double value, and the score grows by the new tile. "
              "A tile made by a merge does not merge again in the same move; where three "
              "equal tiles line up, the two nearest the wall merge."),
            "",
            _("After every move that changes the board one new tile appears: a 2, or "
              "one time in ten a 4. A move that changes nothing is no move."),
            "",
            _("Make the goal tile to win, then keep going if you like. The game is over "
              "when the board is full and no two neighbours (not diagonals) are equal."),
            "",
            _("Drag across the board with the mouse to swipe, or click the arrows under it. "
              "Undo is unlimited and never changes the tile that comes next. The game code "
              "in the top bar replays the same game anywhere: `twofold play MODE/CODE`."),
        ]
    )  # fmt: skip


def help_markdown(mode: Mode | None, keymap: Mapping[str, str] | None = None) -> str:
    parts = [f"# {_('twofold help')}"]
    if mode is None:
        parts += [
            _(
                "Pick a mode in the menu with the arrow keys and Enter, or click it. "
                "Each mode keeps its own saved game and records; a game in progress is "
                "resumed exactly where you left it."
            ),
        ]
        from twofold.ui.screens.menu import MenuScreen

        parts += [f"## {_('Keys in the menu')}", keys_table(MenuScreen.BINDINGS, keymap)]
        from twofold.ui.screens.slide import SlideScreen

        parts += [f"## {_('Sliding games (2048)')}", slide_rules()]
        parts += [f"## {_('Keys in a sliding game')}", keys_table(SlideScreen.BINDINGS, keymap)]
        chain_help = _chain_help()
        if chain_help:
            parts += [
                f"## {_('Chain games (2248)')}",
                chain_help,
                _("Press T here to start the 2248 tutorial."),
            ]
    else:
        parts += [f"## {mode.title}", mode.description]
        screen_bindings: list[BindingType] = []
        if mode.controls == "slide":
            from twofold.ui.screens.slide import SlideScreen

            parts += [f"### {_('How to play')}", slide_rules()]
            if mode.goal:
                parts.append(_("The goal tile is {goal}.").format(goal=mode.goal))
            screen_bindings = SlideScreen.BINDINGS
        else:
            screen_bindings = _other_bindings(mode)
        if screen_bindings:
            parts += [f"### {_('Keys')}", keys_table(screen_bindings, keymap)]
    parts += [
        f"## {_('Everywhere')}",
        _(
            "Ctrl+P opens the command palette with every action of the screen; "
            "Ctrl+Q saves and quits."
        ),
    ]
    return "\n\n".join(parts)


def _chain_help() -> str:
    """The 2248 rules and tile chart, when the chain screen is installed."""
    try:
        from twofold.ui.chain import chain_help_markdown
    except Exception:  # no chain screen: Help covers what is there
        return ""
    return chain_help_markdown()


def _other_bindings(mode: Mode) -> list[BindingType]:
    """The keys of a screen another part of the app provides (the chain screen)."""
    if mode.controls != "chain":
        return []
    try:
        from twofold.ui.chain import ChainScreen  # type: ignore[attr-defined]
    except Exception:  # no chain screen: the help simply lists no keys for it
        return []
    bindings: Any = getattr(ChainScreen, "BINDINGS", [])
    return list(bindings)


class HelpScreen(Screen[None]):
    """Rules and keys; Escape goes back."""

    DEFAULT_CSS = """
    HelpScreen VerticalScroll {
        padding: 0 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", _("Back"), tooltip=_("Back to where you were"),
                id="help.back"),
        Binding("t", "tutorial", _("2248 tutorial"), tooltip=_("Start the 2248 tutorial again"),
                id="help.tutorial"),
    ]  # fmt: skip

    def __init__(self, mode: Mode | None) -> None:
        super().__init__()
        self.mode = mode

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-scroll"):
            keymap = getattr(getattr(self.app, "settings", None), "keymap", None)
            yield Markdown(help_markdown(self.mode, keymap), id="help-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_back(self) -> None:
        self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tutorial":
            return "twofold.ui.chain" in sys.modules or bool(_chain_help())
        return True

    def action_tutorial(self) -> None:
        from twofold.ui.chain import start_tutorial

        start_tutorial(self.app)
