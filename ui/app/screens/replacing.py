"""Another game on the same screen: New game, Restart, Last game and the Sample."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from twofold.core.codes import format_code
from twofold.core.game import Game
from twofold.core.i18n import _
from twofold.core.plugins import PluginFault
from twofold.core.session import rules_faults
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.practice import practice_words

if TYPE_CHECKING:
    from twofold.ui.app.screens.game import GameScreen


class Replacing:
    """How :class:`GameScreen` replaces its game (a part of it)."""

    def start(self: GameScreen, begin: Callable[[], Game]) -> Game | None:
        """Replace the game (New game, Restart, Sample) and draw the new one."""
        self.finish_animation()
        self.stop_solver()
        try:
            game = begin()
        except PluginFault as fault:
            self.stop(fault)
            return None
        game.resume()
        self.refresh_best()
        self.game_replaced()
        self.show_numbers()
        self.refresh_bindings()
        text = _("New game {code}.").format(code=format_code(game.code))
        if game.flags.practice:
            text += " " + practice_words(self.session)
        self.announce(text)
        return game

    def game_replaced(self: GameScreen) -> None:
        """Another game is on the board now (subclasses redraw and reset their input)."""

    def confirm_replacing(
        self: GameScreen, title: str, yes: str, replace: Callable[[], object]
    ) -> None:
        """Ask before an action replaces a game with points (SPEC 4: New game, Restart...)."""
        self.finish_animation()
        if self.state.score > 0 and not self.game.over:
            self.app.push_screen(
                ConfirmDialog(
                    title,
                    _("This game has {score} points. Last game (B) can bring it back.").format(
                        score=self.state.score
                    ),
                    yes=yes,
                ),
                lambda answer: replace() if answer == "yes" else None,
            )
        else:
            replace()

    def action_new_game(self: GameScreen) -> None:
        self.confirm_replacing(
            _("Start a new game?"), _("New game"), lambda: self.start(self.session.new_game)
        )

    def action_restart(self: GameScreen) -> None:
        self.confirm_replacing(_("Restart this game?"), _("Restart"), self._restart)

    def _restart(self: GameScreen) -> None:
        if self.start(self.session.restart) is not None:
            text = _("Restarted game {code} from its first move.").format(
                code=format_code(self.game.code)
            )
            if self.game.flags.practice:
                text += " " + practice_words(self.session)
            self.announce(text)

    def action_last_game(self: GameScreen) -> None:
        self.finish_animation()
        back = self.session.last_game()
        if back is None:
            self.announce(_("There is no earlier game to bring back."))
            return
        back.resume()
        self.game_replaced()
        self.show_numbers()
        self.refresh_bindings()
        self.announce(
            _("Back to game {code}, score {score}.").format(
                code=format_code(back.code), score=back.state.score
            )
        )

    def action_sample(self: GameScreen) -> None:
        load = self.mode.sample
        try:
            with rules_faults(self.mode):
                sample = load() if load is not None else None
        except PluginFault as fault:  # the game in play is untouched: it stays
            self.app.notify(str(fault), severity="error", timeout=10)
            return
        if sample is None:
            self.announce(_("This mode has no Sample."))
            return

        def open_sample() -> Game:
            game = Game.replay(self.mode, sample.code, list(sample.actions))
            game.flags.uncounted = True  # its tiles are known in advance
            return self.session.adopt(game)

        def opened() -> None:
            if self.start(open_sample) is not None:
                self.announce(
                    _("The Sample: a stored game, {moves} moves in. It never counts.").format(
                        moves=self.state.moves
                    )
                )

        self.confirm_replacing(_("Open the Sample?"), _("Sample"), opened)
