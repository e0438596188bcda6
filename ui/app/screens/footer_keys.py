"""What a game screen's footer shows, so it is built again only when that changes: a footer
built again after every move, the same as before, was most of a move's time."""

from __future__ import annotations

from typing import Any

from twofold.ui.app.screens.playing import Playing


class FooterKeys:
    """The keys a game screen's footer was last drawn with (a part the screen holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen
        self._shown: tuple[Any, ...] | None = None

    def forget(self) -> None:
        """The keys were drawn from elsewhere: the next look draws them again."""
        self._shown = None

    def changed(self) -> bool:
        """Whether the footer is to be drawn again (always, off screen); if so, the keys now
        count as drawn."""
        screen = self.screen
        keys = None
        if screen.is_current:
            keys = tuple(
                (key, a.binding.action, a.binding.description, a.binding.show, a.enabled, a.tooltip)
                for key, a in screen.active_bindings.items()
            )
        if keys is not None and keys == self._shown:
            return False
        self._shown = keys
        return True
