"""The game screen of every slide mode (2048 of any size, and any plugin's slide mode)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, Vertical
from textual.widget import Widget
from textual.widgets import Button

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core.codes import format_code
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.controls import MOVE
from twofold.ui.app.screens.game_keys import game_bindings
from twofold.ui.app.screens.on_board import DialogBoardScreen
from twofold.ui.app.widgets.announcement import AnnouncementLine

DIRECTIONS = ("left", "up", "down", "right")
ARROWS = {"left": "◀", "up": "▲", "down": "▼", "right": "▶"}


class SlideScreen(DialogBoardScreen):
    """A slide-mode game: the board, its numbers, the arrows, the announcement line."""

    DEFAULT_CSS = """
    SlideScreen #play-area {
        height: 1fr;
        align-horizontal: center;
    }
    SlideScreen #arrows {
        width: 100%;
        height: 1;
        align-horizontal: center;
    }
    SlideScreen #arrows Button {
        margin: 0 1;
        min-width: 7;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a,h", "move('left')", _("Move"), key_display="←", group=MOVE,
                tooltip=_("Move left"), id="slide.left"),
        Binding("up,w,k", "move('up')", _("Move"), key_display="↑", group=MOVE,
                tooltip=_("Move up"), id="slide.up"),
        Binding("down,s,j", "move('down')", _("Move"), key_display="↓", group=MOVE,
                tooltip=_("Move down"), id="slide.down"),
        Binding("right,d,l", "move('right')", _("Move"), key_display="→", group=MOVE,
                tooltip=_("Move right"), id="slide.right"),
        # h is a move here (vim keys): a plugin slide mode's hint is on i
        *game_bindings("slide", hint_key="i"),
        Binding("escape", "escape", _("Cancel or pause"), show=False, id="slide.escape"),
    ]  # fmt: skip

    # -- layout ------------------------------------------------------------------------------

    def compose_play(self) -> Iterable[Widget]:
        with Vertical(id="play-area"):
            directions = self.mode.slide_directions()
            board = SlideBoard(
                self.state.board, directions=directions, layout=self.mode.layout, id="board"
            )
            yield from self.board_row(board)
            with HorizontalGroup(id="arrows"):
                for direction in directions:
                    button = Button(
                        ARROWS.get(direction.name) or direction.glyph or direction.name,
                        id=f"arrow-{direction.name}",
                        compact=True,
                        tooltip=_(direction.label),
                    )
                    button.can_focus = False
                    yield button
            yield AnnouncementLine(id=self.ANNOUNCE_ID)

    def mounted(self) -> None:
        super().mounted()
        if self.show_first_tutorial():
            return  # the tutorial comes first; the game is there when it ends
        if self.game.over:
            self.call_after_refresh(self.game_over)

    def opening_words(self) -> str:
        return _("Game {code}. Slide the tiles with the arrow keys.").format(
            code=format_code(self.game.code)
        )

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        self.play(direction)

    def action_command(self, word: str) -> None:
        self.play(word)

    def palette_extras(self) -> Iterable[tuple[str, str, Callable[[], Any]]]:
        return self.command_extras()

    @on(SlideBoard.Swiped)
    def _swiped(self, event: SlideBoard.Swiped) -> None:
        self.play(event.direction)

    @on(Button.Pressed, "#arrows Button")
    def _arrow(self, event: Button.Pressed) -> None:
        event.stop()
        direction = (event.button.id or "").removeprefix("arrow-")
        if direction in {d.name for d in self.mode.slide_directions()}:
            self.play(direction)

    def action_undo(self) -> None:
        self.play("undo")

    def play(self, action: str) -> None:
        """The player's action: it takes over from the solver, then is applied."""
        self.stop_solver()
        self.act(action)

    def show_hint(self, hint: Hint | None) -> None:
        labels = {d.name: d.label for d in self.mode.slide_directions()}
        if hint is not None and hint.action in labels:
            self.announce(_("Hint: {action}.").format(action=_(labels[hint.action])))
            return
        super().show_hint(hint)
