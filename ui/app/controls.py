"""What plays each kind of controls in the app: one table, read by the menu and the app;
and which keys of its game a mode offers.

Each kind of ``Mode.controls`` names the module and the class of its play widget, which
the one game screen composes. A module is only looked for when the menu is drawn (so the
menu opens fast) and imported when a mode of its kind is opened.
"""

from __future__ import annotations

from textual.binding import Binding, BindingsMap, BindingType

from twofold.core._i18n import _
from twofold.core._rules import Mode

#: ``Mode.controls`` -> (the module of its play widget, the widget class)
PLAYS: dict[str, tuple[str, str]] = {
    "slide": ("twofold.ui.app.screens.slide", "SlidePlay"),
    "chain": ("twofold.ui.app.screens.chain", "ChainPlay"),
    "place": ("twofold.ui.app.screens.place", "PlacePlay"),
}


def action_name(action: str) -> str:
    """A binding's action without its parameters or the screen's namespace: ``undo``."""
    return action.partition("(")[0].removeprefix("screen.")


def offers(mode: Mode, binding: BindingType) -> bool:
    """Whether ``mode`` has what a key of its screen does (a hint, a sample, a power-up...)."""
    if not isinstance(binding, Binding):
        return True
    name, _sep, rest = binding.action.removeprefix("screen.").partition("(")
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


#: the footer's group of a slide mode's directions (one label, a glyph for each)
MOVE = Binding.Group(_("Move"), compact=True)
#: where a mode's own keys go: a command that takes nothing, a power-up used at once
COMMAND_ACTION = "command"


def declared_bindings(mode: Mode) -> list[Binding]:
    """The keys ``mode`` declares: its own directions (replacing 2048's four), its commands'
    keys and, on slide and place screens, its power-ups used at once (the chain screen arms
    its power-ups itself)."""
    prefix = mode.controls
    found = [
        Binding(",".join(d.keys), f"move({d.name!r})", _("Move"), key_display=d.glyph or None,
                group=MOVE, tooltip=d.label, id=f"{prefix}.{d.name}")
        for d in mode.directions if d.keys
    ]  # fmt: skip
    found += [
        Binding(",".join(c.keys), f"{COMMAND_ACTION}({c.word!r})", c.description or c.word,
                tooltip=c.description, id=f"{prefix}.command.{c.word}")
        for c in mode.commands if c.keys and c.takes == "none"
    ]  # fmt: skip
    if mode.controls != "chain":
        found += [
            Binding(p.key, f"{COMMAND_ACTION}({p.id!r})", p.name, tooltip=p.description,
                    id=f"{prefix}.powerup.{p.id}")
            for p in mode.powerups if p.key and p.target == "none"
        ]  # fmt: skip
    return found


def offered_bindings(mode: Mode, bindings: BindingsMap) -> BindingsMap:
    """A game screen's keys, less those for what ``mode`` lacks (a Sample in 2248...), with
    those the mode declares (its directions replace 2048's four)."""
    kept = {
        key: [
            binding
            for binding in found
            if offers(mode, binding) and not (mode.directions and _moves(binding))
        ]
        for key, found in bindings.key_to_bindings.items()
    }
    # the mode's own directions come first, where 2048's four were (the footer's order)
    declared = declared_bindings(mode)
    moves = [b for b in declared if _moves(b)]
    ordered: dict[str, list[Binding]] = {}
    for part in (BindingsMap(moves).key_to_bindings, kept):
        for key, found in part.items():
            ordered.setdefault(key, []).extend(found)
    others = [b for b in declared if not _moves(b)]
    for key, found in BindingsMap(others).key_to_bindings.items():
        ordered.setdefault(key, []).extend(found)
    return BindingsMap.from_keys({key: found for key, found in ordered.items() if found})


def _moves(binding: BindingType) -> bool:
    return isinstance(binding, Binding) and binding.action.startswith("move(")


def palette_commands(mode: Mode) -> list[tuple[str, str]]:
    """``(word, description)`` of each command that takes nothing and has no key: the
    palette is how a player reaches it (a command with a key is there with its key)."""
    return [
        (c.word, c.description)
        for c in mode.commands
        if c.takes == "none" and not c.keys and c.word not in {d.name for d in mode.directions}
    ]


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
