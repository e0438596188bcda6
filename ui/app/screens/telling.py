"""What a game screen tells beyond the board: the link, the result, the board in words.

The result is three lines to paste and compare the day with friends: the mode, the date
of a daily, the score, the highest tile and what the mode counts; the link that starts
the same game from its first move; and the proof (``twofold verify`` replays it), never
the board itself. A part a game screen holds.
"""

from __future__ import annotations

from collections.abc import Callable

from twofold.core._i18n import _
from twofold.core._presentation import upcoming_words
from twofold.core.result import figures, mode_stats, result_text
from twofold.ui.app.dialogs import BoardReading, ResultDialog
from twofold.ui.app.links import game_link
from twofold.ui.app.screens.playing import Playing
from twofold.ui.submission import SendError, send_result


class Telling:
    """Copy link, Copy result and Read of one game screen (a part it holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen

    def share(self) -> str:
        # in a browser, a link that opens this game; in a terminal, the share string
        return game_link(self.screen.mode.id, self.screen.game.code)

    def mode_stats(self) -> dict[str, int]:
        """This game's own numbers (``Rules.stats``), empty if the mode fails to give them."""
        return mode_stats(self.screen.mode, self.screen.state)

    def result_figures(self) -> list[str]:
        """What the mode counts in this game, one figure per key of its statistics."""
        return figures(self.screen.mode, self.screen.state, self.mode_stats())

    def result_text(self) -> str:
        """The headline (the mode and day, score, tile, what it counts), the link, the proof."""
        screen = self.screen
        return result_text(screen.game, link=self.share(), day=screen.session.today())

    def copy_link(self) -> None:
        if self.screen.game.position is not None:
            # a link carries a code only: it would open an ordinary game, not this board
            self.screen.announce(
                _("A game begun from a position cannot travel as a link; nothing was copied.")
            )
            return
        link = self.share()
        self.screen.announce(_("Copied the link {link}.").format(link=link))
        self.show_copied(_("Link copied"), link)

    @property
    def sendable(self) -> bool:
        """Only a finished game, and only once the player has set where and as whom."""
        settings = self.screen.app.settings  # type: ignore[attr-defined]
        return bool(
            self.screen.game.over
            and settings.leaderboard.strip()
            and settings.leaderboard_name.strip()
        )

    def send(self) -> None:
        """Send this game's result to the leaderboard the settings name."""
        settings = self.screen.app.settings  # type: ignore[attr-defined]
        self.send_result(settings.leaderboard, self.result_text(), settings.leaderboard_name)

    def end_chosen(self, choice: str | None) -> bool:
        """Copy result or Send, chosen at the end of a game; True if it was one of them."""
        if choice == "copy":
            self.copy_result()
        elif choice == "send":
            self.send()
        else:
            return False
        return True

    def copy_result(self) -> None:
        screen = self.screen
        screen.announce(_("Copied the result."))
        text = self.result_text()
        sendable = self.sendable

        def chosen(choice: str | None) -> None:
            if choice == "send":
                self.send()

        self.show_copied(_("Result copied"), text, sendable=sendable, chosen=chosen)

    def show_copied(
        self,
        title: str,
        text: str,
        *,
        sendable: bool = False,
        chosen: Callable[[str | None], None] | None = None,
    ) -> None:
        """Copy ``text`` and show it whole, in one dialog for every copy (link and result)."""
        app = self.screen.app
        app.copy_to_clipboard(text)
        app.push_screen(ResultDialog(title, text, sendable=sendable), chosen)

    def send_result(self, address: str, text: str, name: str) -> None:
        """Send the result in a thread; say the rank, or the server's reason, in one line."""
        app = self.screen.app

        def send() -> None:
            try:
                words = send_result(address, text, name.strip()).words
            except SendError as error:
                words = str(error)
            app.call_from_thread(self._sent, words)

        self.screen.run_worker(send, name="send", group="send", thread=True, exit_on_error=False)

    def _sent(self, words: str) -> None:
        self.screen.announce(words)
        self.screen.notify(words, title=_("Leaderboard"), timeout=8)

    def read_lines(self) -> list[str]:
        """The board row by row in the mode's words, then what comes next, if anything."""
        screen = self.screen
        lines = list(screen.rules.read_board(screen.state))
        words = upcoming_words(screen.status.upcoming)
        return [*lines, words[:1].upper() + words[1:] + "."] if words else lines

    def read_board(self) -> None:
        """The board in words in a dialog, one way in every mode (never a toast that
        outlives its screen)."""
        self.screen.finish_animation()
        self.screen.app.push_screen(BoardReading(self.read_lines()))
