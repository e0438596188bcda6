"""What plays each kind of controls in the app: one table, read by the menu and the app;
and which keys of its screen a mode offers.

Each kind of ``Mode.controls`` names the module and the class of its game screen. A
screen module is only looked for when the menu is drawn (so the menu opens fast) and
imported when a mode of its kind is opened.
"""

from __future__ import annotations

from textual.binding import Binding, BindingsMap, BindingType

from twofold.core._rules import Mode

#: ``Mode.controls`` -> (the module of its screen, the screen class)
SCREENS: dict[str, tuple[str, str]] = {
    "slide": ("twofold.ui.app.screens.slide", "SlideScreen"),
    "chain": ("twofold.ui.app.screens.chain", "ChainScreen"),
    "place": ("twofold.ui.app.screens.place", "PlaceScreen"),
}


def offers(mode: Mode, binding: BindingType) -> bool:
    """Whether ``mode`` has what a key of its screen does (a hint, a sample, a power-up...)."""
    if not isinstance(binding, Binding):
        return True
    name, _sep, rest = binding.action.partition("(")
    needs = {
        "hint": mode.hint,
        "sample": mode.sample,
        "watch_solver": mode.autoplayer,
        "tutorial": mode.tutorial or None,
    }
    if name in needs:
        return needs[name] is not None
    if name == "arm_key":
        key = rest.strip("()'\"")
        return any(p.key == key for p in mode.powerups)
    return True


def offered_bindings(mode: Mode, bindings: BindingsMap) -> BindingsMap:
    """A game screen's keys, less those for what ``mode`` lacks (a Sample in 2248...)."""
    kept = {
        key: [binding for binding in found if offers(mode, binding)]
        for key, found in bindings.key_to_bindings.items()
    }
    return BindingsMap.from_keys({key: found for key, found in kept.items() if found})


def offered_action(mode: Mode, action: str) -> bool:
    """Whether a game screen's ``action`` is on for ``mode``: what the mode lacks is not shown.

    Undo stays on when there is nothing to undo: the refusal says why, where a greyed-out
    key would do nothing without a word.
    """
    offered = {
        "sample": mode.sample is not None,
        "watch_solver": mode.autoplayer is not None,
        "hint": mode.hint is not None,
    }
    return offered.get(action, True)
