"""What every game screen with a board shares, whatever its controls: the board beside
what comes next, each step drawn (animated, or where it ends under reduced motion), and
for slide and place modes the game-over dialog (:class:`DialogEnding`, a part).

The board is one widget for every mode (``twofold.ui.app.board``); a screen only
chooses its controls' subclass and reads their messages.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.containers import Horizontal
from textual.widget import Widget

from twofold.core._presentation import Status
from twofold.core._rules import largest_tile
from twofold.core.game import Step
from twofold.ui.app.board.next_tiles import Upcoming
from twofold.ui.app.board.widget import GameBoard
from twofold.ui.app.dialogs import GameOverDialog
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


class DialogEnding:
    """The end of a slide or place game: a dialog with the result, New game or Undo (a part
    the screen holds)."""

    def __init__(self, screen: BoardScreen) -> None:
        self.screen = screen

    def holds(self, action: str) -> bool:
        """Whether the game is over for ``action`` (all but undo): the end is shown instead."""
        if self.screen.game.over and action != "undo":
            self.screen.finish_animation()
            self.show()
            return True
        return False

    def show(self) -> None:
        screen = self.screen
        game = screen.game
        if not game.over or isinstance(screen.app.screen, GameOverDialog):
            return
        state = game.state
        dialog = GameOverDialog(
            state.score,
            screen.best,
            largest_tile(state.board),
            state.moves,
            game.can_undo,
            screen.status.over,
            sendable=screen.result_sendable,
        )
        screen.app.push_screen(dialog, self._chosen)

    def _chosen(self, choice: str | None) -> None:
        screen = self.screen
        if screen.share_chosen(choice):
            return
        if choice == "new":
            screen.start_new_game()
        elif choice == "undo":
            screen.stop_solver()  # the player takes over from the solver
            screen.act("undo")


class DialogBoardScreen(BoardScreen):
    """A board screen whose game ends in a dialog (slide and place modes)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ending = DialogEnding(self)

    def act(self, action: str) -> Step | None:
        return None if self.ending.holds(action) else super().act(action)

    def game_over(self) -> None:
        self.ending.show()
