"""The play widget of every place mode: a cell or a column is the move (``controls="place"``).

A click or tap on the board, or the cursor (the arrow keys) and Enter or Space, chooses
``place R,C`` (``Mode.place == "cell"``) or ``place C`` (``"column"``: any cell of the
column). While the cursor aims, the mode's judge previews the action there: the tile
it would make, or why it cannot be played. What comes next (``Status.upcoming``) is
shown beside the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Static

from twofold.core._capabilities import Hint, Verdict
from twofold.core._i18n import _
from twofold.core.codes import format_code
from twofold.core.plugins import PluginFault
from twofold.core.session import rules_faults
from twofold.ui.app.board.place import Cell, PlaceBoard
from twofold.ui.app.screens.game_keys import game_bindings
from twofold.ui.app.screens.play import Play, Shown
from twofold.ui.cells import for_people


class PlacePlay(Play):
    """A place-mode game: the board with its aim, what comes next, the announcement line."""

    DEFAULT_CSS = """
    PlacePlay { height: 1fr; }
    PlacePlay #aim-preview {
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
        Binding("escape", "screen.escape", _("Cancel or pause"), show=False, id="place.escape"),
    ]  # fmt: skip

    def compose(self) -> Iterable[Widget]:
        column = self.mode.place == "column"
        board = PlaceBoard(self.state.board, column=column, layout=self.mode.layout, id="board")
        yield from self.board_row(board)
        yield Static("", id="aim-preview", markup=False)
        yield self.announcement_line()

    @property
    def board(self) -> PlaceBoard:
        return self.query_one("#board", PlaceBoard)

    def opening_words(self, code: str) -> str:
        if self.mode.place == "column":
            how = _("Click a column, or aim with the arrow keys and press Enter.")
        else:
            how = _("Click a cell, or aim with the arrow keys and press Enter.")
        return _("Game {code}.").format(code=format_code(code)) + " " + how

    # -- the aim -----------------------------------------------------------------------------

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
            self.post_message(self.Failed(fault))
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

    @on(PlaceBoard.Aimed)
    def _aimed(self, event: PlaceBoard.Aimed) -> None:
        # the mouse aims as the keys do: a drop's aim is its column
        event.stop()
        cell = event.cell
        self.aim((0, cell[1]) if self.mode.place == "column" else cell)

    @on(PlaceBoard.Placed)
    def _placed(self, event: PlaceBoard.Placed) -> None:
        event.stop()
        self.place(event.cell)

    def place(self, cell: Cell) -> None:
        action = f"place {cell[1]}" if self.mode.place == "column" else f"place {cell[0]},{cell[1]}"
        self.post_message(self.Chosen(action))

    def draw(self, shown: Shown) -> None:
        super().draw(shown)
        if shown.step is None:
            self.aim(None)  # another game: no aim on it yet
        elif self.board.aim is not None:
            self.aim(self.board.aim)  # the preview of the same place on the new board

    def hint_words(self, hint: Hint) -> str | None:
        words = _("Hint: {action}.").format(
            action=for_people(hint.action, "column" if self.mode.place == "column" else "cell")
        )
        if hint.cells:
            r, c = hint.cells[0]
            self.aim((0, c) if self.mode.place == "column" else (r, c))
        return words
