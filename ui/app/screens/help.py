"""Help: the rules of the mode in play and every key of its screen.

``offers`` (whether a mode has what a key does) is ``twofold.ui.app.controls``'s, kept
here under its old name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Markdown

from twofold.core._i18n import N_, _, retranslate
from twofold.core._rules import Mode
from twofold.ui.app.controls import PLAYS, offered_bindings, offers
from twofold.ui.app.screens.menu_keys import menu_bindings
from twofold.ui.app.seams import TwofoldScreen
from twofold.ui.app.textual_private import merged_bindings, node_bindings, normalize_key_list
from twofold.ui.app.widgets.footer import Footer

_KEY_NAMES = {
    "left": "←",
    "right": "→",
    "up": "↑",
    "down": "↓",
    "question_mark": "?",
    "comma": ",",
    "full_stop": ".",
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


def _normalized(keymap: Mapping[str, str] | None) -> dict[str, str]:
    chosen = (keymap or {}).items()
    return {k: normalize_key_list(v) for k, v in chosen if isinstance(v, str) and v}


def keys_in_help(
    bindings: Iterable[BindingType],
    keymap: Mapping[str, str] | None = None,
    mode: Mode | None = None,
) -> list[tuple[Binding, list[str]]]:
    """Each described binding with the keys that run it, worked out as Textual does.

    The bindings go through Textual's own ``BindingsMap`` and ``apply_keymap``, and a key
    belongs to the first of its bindings that ``mode`` offers (Textual runs the first one
    that is enabled), so Help and the keys can never disagree.
    """
    listed = list(Binding.make_bindings(bindings))
    bindings_map = BindingsMap(listed)
    normalized = _normalized(keymap)
    if normalized:
        bindings_map.apply_keymap(normalized)
    order = [_identity(binding) for binding in listed]
    found: dict[str, tuple[Binding, list[str]]] = {}
    for key, on_key in bindings_map.key_to_bindings.items():
        for binding in on_key:
            if mode is not None and not offers(mode, binding):
                continue
            found.setdefault(_identity(binding), (binding, []))[1].append(key)
            break
    rows = [found[i] for i in dict.fromkeys(order) if i in found]
    return [(b, keys) for b, keys in rows if not b.system and b.description]


def _identity(binding: Binding) -> str:
    return binding.id or f"{binding.action}|{binding.description}"


def _table(
    headers: tuple[str, str, str], rows: Iterable[tuple[str, str, str]], narrow: bool
) -> str:
    """A Markdown table; ``narrow`` puts the name and what it does in one column, so a
    narrow terminal wraps words instead of cutting them ("Ent…")."""
    if narrow:
        lines = [f"| {headers[0]} | {headers[1]} |", "|---|---|"]
        lines += [
            f"| {keys} | {': '.join(filter(None, (f'**{what}**', why)))} |"
            for keys, what, why in rows
        ]
    else:
        lines = ["| {} | {} | {} |".format(*headers), "|---|---|---|"]
        lines += [f"| {keys} | {what} | {why} |" for keys, what, why in rows]
    return "\n".join(lines)


def keys_table(
    bindings: Iterable[BindingType],
    keymap: Mapping[str, str] | None = None,
    mode: Mode | None = None,
    *,
    narrow: bool = False,
) -> str:
    """A Markdown table of keys and what they do, from a screen's bindings.

    ``keymap`` (the player's keys, binding id -> keys) replaces the defaults it names;
    with ``mode``, only what the mode offers is listed (see :func:`keys_in_help`).
    """
    rows = [
        # BINDINGS keep the language of their import; retranslate gives today's
        (key_names(",".join(keys)), retranslate(binding.description), retranslate(binding.tooltip))
        for binding, keys in keys_in_help(bindings, keymap, mode)
    ]
    return _table((_("Keys"), _("Action"), _("What it does")), rows, narrow)


def powerup_table(mode: Mode, *, narrow: bool = False) -> str:
    """The mode's power-ups as a Markdown table of keys, names and what each does."""
    rows = [(key_names(p.key), p.name, p.description) for p in mode.powerups]
    return _table((_("Keys"), _("Power-up"), _("What it does")), rows, narrow)


def screen_bindings(mode: Mode) -> list[BindingType]:
    """The keys of the game that plays ``mode`` (none when this app has no such game)."""
    where = PLAYS.get(mode.controls)  # the one table of what plays each controls
    if where is None:
        return []
    try:
        module = __import__(where[0], fromlist=[where[1]])
        offered = offered_bindings(mode, merged_bindings(getattr(module, where[1])))
        every = [b for found in offered.key_to_bindings.values() for b in found]
        return list({id(b): b for b in every}.values())
    except Exception:  # a screen that fails to load: Help lists no keys for it
        return []


def screen_keys(screen: DOMNode | type[DOMNode]) -> list[BindingType]:
    """Every binding of twofold's a screen (or a game's play widget) runs (they have ids),
    in the order declared.

    A screen on display gives its own bindings (a game screen leaves out what its mode
    lacks); a screen class gives the bindings every screen of it starts with. Textual's
    own (Tab between buttons, copying text) are left to Textual's key panel.
    """
    merged = merged_bindings(screen) if isinstance(screen, type) else node_bindings(screen)
    seen: dict[int, Binding] = {}
    for bindings in merged.key_to_bindings.values():
        for binding in bindings:
            if binding.id is not None:
                seen.setdefault(id(binding), binding)
    return list(seen.values())


def mode_section(
    mode: Mode,
    keymap: Mapping[str, str] | None,
    bindings: list[BindingType] | None = None,
    level: str = "##",
    *,
    narrow: bool = False,
) -> list[str]:
    """One mode's part of Help: its rules in its own words, its keys and power-ups."""
    parts = [f"{level} {mode.title}"]
    if mode.description:
        parts.append(mode.description)
    if mode.help:
        parts += [f"{level}# {_('How to play')}", mode.help]
    if mode.goal:
        parts.append(_("The goal tile is {goal}.").format(goal=mode.goal))
    keys = screen_bindings(mode) if bindings is None else bindings
    if keys_in_help(keys, keymap, mode):
        parts += [f"{level}# {_('Keys')}", keys_table(keys, keymap, mode, narrow=narrow)]
    if mode.powerups:
        parts += [f"{level}# {_('Power-ups')}", powerup_table(mode, narrow=narrow)]
    return parts


def _families(modes: Iterable[Mode]) -> list[Mode]:
    """One mode for each different help text, in menu order (2048's sizes share one)."""
    seen: set[tuple[str, str]] = set()
    found = []
    for mode in modes:
        key = (mode.controls, mode.help)
        if key not in seen:
            seen.add(key)
            found.append(mode)
    return found


def help_markdown(
    mode: Mode | None,
    keymap: Mapping[str, str] | None = None,
    bindings: list[BindingType] | None = None,
    modes: Iterable[Mode] = (),
    *,
    narrow: bool = False,
) -> str:
    """Help as Markdown: one mode's (in a game), or the menu's with every kind of game;
    ``narrow``: tables of two columns, for a narrow terminal."""
    parts = [f"# {_('twofold help')}"]
    if mode is None:
        parts += [
            _(
                "Pick a mode in the menu with the arrow keys and Enter, or click it. "
                "Each mode keeps its own saved game and records; a game in progress is "
                "resumed exactly where you left it."
            ),
        ]
        parts += [f"## {_('Keys in the menu')}", keys_table(menu_bindings(), keymap, narrow=narrow)]
        for each in _families(modes or _registered_modes()):
            parts += mode_section(each, keymap, narrow=narrow)
        if tutorial_mode(modes or _registered_modes()) is not None:
            parts.append(_("Press T here to start the tutorial."))
    else:
        parts += mode_section(mode, keymap, bindings, narrow=narrow)
    parts += [
        f"## {_('Everywhere')}",
        _(
            "Ctrl+P opens the command palette with every action of the screen; "
            "Ctrl+Q saves and quits."
        ),
    ]
    return "\n\n".join(parts)


def _registered_modes() -> list[Mode]:
    from twofold.core.plugins import registry

    return list(registry().modes.values())


def tutorial_mode(modes: Iterable[Mode]) -> Mode | None:
    """The first mode that has a tutorial (the one T starts from the menu's Help)."""
    return next((m for m in modes if m.tutorial), None)


class HelpScreen(TwofoldScreen[None]):
    """Rules and keys; Escape goes back."""

    DEFAULT_CSS = """
    HelpScreen VerticalScroll {
        padding: 0 2;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "back", _("Back"), tooltip=_("Back to where you were"),
                id="help.back"),
        Binding("t", "tutorial", _("Tutorial"), tooltip=_("Start the tutorial again"),
                id="help.tutorial"),
    ]  # fmt: skip

    def __init__(self, mode: Mode | None, bindings: list[BindingType] | None = None) -> None:
        super().__init__()
        self.mode = mode
        self.bindings = bindings

    def _modes(self) -> list[Mode]:
        host = self.host
        return list(host.registry.modes.values()) if host is not None else _registered_modes()

    #: below this width the tables take two columns: three would cut words
    NARROW = 72

    def _markdown(self, narrow: bool) -> str:
        keymap = self.host.settings.keymap if self.host is not None else None
        return help_markdown(self.mode, keymap, self.bindings, self._modes(), narrow=narrow)

    def compose(self) -> ComposeResult:
        self._narrow = self.app.size.width < self.NARROW
        with VerticalScroll(id="help-scroll"):
            yield Markdown(self._markdown(self._narrow), id="help-text")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < self.NARROW
        if narrow != self._narrow:
            self._narrow = narrow
            self.query_one("#help-text", Markdown).update(self._markdown(narrow))

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    def action_back(self) -> None:
        self.dismiss()

    def _tutorial_mode(self) -> Mode | None:
        if self.mode is not None:
            return self.mode if self.mode.tutorial else None
        return tutorial_mode(self._modes())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "tutorial":  # a mode with no tutorial offers no key for one
            return self._tutorial_mode() is not None
        return True

    def action_tutorial(self) -> None:
        mode = self._tutorial_mode()
        if mode is not None:
            from twofold.ui.app.screens.tutorial import TutorialScreen

            self.dismiss()  # the tutorial ends where Help was opened
            self.app.push_screen(TutorialScreen(mode.tutorial))
