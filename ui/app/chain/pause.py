"""Pause on a chain board (P, Esc, focus loss), and the automatic hint after a quiet while."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual.timer import Timer

if TYPE_CHECKING:
    from twofold.ui.app.chain.screen import ChainScreen

#: seconds without an action before the automatic hint appears
AUTO_HINT_SECONDS = 10.0


class Pausing:
    """Pause and the idle timer of :class:`ChainScreen` (a part of it)."""

    paused: bool = False
    #: the quiet seconds before the automatic hint (a test shortens it on the class)
    auto_hint_seconds: float = AUTO_HINT_SECONDS
    _idle_timer: Timer | None = None

    def set_paused(self: ChainScreen, paused: bool) -> None:
        """Hide the board and stop the clock, or show it and play on."""
        if paused == self.paused:
            return
        self.paused = paused
        self.set_class(paused, "-paused")
        if paused:
            self.board.cancel()
            self.disarm(refresh=False)
            self.game.pause()
        else:
            if not self.game.over and self.is_current:
                self.game.resume()
            self.board.focus()
        self.refresh_all()

    def focus_lost(self: ChainScreen) -> None:
        if not self.game.over:
            self.set_paused(True)

    def action_pause(self: ChainScreen) -> None:
        self.finish_animation()
        self.set_paused(not self.paused)

    def on_click(self: ChainScreen, event: events.Click) -> None:
        if self.paused and event.widget is not None and event.widget.id == "chain-paused":
            self.set_paused(False)

    def restart_idle(self: ChainScreen) -> None:
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None
        if self.settings.auto_hint and self.mode.hint is not None:
            self._idle_timer = self.set_timer(self.auto_hint_seconds, self._auto_hint)

    def _auto_hint(self: ChainScreen) -> None:
        self._idle_timer = None
        if self.paused or self.armed or self.board.chain or self.game.over:
            return
        if self.is_current:
            self.action_hint()
