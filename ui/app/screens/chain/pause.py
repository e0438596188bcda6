"""Pause on a chain board (P, Esc, focus loss), and the automatic hint after a quiet while."""

from __future__ import annotations

from textual import events
from textual.timer import Timer

from twofold.ui.app.screens.chain.playing import ChainPlaying

#: seconds without an action before the automatic hint appears
AUTO_HINT_SECONDS = 10.0


class Pausing:
    """Pause and the idle timer of the chain screen (a part it holds)."""

    def __init__(self, screen: ChainPlaying) -> None:
        self.screen = screen
        self._idle_timer: Timer | None = None

    def set_paused(self, paused: bool) -> None:
        """Hide the board and stop the clock, or show it and play on."""
        screen = self.screen
        if paused == screen.paused:
            return
        screen.paused = paused
        if paused:
            screen.board.let_go()  # the chain drawn and the power-up armed wait for the player
            screen.game.pause()
        else:
            if not screen.game.over and screen.is_current:
                screen.game.resume()
            screen.board.focus()
        screen.refresh_all()

    def focus_lost(self) -> None:
        if not self.screen.game.over:
            self.set_paused(True)

    def toggle(self) -> None:
        self.screen.finish_animation()
        self.set_paused(not self.screen.paused)

    def clicked(self, event: events.Click) -> None:
        """A click on the paused board's words plays on."""
        if self.screen.paused and event.widget is not None and event.widget.id == "chain-paused":
            self.set_paused(False)

    def restart_idle(self) -> None:
        screen = self.screen
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None
        if screen.settings.auto_hint and screen.mode.hint is not None:
            self._idle_timer = screen.set_timer(screen.auto_hint_seconds, self._auto_hint)

    def _auto_hint(self) -> None:
        self._idle_timer = None
        screen = self.screen
        if screen.paused or screen.armed or screen.board.chain or screen.game.over:
            return
        if screen.is_current:
            screen.action_hint()
