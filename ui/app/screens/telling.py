"""What a game screen tells beyond the board: the link, the result, the board in words.

The result is three lines to paste and compare the day with friends: the mode, the date
of a daily, the score, the highest tile and what the mode counts; the link that starts
the same game from its first move; and the proof (``twofold verify`` replays it), never
the board itself. A part
of :class:`~twofold.ui.app.screens.game.GameScreen`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from twofold.core.i18n import _
from twofold.core.presentation import upcoming_words
from twofold.core.result import figures, mode_stats, result_text
from twofold.ui.app.dialogs import BoardReading, ResultDialog
from twofold.ui.app.links import game_link
from twofold.ui.sending import SendError, send_result

if TYPE_CHECKING:
    from twofold.ui.app.screens.game import GameScreen


class Telling:
    """Copy link, Copy result and Read (a part of :class:`GameScreen`)."""

    def share(self: GameScreen) -> str:
        # in a browser, a link that opens this game; in a terminal, the share string
        return game_link(self.mode.id, self.game.code)

    def mode_stats(self: GameScreen) -> dict[str, int]:
        """This game's own numbers (``Rules.stats``), empty if the mode fails to give them."""
        return mode_stats(self.mode, self.state)

    def result_figures(self: GameScreen) -> list[str]:
        """What the mode counts in this game, one figure per key of its statistics."""
        return figures(self.mode, self.state, self.mode_stats())

    def result_text(self: GameScreen) -> str:
        """The headline (the mode and day, score, tile, what it counts), the link, the proof."""
        return result_text(self.game, link=self.share(), day=self.session.today())

    def action_copy_link(self: GameScreen) -> None:
        link = self.share()
        self.announce(_("Copied the link {link}.").format(link=link))
        self.show_copied(_("Link copied"), link)

    def action_copy_result(self: GameScreen) -> None:
        self.announce(_("Copied the result."))
        text = self.result_text()
        settings = self.app.settings  # type: ignore[attr-defined]
        # only a finished game, and only once the player has set where and as whom
        sendable = bool(
            self.game.over and settings.leaderboard.strip() and settings.leaderboard_name.strip()
        )

        def chosen(choice: str | None) -> None:
            if choice == "send":
                self.send_result(settings.leaderboard, text, settings.leaderboard_name)

        self.show_copied(_("Result copied"), text, sendable=sendable, chosen=chosen)

    def show_copied(
        self: GameScreen,
        title: str,
        text: str,
        *,
        sendable: bool = False,
        chosen: Callable[[str | None], None] | None = None,
    ) -> None:
        """Copy ``text`` and show it whole, in one dialog for every copy (link and result)."""
        self.app.copy_to_clipboard(text)
        self.app.push_screen(ResultDialog(title, text, sendable=sendable), chosen)

    def send_result(self: GameScreen, address: str, text: str, name: str) -> None:
        """Send the result in a thread; say the rank, or the server's reason, in one line."""

        def send() -> None:
            try:
                words = send_result(address, text, name.strip()).words
            except SendError as error:
                words = str(error)
            self.app.call_from_thread(self._sent, words)

        self.run_worker(send, name="send", group="send", thread=True, exit_on_error=False)

    def _sent(self: GameScreen, words: str) -> None:
        self.announce(words)
        self.notify(words, title=_("Leaderboard"), timeout=8)

    def read_lines(self: GameScreen) -> list[str]:
        """The board row by row in the mode's words, then what comes next, if anything."""
        lines = list(self.rules.read_board(self.state))
        words = upcoming_words(self.status.upcoming)
        return [*lines, words[:1].upper() + words[1:] + "."] if words else lines

    def action_read_board(self: GameScreen) -> None:
        """The board in words in a dialog, one way in every mode (never a toast that
        outlives its screen)."""
        self.finish_animation()
        self.app.push_screen(BoardReading(self.read_lines()))
