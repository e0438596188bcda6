"""Key bindings: every action with a key has a binding id, and the player may rebind it.

The keys a player chose are ``Settings.keymap`` (binding id -> keys, Textual's keymap
format), applied with Textual's ``App.set_keymap`` by :func:`apply_keymap` when the app
starts and whenever they change. :class:`KeyBindingsScreen` lists every binding of every
screen, takes a new key by its press, refuses a key another action of the same screen
already uses (naming that action), and resets everything to the defaults.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, Static

from twofold.core._i18n import N_, _, retranslate
from twofold.core.settings import Settings
from twofold.ui.app.key_capture import KeyCapture
from twofold.ui.app.language import key_label
from twofold.ui.app.seams import TwofoldScreen
from twofold.ui.app.textual_private import merged_bindings, node_bindings, normalize_key_list
from twofold.ui.app.widgets.footer import Footer

#: what declares keys the settings list: a screen, or a game's play widget (a widget)
KeyOwner = type[DOMNode]

#: what each screen is called in the list of keys (by class name); a screen missing
#: here is listed under its class name, and tests/i18n says so
SCREEN_TITLES: dict[str, str] = {
    "MenuScreen": N_("Mode menu"),
    # a game's keys are its play widget's, one for every mode of its controls: named by
    # the kind, never by one game
    "SlidePlay": N_("Slide game"),
    "ChainPlay": N_("Chain game"),
    "PlacePlay": N_("Place game"),
    "HelpScreen": N_("Help"),
    "ChainHelpScreen": N_("Chain game help"),
    "TutorialScreen": N_("Tutorial"),
    "StatisticsScreen": N_("Statistics"),
    "SettingsScreen": N_("Settings"),
    "KeyBindingsScreen": N_("Key bindings"),
    "Dialog": N_("Every dialog"),
    "ConfirmDialog": N_("Questions"),
    "WinDialog": N_("You reached the goal"),
    "GameOverDialog": N_("Game over"),
    "ResultDialog": N_("Result"),
    "PauseDialog": N_("Paused"),
    "RescueDialog": N_("Chain game: no chain left"),
    "NoMoreMovesDialog": N_("Chain game: no more moves"),
    "ChainResultDialog": N_("Chain game: result"),
    "BoardReading": N_("The board, row by row"),
}

#: names for bindings that have neither a description nor a tooltip, by action
ACTION_TITLES: dict[str, str] = {
    "app.focus_next": N_("Next button"),
    "app.focus_previous": N_("Previous button"),
    "focus_next": N_("Next button"),
    "focus_previous": N_("Previous button"),
}

Keymap = Mapping[str, str]


@dataclass(frozen=True)
class KeyAction:
    """One binding id: what it does, where, and its keys unless the player changed them."""

    binding_id: str
    #: what the action does, as written in the source (shown through retranslate)
    title: str
    #: the screen class that declares it
    owner: KeyOwner
    default_keys: tuple[str, ...]
    #: every screen class where it is active (subclasses inherit bindings)
    screens: tuple[KeyOwner, ...]

    def keys(self, keymap: Keymap) -> tuple[str, ...]:
        """The keys in use with ``keymap``."""
        chosen = keymap.get(self.binding_id)
        if not chosen:
            return self.default_keys
        return tuple(key for key in normalize_key_list(chosen).split(",") if key)

    @property
    def screen_title(self) -> str:
        return screen_title(self.owner)


def screen_title(cls: type[Any]) -> str:
    name = SCREEN_TITLES.get(cls.__name__)
    return _(name) if name else cls.__name__


def action_title(binding: Binding) -> str:
    """What ``binding`` does in a few words, as written in the source.

    The description, unless the tooltip says the same at more length ("Move" and
    "Move left").
    """
    description, tooltip = binding.description, binding.tooltip
    # compared in English: a translation may not start the same way
    english = getattr(description, "msgid", description)
    if tooltip and (not description or getattr(tooltip, "msgid", tooltip).startswith(english)):
        return tooltip
    return description or ACTION_TITLES.get(binding.action, "")


def _subclasses(base: type) -> Iterator[type]:
    for cls in base.__subclasses__():
        yield cls
        yield from _subclasses(cls)


def _import_screens() -> None:
    """Import every module of the app, so every screen class exists."""
    import twofold.ui.app

    for module in pkgutil.walk_packages(twofold.ui.app.__path__, "twofold.ui.app."):
        try:
            importlib.import_module(module.name)
        except Exception:  # a screen that cannot load has no keys to offer
            continue


def screen_classes() -> list[KeyOwner]:
    """twofold's screens that have bindings with ids, bases before subclasses; a game's
    keys are its play widget's (a widget with ids on its keys), listed as a screen's."""
    _import_screens()
    found: list[KeyOwner] = []
    for cls in _subclasses(DOMNode):
        if cls in found or not cls.__module__.startswith("twofold."):
            continue
        if any(binding.id for binding in _bindings(cls)):
            found.append(cls)
    return found


def _bindings(cls: type[Any]) -> list[Binding]:
    merged: BindingsMap = merged_bindings(cls)
    return [binding for bindings in merged.key_to_bindings.values() for binding in bindings]


def key_actions(classes: list[KeyOwner] | None = None) -> list[KeyAction]:
    """Every binding id of the app's screens, once each, in the order the screens declare them."""
    classes = screen_classes() if classes is None else classes
    actions: dict[str, KeyAction] = {}
    keys: dict[str, list[str]] = {}
    for cls in sorted(classes, key=lambda c: len(c.__mro__)):
        for binding in _bindings(cls):
            if binding.id is None:
                continue
            if binding.id not in actions:
                owner = next(
                    (
                        base
                        for base in reversed(cls.__mro__)
                        if any(
                            b.id == binding.id
                            for b in Binding.make_bindings(base.__dict__.get("BINDINGS", []))
                        )
                    ),
                    cls,
                )
                actions[binding.id] = KeyAction(binding.id, action_title(binding), owner, (), ())
                keys[binding.id] = []
            if cls not in actions[binding.id].screens:
                actions[binding.id] = dataclasses.replace(
                    actions[binding.id], screens=(*actions[binding.id].screens, cls)
                )
            if cls is actions[binding.id].owner and binding.key not in keys[binding.id]:
                keys[binding.id].append(binding.key)
    order = list(SCREEN_TITLES)

    def place(action: KeyAction) -> int:
        name = action.owner.__name__
        return order.index(name) if name in order else len(order)

    ordered = sorted(actions.values(), key=place)
    return [dataclasses.replace(a, default_keys=tuple(keys[a.binding_id])) for a in ordered]


def offered_actions(actions: list[KeyAction], modes: list[Any]) -> list[KeyAction]:
    """The actions some installed mode offers: a game screen's Hint, Sample or Watch the
    solver is listed only where a mode played on that screen has it (a key listed acts)."""
    from twofold.ui.app.controls import PLAYS, offers

    played_on = {name: controls for controls, (_module, name) in PLAYS.items()}
    kept = []
    for action in actions:
        controls = played_on.get(action.owner.__name__)
        binding = next((b for b in _bindings(action.owner) if b.id == action.binding_id), None)
        if controls is None or binding is None:
            kept.append(action)
            continue
        if any(mode.controls == controls and offers(mode, binding) for mode in modes):
            kept.append(action)
    return kept


# -- keys in use and conflicts ---------------------------------------------------------------


def keys_in_use(
    cls: KeyOwner, keymap: Keymap, app: App[Any] | None = None
) -> dict[str, list[Binding]]:
    """Key -> the bindings it runs on screen ``cls`` with ``keymap`` (and the app's own)."""
    normalized = {k: normalize_key_list(v) for k, v in keymap.items() if v}
    screen_map = (merged_bindings(cls)).copy()
    screen_map.apply_keymap(normalized)
    in_use: dict[str, list[Binding]] = {}
    for key, bindings in screen_map.key_to_bindings.items():
        in_use.setdefault(key, []).extend(bindings)
    if not issubclass(cls, Screen):  # a game's play widget: the keys of a screen run too
        for key, bindings in merged_bindings(Screen).key_to_bindings.items():
            in_use.setdefault(key, []).extend(bindings)
    if app is not None:
        app_map = node_bindings(app).copy()
        app_map.apply_keymap(normalized)
        modal = issubclass(cls, ModalScreen)
        for key, bindings in app_map.key_to_bindings.items():
            # a modal screen cuts the app's bindings off, except those with priority
            reachable = [b for b in bindings if b.priority or not modal]
            if reachable:
                in_use.setdefault(key, []).extend(reachable)
    return in_use


@dataclass(frozen=True)
class Rebound:
    """The outcome of a rebind: the new keymap, or why the key was refused."""

    keymap: dict[str, str]
    refused: str | None = None


def rebind(
    action: KeyAction,
    old_key: str,
    new_key: str,
    keymap: Keymap,
    app: App[Any] | None = None,
) -> Rebound:
    """Replace ``old_key`` of ``action`` with ``new_key``, unless the screen already uses it."""
    current = dict(keymap)
    new_key = normalize_key_list(new_key)
    keys = list(action.keys(keymap))
    label = key_label(app, new_key) if app is not None else new_key
    if new_key == old_key or new_key in keys:
        return Rebound(current, _("{key} is already a key for this action.").format(key=label))
    for cls in action.screens:
        for binding in keys_in_use(cls, keymap, app).get(new_key, []):
            if binding.id == action.binding_id:
                continue
            other = retranslate(action_title(binding)) or binding.action
            return Rebound(
                current,
                _("{key} is already used for “{action}” in {screen}.").format(
                    key=label, action=other, screen=screen_title(cls)
                ),
            )
    keys = [new_key if key == old_key else key for key in keys]
    if old_key not in keys and new_key not in keys:
        keys.append(new_key)
    if tuple(keys) == action.default_keys:
        current.pop(action.binding_id, None)
    else:
        current[action.binding_id] = ",".join(keys)
    return Rebound(current)


def apply_keymap(app: App[Any], settings: Settings) -> None:
    """Use the keys of ``settings`` in ``app`` (Textual's keymap); an empty map is the defaults."""
    app.set_keymap({k: v for k, v in settings.keymap.items() if isinstance(v, str) and v})


# -- the screen ------------------------------------------------------------------------------


class KeyBindingsScreen(TwofoldScreen[None]):
    """Every action with a key, by screen; Enter takes a new key, R resets them all."""

    DEFAULT_CSS = """
    KeyBindingsScreen #keys {
        padding: 0 1;
    }
    KeyBindingsScreen #keys-title {
        text-style: bold;
        color: $primary;
    }
    KeyBindingsScreen #keys-hint {
        color: $foreground-muted;
    }
    KeyBindingsScreen #keys-status {
        height: auto;
        min-height: 1;
        color: $warning;
    }
    KeyBindingsScreen #keys-table {
        height: 1fr;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "change", _("Change key"), priority=True, id="keys.change"),
        Binding("r", "reset", _("Reset all"), tooltip=_("Every key back to its default"),
                id="keys.reset"),
        Binding("escape", "back", _("Back"), tooltip=_("Back to where you were"),
                id="keys.back"),
    ]  # fmt: skip

    def __init__(self, *, name: str | None = None) -> None:
        super().__init__(name=name)
        self.actions = key_actions()
        #: one row per key of each action: (action, key)
        self.rows: list[tuple[KeyAction, str]] = []
        #: the settings used on an app that keeps none (a test's own)
        self.own_settings = Settings()

    @property
    def settings(self) -> Settings:
        return self.host.settings if self.host is not None else self.own_settings

    def compose(self) -> ComposeResult:
        with Vertical(id="keys"):
            yield Label(_("Key bindings"), id="keys-title")
            yield Label(
                _("Enter changes the highlighted key, R resets every key, Esc goes back."),
                id="keys-hint",
            )
            yield Static("", id="keys-status")
            yield DataTable(id="keys-table", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def on_mount(self) -> None:
        if self.host is not None:
            self.actions = offered_actions(self.actions, list(self.host.registry.modes.values()))
        table = self.query_one(DataTable)
        table.add_columns(_("Screen"), _("Action"), _("Key"))
        self.fill()
        table.focus()

    def fill(self) -> None:
        """(Re)draw the table from the current keymap, keeping the cursor row."""
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        keymap = self.settings.keymap
        self.rows = []
        for action in self.actions:
            for key in action.keys(keymap):
                self.rows.append((action, key))
                changed = action.binding_id in keymap
                table.add_row(
                    action.screen_title,
                    retranslate(action.title) or action.binding_id,
                    key_label(self.app, key) + (" *" if changed else ""),
                )
        if self.rows:
            table.move_cursor(row=min(max(row, 0), len(self.rows) - 1))

    def say(self, text: str) -> None:
        self.query_one("#keys-status", Static).update(text)

    def action_change(self) -> None:
        table = self.query_one(DataTable)
        if not self.rows or not 0 <= table.cursor_row < len(self.rows):
            return
        action, key = self.rows[table.cursor_row]
        prompt = _("Press the new key for “{action}” in {screen} (now {key}).").format(
            action=retranslate(action.title) or action.binding_id,
            screen=action.screen_title,
            key=key_label(self.app, key),
        )

        def chosen(new_key: str | None) -> None:
            if new_key is None:
                self.say(_("Nothing changed."))
                return
            self.change(action, key, new_key)

        self.app.push_screen(KeyCapture(prompt), chosen)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_change()

    def change(self, action: KeyAction, old_key: str, new_key: str) -> bool:
        """Rebind one key; False (and a message) when the key is refused."""
        result = rebind(action, old_key, new_key, self.settings.keymap, self.app)
        if result.refused is not None:
            self.say(result.refused)
            self.notify(result.refused, severity="warning")
            return False
        self.keep(result.keymap)
        self.say(
            _("“{action}” is now on {key}.").format(
                action=retranslate(action.title) or action.binding_id,
                key=key_label(self.app, normalize_key_list(new_key)),
            )
        )
        return True

    def action_reset(self) -> None:
        self.keep({})
        self.say(_("Every key is back to its default."))

    def keep(self, keymap: dict[str, str]) -> None:
        """Use and save ``keymap``."""
        settings = dataclasses.replace(self.settings, keymap=keymap)
        if self.host is not None:
            self.host.save_settings(settings)
        else:  # on another app, the keys last as long as the screen
            self.own_settings = settings
        apply_keymap(self.app, settings)
        self.fill()

    def action_back(self) -> None:
        self.dismiss()
