"""What a game screen tells beyond the board: the link, the result, the board in words.

The result is a line or two to paste and compare the day with friends: the mode,
the date of a daily, the score, the highest tile and what the mode counts, and the
link that starts the same game from its first move, never the board itself. A part
of :class:`~twofold.ui.app.screens.game.GameScreen`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from twofold.core.i18n import _
from twofold.core.presentation import upcoming_words
from twofold.core.rules import largest_tile
from twofold.ui.app.dialogs import BoardReading, ResultDialog
from twofold.ui.app.links import game_link

if TYPE_CHECKING:
    from twofold.ui.app.screens.game import GameScreen


class Telling:
    """Copy link, Copy result and Read (a part of :class:`GameScreen`)."""

    def share(self: GameScreen) -> str:
        # in a browser, a link that opens this game; in a terminal, the share string
        return game_link(self.mode.id, self.game.code)

    def mode_stats(self: GameScreen) -> dict[str, int]:
        """This game's own numbers (``Rules.stats``), empty if the mode fails to give them."""
        try:
            return {
                k: v for k, v in dict(self.rules.stats(self.state)).items() if isinstance(v, int)
            }
        except Exception:  # what can be told is told; play already checked the rules
            return {}

    def result_figures(self: GameScreen) -> list[str]:
        """What the mode counts in this game, one figure per key of its statistics."""
        own = self.mode_stats()
        own["moves"] = self.state.moves
        figures: list[str] = []
        seen = {"score", "largest"}  # said first, in every mode
        for statistic in self.mode.statistics:
            key = statistic.key
            if key in seen or key not in own or statistic.aggregate in ("reached", "average"):
                continue
            seen.add(key)
            figures.append(f"{statistic.label} {own[key]}")
        return figures or [_("Moves {moves}").format(moves=self.state.moves)]

    def result_text(self: GameScreen) -> str:
        """Two lines to paste: the mode (and day), score, tile, what it counts; then the link."""
        state = self.state
        mode = self.mode.title
        if self.mode.daily:
            mode = f"{mode} {self.session.today().isoformat()}"
        figures = [
            _("Score {score}").format(score=state.score),
            _("Largest tile {largest}").format(largest=largest_tile(state.board)),
            *self.result_figures(),
        ]
        # one figure after another, each as the Statistics screen names it (no capital
        # lands mid-sentence, in any language)
        return "twofold {mode}: {figures}\n{share}".format(
            mode=mode, figures=" · ".join(figures), share=self.share()
        )

    def action_copy_link(self: GameScreen) -> None:
        link = self.share()
        self.announce(_("Copied the link {link}.").format(link=link))
        self.show_copied(_("Link copied"), link)

    def action_copy_result(self: GameScreen) -> None:
        self.announce(_("Copied the result."))
        self.show_copied(_("Result copied"), self.result_text())

    def show_copied(self: GameScreen, title: str, text: str) -> None:
        """Copy ``text`` and show it whole, in one dialog for every copy (link and result)."""
        self.app.copy_to_clipboard(text)
        self.app.push_screen(ResultDialog(title, text))

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
