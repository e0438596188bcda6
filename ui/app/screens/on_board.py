"""The chain screen's base while it is a screen of its own: the board beside what comes
next, each step drawn (animated, or where it ends under reduced motion). Slide and place
games are the one game screen with their play widget (``screens.play``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.containers import Horizontal
from textual.widget import Widget

from twofold.core._presentation import Status
from twofold.core.game import Step
from twofold.ui.app.board.next_tiles import Upcoming
from twofold.ui.app.board.widget import GameBoard
from twofold.ui.app.screens.game import GameScreen


class BoardScreen(GameScreen):
    """A game screen drawn on the one board widget (id ``board``)."""

    DEFAULT_CSS = """
    BoardScreen #board-row { height: 1fr; }
    """

    #: the board and what comes next, once composed (kept: a query per key costs)
    _shown_board: GameBoard | None = None
    _upcoming: Upcoming | None = None

    @property
    def board(self) -> GameBoard:
        if self._shown_board is None:
            self._shown_board = self.query_one("#board", GameBoard)
        return self._shown_board

    def board_widget(self) -> Widget:
        return self.board

    def board_row(self, board: GameBoard) -> Iterable[Widget]:
        """The board, with what comes next beside it (shown when the mode says any)."""
        self._shown_board = board
        self._upcoming = Upcoming(board.palette, id="upcoming-box")
        with Horizontal(id="board-row"):
            yield board
            yield self._upcoming

    def apply_settings(self) -> None:
        super().apply_settings()
        if self._shown_board is not None:
            self._shown_board.animate_moves = not self.reduced_motion

    def watch_status(self, status: Status) -> None:
        """The mode's next tiles beside the board ("Next: 8, then 4"), or nothing."""
        if self._upcoming is not None and self._upcoming.is_mounted:
            self._upcoming.show(status.upcoming)

    def finish_animation(self) -> None:
        if self._shown_board is not None:
            self._shown_board.finish_animation()

    def after_step(self, before: Any, step: Step) -> None:
        if step.changed:
            after = self.state
            if step.action == "undo":
                self.board.show(after.board)
            else:
                self.board.play(before.board, after.board, step.events)
            self.game.resume()
        super().after_step(before, step)

    def game_replaced(self) -> None:
        self.board.show(self.state.board)
