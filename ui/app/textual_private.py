"""Every private member of Textual that twofold touches, in one place.

Each is used only where Textual (read at version 8.2.8) offers no public way; each entry
of :data:`PRIVATE_NAMES` has a note below of why, and of the public API that would
replace it. ``tests/ui/test_textual_private.py`` checks what each one does in the
installed Textual (not only that it exists), so an upgrade that moves or changes one
fails a named test rather than the player's screen; pyproject caps textual below its
next major version. Binding descriptions need none: they are translated where they are
drawn (``language.TranslatedScreen``); a key list is read as the keymap reads it through
the public ``Binding.make_bindings``.

The notes, by name:

``DOMNode class._merged_bindings``
    The bindings a screen class runs, its ``BINDINGS`` merged with its bases'. Help lists
    the keys of a mode's screen before one is made, and the key settings list every
    screen's keys. Textual reads a class's bindings only inside a running app
    (``Screen.active_bindings``, for the screen on display, after ``check_action``);
    merging ``BINDINGS`` along the MRO by hand would copy Textual's rule (overrides by
    key, ``inherit_bindings=False``) and drift from it. Replaced by a public class-level
    read, such as a public ``DOMNode._merge_bindings``.
``DOMNode._bindings`` (read, and written by :func:`set_node_bindings`)
    The bindings a live node runs. A game screen, or the play widget that holds its
    board, runs its mode's keys: the mode's own directions, commands and power-ups come
    from a plugin when the node is made, so no class can declare them, and the keys of
    what the mode lacks are left out (the chain screen adds its power-ups' keys to the
    map it reads). Textual's public ways act on keys a class declares: ``check_action``
    hides or greys one, ``App.set_keymap`` moves one to another key; ``App.bind`` adds
    one to the app only, and its docstring says it may become private. Reading:
    ``Screen.active_bindings`` holds what runs now, after ``check_action`` and with the
    app's and the focused widget's keys mixed in, not the node's own list that Help, the
    key settings and the palette read.
    Replaced by a public per-node ``bind``/``set_bindings``, which a request on Textual's
    tracker asks for ("Update bindings at screen and widget level").
``App._driver``
    The page title of a game served to a browser is set by writing the terminal's
    title sequence (OSC 2) to the driver; Textual has no public way to write to the
    terminal or to set its title. Replaced by a public ``App.driver`` or a title setter.
``CommandPalette`` members (``_start_no_matches_countdown``, ``_no_matches_timer``,
``_NO_MATCHES_COUNTDOWN``, ``_NO_MATCHES``, ``_list_visible``)
    The palette says "No matches found" in English, a literal in a closure of
    ``_start_no_matches_countdown``, and Textual has no translation hook. The palette
    here stops Textual's countdown and starts its own with the same delay, adds its
    translated line with Textual's option id (so Textual's own code removes it when the
    search changes) and shows the list. Replaced by a public hook for that line, such as a
    ``no_matches`` method or a class variable for its text.
"""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.binding import Binding, BindingsMap
from textual.command import CommandPalette
from textual.dom import DOMNode

#: every private name this module relies on, by the object that holds it (the test reads it)
PRIVATE_NAMES: dict[str, tuple[str, ...]] = {
    "DOMNode class": ("_merged_bindings",),
    "DOMNode": ("_bindings",),
    "App": ("_driver",),
    "CommandPalette": (
        "_start_no_matches_countdown",
        "_no_matches_timer",
        "_NO_MATCHES_COUNTDOWN",
        "_NO_MATCHES",
        "_list_visible",
    ),
}


def normalize_key_list(keys: str) -> str:
    """A comma-separated key list as Textual's keymap reads it (``"ctrl+z, ?"`` ->
    ``"ctrl+z,question_mark"``): each key stripped, a single character by its name."""
    return ",".join(_key_name(key.strip()) for key in keys.split(","))


def _key_name(key: str) -> str:
    # Binding.make_bindings names a single character as a binding's key is named
    return next(iter(Binding.make_bindings([Binding(key, "")]))).key if key else key


def merged_bindings(cls: type) -> BindingsMap:
    """The bindings a DOM class runs (its own merged with its bases'), empty if none."""
    merged = getattr(cls, "_merged_bindings", None)
    return merged if isinstance(merged, BindingsMap) else BindingsMap()


def node_bindings(node: DOMNode) -> BindingsMap:
    """The bindings a live node uses (a copy of its class's, which it may change)."""
    return node._bindings


def set_node_bindings(node: DOMNode, bindings: BindingsMap) -> None:
    """Give a live node its own bindings (a screen that leaves out a key's action)."""
    node._bindings = bindings


def write_to_terminal(app: App[Any], text: str) -> bool:
    """Write ``text`` (an escape sequence) to the app's terminal; False when it has none."""
    driver = app._driver
    if driver is None:
        return False
    driver.write(text)
    return True


class QuietPalette(CommandPalette):
    """The command palette, whose "no matches" line is written by :meth:`no_matches`."""

    def _start_no_matches_countdown(self, search_value: str) -> None:
        super()._start_no_matches_countdown(search_value)
        timer = getattr(self, "_no_matches_timer", None)
        if timer is None or not search_value:
            return
        timer.stop()
        self._no_matches_timer = self.set_timer(self._NO_MATCHES_COUNTDOWN, self.no_matches)

    def no_matches(self) -> None:
        """Show that nothing matched (a subclass says it in its words)."""

    def show_no_matches(self, prompt: Any) -> None:
        """Add ``prompt`` as the disabled "no matches" line of the list, and show the list."""
        from textual.command import CommandList
        from textual.widgets.option_list import Option

        self.query_one(CommandList).add_option(Option(prompt, disabled=True, id=self._NO_MATCHES))
        self._list_visible = True
