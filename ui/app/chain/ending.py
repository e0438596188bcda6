"""How a chain game ends: the rescue offer on a stuck board, the end, and the result."""

from __future__ import annotations

from typing import TYPE_CHECKING

from twofold.core.i18n import _
from twofold.core.rules import largest_tile
from twofold.ui.app.chain.dialogs import ChainResultDialog, NoMoreMovesDialog, RescueDialog

if TYPE_CHECKING:
    from twofold.ui.app.chain.screen import ChainScreen


class Ending:
    """The end of a game on :class:`ChainScreen` (a part of it)."""

    #: the end of this game was already shown (result or End game)
    ended: bool = False

    def check_end(self: ChainScreen) -> None:
        """Offer a rescue on a stuck board, or show the end when the game is over."""
        if self.ended or self.paused or not self.is_current:
            return
        game = self.game
        status = self.status
        if game.over:
            self.ended = True
            game.pause()
            if game.time_up:
                self.session.check_time()  # recorded once, its play time the limit
                title, body = _("Time's up!"), _("The clock has run out.")
            elif game.flags.ended:  # ended with End game, and opened again
                title, body = _("Game over"), _("The game is over.")
            else:
                title = status.over or _("No more moves")
                body = _("The game is over.")
            body += "\n" + _("Score {score}").format(score=self.state.score)
            self.refresh_all()
            self.app.push_screen(NoMoreMovesDialog(title, body), lambda _c: self.show_result(title))
            return
        if status.rescues:
            names = {p.id: p.name for p in self.mode.powerups}
            offers = [(name, names.get(name, name), name in status.free) for name in status.rescues]
            self.app.push_screen(RescueDialog(offers), self._rescue_chosen)

    def _rescue_chosen(self: ChainScreen, choice: str | None) -> None:
        if choice == "end":
            self.end_game()
        elif choice and self.powerup(choice) is not None:
            self.action_arm(choice)

    def end_game(self: ChainScreen) -> None:
        """The player ends a stuck game instead of using a power-up."""
        self.ended = True
        self.session.end_game()
        self.show_result(_("Game over"))

    def show_result(self: ChainScreen, title: str | None = None) -> None:
        self.refresh_best()
        state = self.state
        lines = [
            (_("Score"), state.score),
            (_("Best"), self.best),
            (_("Highest tile"), largest_tile(state.board)),
        ]
        own = self.mode_stats()
        lines += [(s.label, own[s.key]) for s in self.mode.statistics if s.key in own]
        self.refresh_all()
        self.app.push_screen(
            ChainResultDialog(title=title or _("Game over"), lines=lines), self._result_chosen
        )

    def _result_chosen(self: ChainScreen, choice: str | None) -> None:
        if choice == "again":
            self.start(self.session.new_game)

    def game_over(self: ChainScreen) -> None:
        self.check_end()

    def time_up(self: ChainScreen) -> None:
        if not self.ended:
            self.board.cancel()
            self.check_end()
