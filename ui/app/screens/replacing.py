"""Another game on the same screen: New game, Restart, Last game and the Sample."""

from __future__ import annotations

from collections.abc import Callable

from twofold.core._i18n import _
from twofold.core.codes import format_code
from twofold.core.game import Game
from twofold.core.plugins import PluginFault
from twofold.core.session import rules_faults
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.playing import Playing
from twofold.ui.practice import practice_words


class Replacing:
    """How a game screen replaces its game (a part it holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen

    def start(self, begin: Callable[[], Game]) -> Game | None:
        """Replace the game (New game, Restart, Sample) and draw the new one."""
        screen = self.screen
        screen.finish_animation()
        screen.stop_solver()
        try:
            game = begin()
        except PluginFault as fault:
            screen.stop(fault)
            return None
        game.resume()
        screen.refresh_best()
        screen.take_in()
        screen.game_replaced()
        screen.refresh_bindings()
        text = _("New game {code}.").format(code=format_code(game.code))
        if game.flags.practice:
            text += " " + practice_words(screen.session)
        screen.announce(text)
        return game

    def confirm(self, title: str, yes: str, replace: Callable[[], object]) -> None:
        """Ask before an action (New game, Restart, Sample...) replaces a game with points."""
        screen = self.screen
        screen.finish_animation()
        if screen.state.score > 0 and not screen.game.over:
            screen.app.push_screen(
                ConfirmDialog(
                    title,
                    _("This game has {score} points. Last game (B) can bring it back.").format(
                        score=screen.state.score
                    ),
                    yes=yes,
                ),
                lambda answer: replace() if answer == "yes" else None,
            )
        else:
            replace()

    def new_game(self) -> None:
        self.confirm(
            _("Start a new game?"),
            _("New game"),
            lambda: self.start(self.screen.session.new_game),
        )

    def restart(self) -> None:
        self.confirm(_("Restart this game?"), _("Restart"), self._restart)

    def _restart(self) -> None:
        screen = self.screen
        if self.start(screen.session.restart) is not None:
            text = _("Restarted game {code} from its first move.").format(
                code=format_code(screen.game.code)
            )
            if screen.game.flags.practice:
                text += " " + practice_words(screen.session)
            screen.announce(text)

    def last_game(self) -> None:
        screen = self.screen
        screen.finish_animation()
        back = screen.session.last_game()
        if back is None:
            screen.announce(_("There is no earlier game to bring back."))
            return
        back.resume()
        screen.take_in()
        screen.game_replaced()
        screen.refresh_bindings()
        screen.announce(
            _("Back to game {code}, score {score}.").format(
                code=format_code(back.code), score=back.state.score
            )
        )

    def sample(self) -> None:
        screen = self.screen
        load = screen.mode.sample
        try:
            with rules_faults(screen.mode):
                sample = load() if load is not None else None
        except PluginFault as fault:  # the game in play is untouched: it stays
            screen.app.notify(str(fault), severity="error", timeout=10)
            return
        if sample is None:
            screen.announce(_("This mode has no Sample."))
            return

        def open_sample() -> Game:
            game = Game.replay(screen.mode, sample.code, list(sample.actions))
            game.flags.uncounted = True  # its tiles are known in advance
            return screen.session.adopt(game)

        def opened() -> None:
            if self.start(open_sample) is not None:
                screen.announce(
                    _("The Sample: a stored game, {moves} moves in. It never counts.").format(
                        moves=screen.state.moves
                    )
                )

        self.confirm(_("Open the Sample?"), _("Sample"), opened)
