"""Every private member of Textual that twofold touches, in one place.

Textual has no public way to read a key list as its keymap does, to read the bindings a
class or a live node runs, to give a live screen its own bindings, or to say "no matches"
in another language; these few private members do it. (Binding descriptions need none:
they are translated where they are drawn, see ``language.TranslatedScreen``.) Each is
named here once, and ``tests/ui/test_textual_private.py`` checks each
against the installed Textual, so an upgrade that moves one fails a named test rather
than the player's screen (pyproject also caps textual below its next major version).
"""

from __future__ import annotations

from typing import Any

from textual.binding import BindingsMap
from textual.command import CommandPalette
from textual.dom import DOMNode
from textual.keys import _normalize_key_list

#: every private name this module relies on, by the object that holds it (the test reads it)
PRIVATE_NAMES: dict[str, tuple[str, ...]] = {
    "textual.keys": ("_normalize_key_list",),
    "DOMNode class": ("_merged_bindings",),
    "DOMNode": ("_bindings",),
    "CommandPalette": (
        "_start_no_matches_countdown",
        "_no_matches_timer",
        "_NO_MATCHES_COUNTDOWN",
        "_NO_MATCHES",
        "_list_visible",
    ),
}


def normalize_key_list(keys: str) -> str:
    """A comma-separated key list as Textual's keymap reads it (``"ctrl+Z, ?"`` -> names)."""
    return str(_normalize_key_list(keys))


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
