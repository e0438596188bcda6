"""The play widget of every slide mode (2048 of any size, and any plugin's slide mode)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Button

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core.codes import format_code
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.controls import MOVE
from twofold.ui.app.screens.game_keys import game_bindings
from twofold.ui.app.screens.play import Play

DIRECTIONS = ("left", "up", "down", "right")
ARROWS = {"left": "◀", "up": "▲", "down": "▼", "right": "▶"}


class SlidePlay(Play):
    """A slide-mode game: the board, its numbers, the arrows, the announcement line."""

    DEFAULT_CSS = """
    SlidePlay {
        height: 1fr;
        align-horizontal: center;
    }
    SlidePlay #arrows {
        width: 100%;
        height: 1;
        align-horizontal: center;
    }
    SlidePlay #arrows Button {
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
        Binding("escape", "screen.escape", _("Cancel or pause"), show=False, id="slide.escape"),
    ]  # fmt: skip

    def compose(self) -> Iterable[Widget]:
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
        yield self.announcement_line()

    def opening_words(self, code: str) -> str:
        return _("Game {code}. Slide the tiles with the arrow keys.").format(code=format_code(code))

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        self.post_message(self.Chosen(direction))

    @on(SlideBoard.Swiped)
    def _swiped(self, event: SlideBoard.Swiped) -> None:
        event.stop()
        self.post_message(self.Chosen(event.direction))

    @on(Button.Pressed, "#arrows Button")
    def _arrow(self, event: Button.Pressed) -> None:
        event.stop()
        direction = (event.button.id or "").removeprefix("arrow-")
        if direction in {d.name for d in self.mode.slide_directions()}:
            self.post_message(self.Chosen(direction))

    def hint_words(self, hint: Hint) -> str | None:
        labels = {d.name: d.label for d in self.mode.slide_directions()}
        if hint.action in labels:
            return _("Hint: {action}.").format(action=_(labels[hint.action]))
        return super().hint_words(hint)
