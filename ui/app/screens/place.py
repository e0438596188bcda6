"""The game screen of every place mode: a cell or a column is the move (``controls="place"``).

A click or tap on the board, or the cursor (the arrow keys) and Enter or Space, sends
``place R,C`` (``Mode.place == "cell"``) or ``place C`` (``"column"``: any cell of the
column). While the cursor aims, the mode's judge previews the action there: the tile
it would make, or why it cannot be played. What comes next (``Status.upcoming``) is
shown beside the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from twofold.core.capabilities import Hint, Verdict
from twofold.core.codes import format_code
from twofold.core.game import Step
from twofold.core.i18n import _
from twofold.core.plugins import PluginFault
from twofold.core.presentation import upcoming_words
from twofold.core.rules import largest_tile
from twofold.core.session import rules_faults
from twofold.ui.app.dialogs import GameOverDialog
from twofold.ui.app.screens.game import GameScreen, game_bindings
from twofold.ui.app.widgets.announce import AnnouncementLine
from twofold.ui.app.widgets.place import Cell, PlaceBoard
from twofold.ui.cells import for_people


class PlaceScreen(GameScreen):
    """A place-mode game: the board with its aim, what comes next, the announcement line."""

    DEFAULT_CSS = """
    PlaceScreen #play-area { height: 1fr; }
    PlaceScreen #place-row { height: 1fr; }
    PlaceScreen #upcoming {
        width: 24;
        height: auto;
        padding: 1 1;
        text-style: bold;
    }
    PlaceScreen #aim-preview {
        height: 1;
        text-align: center;
        color: $text-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(0, -1)", _("Cursor left"), show=False, id="place.cursor_left"),
        Binding("right", "cursor(0, 1)", _("Cursor right"), show=False, id="place.cursor_right"),
        Binding("up", "cursor(-1, 0)", _("Cursor up"), show=False, id="place.cursor_up"),
        Binding("down", "cursor(1, 0)", _("Cursor down"), show=False, id="place.cursor_down"),
        Binding("enter,space", "place", _("Place"), tooltip=_("Play the aimed place"),
                id="place.place"),
        *game_bindings("place"),
        Binding("escape", "menu", _("Menu"), show=False,
                tooltip=_("Save and go back to the mode menu"), id="place.escape"),
    ]  # fmt: skip

    # -- layout ------------------------------------------------------------------------------

    def compose_play(self) -> Iterable[Widget]:
        with Vertical(id="play-area"):
            with Horizontal(id="place-row"):
                yield PlaceBoard(self.state.board, column=self.mode.place == "column", id="board")
                yield Static("", id="upcoming", markup=False)
            yield Static("", id="aim-preview", markup=False)
            yield AnnouncementLine(id=self.ANNOUNCE_ID)

    @property
    def board(self) -> PlaceBoard:
        return self.query_one("#board", PlaceBoard)

    def board_widget(self) -> Widget:
        return self.board

    def on_mount(self) -> None:
        super().on_mount()
        self.show_upcoming()
        if self.first_tutorial():
            return
        if self.game.over:
            self.call_after_refresh(self.game_over)

    def opening_words(self) -> str:
        if self.mode.place == "column":
            how = _("Click a column, or aim with the arrow keys and press Enter.")
        else:
            how = _("Click a cell, or aim with the arrow keys and press Enter.")
        return _("Game {code}.").format(code=format_code(self.game.code)) + " " + how

    def apply_settings(self) -> None:
        super().apply_settings()
        self.board.animate_moves = not self.reduced_motion

    # -- what comes next, and the aim ------------------------------------------------------------

    def show_upcoming(self) -> None:
        """The mode's next tiles beside the board ("next: 8, then 4"), or nothing."""
        words = upcoming_words(self.status.upcoming)
        self.query_one("#upcoming", Static).update(words[:1].upper() + words[1:])

    def action_cursor(self, d_row: int, d_col: int) -> None:
        self.finish_animation()
        board = self.board
        rows, cols = len(board.board), len(board.board[0]) if board.board else 0
        if board.aim is None:
            aim = (0, cols // 2) if self.mode.place == "column" else (rows - 1, cols // 2)
        else:
            aim = (board.aim[0] + d_row, board.aim[1] + d_col)
        if self.mode.place == "column":
            aim = (0, aim[1])
        self.aim((max(0, min(rows - 1, aim[0])), max(0, min(cols - 1, aim[1]))))

    def aim(self, cell: Cell | None) -> None:
        """Aim at ``cell`` (a column's top cell for a drop) and preview the action there."""
        board = self.board
        if cell is None:
            board.aim_at(None)
            self.query_one("#aim-preview", Static).update("")
            return
        verdict = self.judged(cell)
        landing = self.landing(cell)
        preview = None
        if verdict is not None and verdict.fits and verdict.value and landing is not None:
            preview = (landing, str(verdict.value))
        board.aim_at(cell, preview)
        self.query_one("#aim-preview", Static).update(self.aim_words(cell, verdict))

    def judged(self, cell: Cell) -> Verdict | None:
        """The mode's judge of a place, or None without one; its fault stops the game."""
        judge = self.mode.judge
        if judge is None:
            return None
        try:
            with rules_faults(self.mode):
                return judge(self.state, [cell])
        except PluginFault as fault:
            self.call_later(self.stop, fault)
            return None

    def landing(self, cell: Cell) -> Cell | None:
        """Where a drop into ``cell``'s column lands (its lowest empty cell), or the cell."""
        if self.mode.place != "column":
            return cell
        board = self.board.board
        column = cell[1]
        empty = [r for r in range(len(board)) if not board[r][column]]
        return (max(empty), column) if empty else None

    def aim_words(self, cell: Cell, verdict: Verdict | None) -> str:
        where = (
            _("Column {column}").format(column=cell[1] + 1)
            if self.mode.place == "column"
            else _("Row {row}, column {column}").format(row=cell[0] + 1, column=cell[1] + 1)
        )
        if verdict is None:
            return where
        if not verdict.fits:
            return f"{where}: {verdict.reason}"
        if verdict.value:
            return _("{place}: makes {value}").format(place=where, value=verdict.value)
        return where

    # -- placing -------------------------------------------------------------------------------

    def action_place(self) -> None:
        board = self.board
        if board.aim is None:
            self.action_cursor(0, 0)  # the first press shows the cursor
            return
        self.place(board.aim)

    @on(PlaceBoard.Placed)
    def _placed(self, event: PlaceBoard.Placed) -> None:
        self.place(event.cell)

    def place(self, cell: Cell) -> None:
        self.stop_solver()
        action = f"place {cell[1]}" if self.mode.place == "column" else f"place {cell[0]},{cell[1]}"
        if self.act(action) is not None and self.board.aim is not None:
            self.aim(self.board.aim)  # the preview of the same place on the new board

    def action_undo(self) -> None:
        self.stop_solver()
        self.act("undo")

    def finish_animation(self) -> None:
        for board in self.query(PlaceBoard):
            board.finish_animation()

    def act(self, action: str) -> Step | None:
        if self.game.over and action != "undo":
            self.finish_animation()
            self.game_over()
            return None
        return super().act(action)

    def after_step(self, before: Any, step: Step) -> None:
        if step.changed:
            after = self.state
            if step.action == "undo":
                self.board.show(after.board)
            else:
                self.board.play(before.board, after.board, step.events)
            self.game.resume()
            self.show_upcoming()
            if self.board.aim is not None:
                self.aim(self.board.aim)
        super().after_step(before, step)

    def game_over(self) -> None:
        game = self.game
        if not game.over or isinstance(self.app.screen, GameOverDialog):
            return
        state = game.state
        dialog = GameOverDialog(
            state.score,
            self.best,
            largest_tile(state.board),
            state.moves,
            game.can_undo,
            self.status.over,
        )
        self.app.push_screen(dialog, self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.start(self.session.new_game)
        elif choice == "undo":
            self.act("undo")

    def game_replaced(self) -> None:
        self.board.show(self.state.board)
        self.show_upcoming()
        self.aim(None)

    def hint_words(self, hint: Hint) -> str:
        return for_people(hint.action, "column" if self.mode.place == "column" else "cell")

    def show_hint(self, hint: Hint | None) -> None:
        super().show_hint(hint)
        if hint is not None and hint.cells:
            r, c = hint.cells[0]
            self.aim((0, c) if self.mode.place == "column" else (r, c))
