"""A game screen's tutorial: shown by itself on the first game of a family, and from Help."""

from __future__ import annotations

import dataclasses

from twofold.ui.app.screens.playing import Playing


class Tutoring:
    """When the mode's tutorial shows, and that it was seen (a part a game screen holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen

    def first(self) -> bool:
        """Show the mode's tutorial if this is the first game of its family; True if shown."""
        if self.screen.mode.tutorial and not self.seen():
            self.screen.call_after_refresh(self._first)
            return True
        return False

    def seen(self) -> bool:
        """Whether this game's tutorial was shown: for the mode's family, or for any mode that
        shows the very same pages (2248's Daily and Blitz teach what Classic taught)."""
        mode = self.screen.mode
        host = self.screen.host
        modes = host.registry.modes.values() if host is not None else ()
        families = {mode.family} | {m.family for m in modes if m.tutorial == mode.tutorial}
        return any(self.screen.settings.has_seen_tutorial(family) for family in families)

    def _first(self) -> None:
        # never over a dialog (the dialog has the game's attention): it waits for an opening
        if self.screen.app.screen is self.screen:
            self.show()

    def show(self) -> None:
        """Show the mode's tutorial (its first game, and from Help)."""
        from twofold.ui.app.screens.tutorial import TutorialScreen

        tutorial = self.screen.mode.tutorial
        if tutorial:
            self.screen.app.push_screen(TutorialScreen(tutorial), self.done)

    def done(self, _finished: bool | None = None) -> None:
        """The tutorial was read or skipped: it is not shown by itself again for the family."""
        screen = self.screen
        settings = screen.settings
        family = screen.mode.family
        if not settings.has_seen_tutorial(family):
            seen = dataclasses.replace(settings, tutorials_seen=(*settings.tutorials_seen, family))
            host = screen.host
            if host is not None:
                host.save_settings(seen)
            else:
                screen.keep_settings(seen)
        screen.after_tutorial()
