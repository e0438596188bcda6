"""The goal reached: the win dialog, then New game or Keep going (a part of a game screen)."""

from __future__ import annotations

from twofold.core._i18n import _
from twofold.ui.app.dialogs import WinDialog
from twofold.ui.app.screens.playing import Playing


class Winning:
    """What a game screen does when its game reaches the mode's goal (a part it holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen

    def show(self, score: int) -> None:
        """The solver stops and the win dialog asks: a new game, or keep going."""
        screen = self.screen
        screen.stop_solver()
        mode = screen.mode
        screen.app.push_screen(
            WinDialog(mode.goal or 0, score, mode.aim_after_goal()), self._chosen
        )

    def _chosen(self, choice: str | None) -> None:
        screen = self.screen
        if choice == "new":
            screen.start_new_game()
            return
        screen.game.flags.kept_going = True
        screen.session.save()
        aim = screen.mode.aim_after_goal()
        if aim is None:
            screen.announce(_("Keep going!"))
        else:
            screen.announce(_("Keep going: on towards {next}!").format(next=aim))
        if screen.game.over:
            screen.game_over()
