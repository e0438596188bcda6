"""How a chain game ends: the rescue offer on a stuck board, the end, and the result."""

from __future__ import annotations

from twofold.core._i18n import _
from twofold.core._rules import largest_tile
from twofold.core.result import mode_stats
from twofold.ui.app.screens.chain.dialogs import ChainResultDialog, NoMoreMovesDialog, RescueDialog
from twofold.ui.app.screens.chain.playing import ChainPlaying


class Ending:
    """The end of a game on the chain screen (a part it holds)."""

    def __init__(self, screen: ChainPlaying) -> None:
        self.screen = screen
        #: the end of this game was already shown (result or End game)
        self.ended = False

    def check_end(self) -> None:
        """Offer a rescue on a stuck board, or show the end when the game is over."""
        screen = self.screen
        if self.ended or screen.paused or not screen.is_current:
            return
        game = screen.game
        status = screen.status
        if game.over:
            self.ended = True
            game.pause()
            if game.time_up:
                screen.session.check_time()  # recorded once, its play time the limit
                title, body = _("Time's up!"), _("The clock has run out.")
            elif game.flags.ended:  # ended with End game, and opened again
                title, body = _("Game over"), _("The game is over.")
            else:
                title = status.over or _("No more moves")
                body = _("The game is over.")
            body += "\n" + _("Score {score}").format(score=screen.state.score)
            screen.refresh_all()
            screen.app.push_screen(
                NoMoreMovesDialog(title, body), lambda _c: self.show_result(title)
            )
            return
        if status.rescues:
            names = {p.id: p.name for p in screen.mode.powerups}
            offers = [(name, names.get(name, name), name in status.free) for name in status.rescues]
            screen.app.push_screen(RescueDialog(offers), self._rescue_chosen)

    def _rescue_chosen(self, choice: str | None) -> None:
        if choice == "end":
            self.end_game()
        elif choice and any(p.id == choice for p in self.screen.mode.powerups):
            self.screen.action_arm(choice)

    def end_game(self) -> None:
        """The player ends a stuck game instead of using a power-up."""
        self.ended = True
        self.screen.session.end_game()
        self.show_result(_("Game over"))

    def show_result(self, title: str | None = None) -> None:
        screen = self.screen
        screen.refresh_best()
        state = screen.state
        lines = [
            (_("Score"), state.score),
            (_("Best"), screen.best),
            (_("Highest tile"), largest_tile(state.board)),
        ]
        own = mode_stats(screen.mode, state)
        lines += [(s.label, own[s.key]) for s in screen.mode.statistics if s.key in own]
        screen.refresh_all()
        screen.app.push_screen(
            ChainResultDialog(
                title=title or _("Game over"), lines=lines, sendable=screen.result_sendable
            ),
            self._result_chosen,
        )

    def _result_chosen(self, choice: str | None) -> None:
        if self.screen.share_chosen(choice):
            return
        if choice == "again":
            self.screen.start_new_game()

    def time_up(self) -> None:
        if not self.ended:
            self.screen.board.cancel()
            self.check_end()
