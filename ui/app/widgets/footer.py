"""Textual's Footer, built again only when the keys it shows change.

Textual's Footer throws away and remounts every key whenever the screen's bindings are
said to have changed: on every focus change, screen switch and refreshed binding, most of
them showing the same keys as before. Each rebuild restyles a dozen widgets; at a game's
start that was five to eight rebuilds, and a 2248 chain added one a key. This Footer
compares what it would show (each key, its label in the current language, whether it is
enabled) with what it shows, and leaves itself alone when the two are equal.

Where the keys do not fit the width, they wrap onto more lines (``wrapping``) rather than
run off the edge ("r Rea"): every key shown is shown whole.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from twofold.ui.app.widgets.bar_layout import wrap


class Footer(TextualFooter):
    """The keys of the screen, rebuilt only when they differ from those shown."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: what the last rebuild showed (None: nothing built yet)
        self._shown: tuple[Any, ...] | None = None
        #: the keys as built, and their widths on one line (measured before any wrapping)
        self._measured: tuple[tuple[Widget, ...], tuple[int, ...]] = ((), ())

    def shown_keys(self, screen: Screen[Any]) -> tuple[Any, ...]:
        """What the Footer would show for ``screen`` now: its keys, labels, enabled states and
        tooltips."""
        app = screen.app
        keys = tuple(
            (key, app.get_key_display(binding), binding.description, binding.action, *states)
            for key, (_node, binding, *states) in screen.active_bindings.items()
            if binding.show or key == app.COMMAND_PALETTE_BINDING
        )
        return (keys, self.show_command_palette, app.ENABLE_COMMAND_PALETTE)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        rebuilds = screen.app.app_focus and self.is_attached and screen is self.screen
        shown = self.shown_keys(screen) if rebuilds else None
        if shown is not None and shown == self._shown:
            return  # the same keys, labels and states: nothing to build again
        super().bindings_changed(screen)
        self._shown = shown

    async def recompose(self) -> None:
        await super().recompose()
        wrap(self, [], 0)  # back on one line, where each key shows its own width
        self.call_after_refresh(self.fit)

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """The keys on one line if they fit beside the palette's key, else on more lines."""
        keys = tuple(child for child in self.children if not child.has_class("-command-palette"))
        if not keys or not self.size.width:
            return
        if self._measured[0] != keys:
            if self.has_class("-wrapped"):
                return  # measured only on one line: a grid stretches a key to its column
            widths = tuple(key.outer_size.width + key.styles.margin.width for key in keys)
            if not all(widths):
                return  # not laid out yet
            self._measured = (keys, widths)
        palette = sum(
            child.outer_size.width for child in self.children if child.has_class("-command-palette")
        )
        wrap(self, self._measured[1], self.size.width - palette)
