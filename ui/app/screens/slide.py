"""The game screen of every slide mode (2048 of any size, and any plugin's slide mode)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, Vertical
from textual.widget import Widget
from textual.widgets import Button

from twofold.core.capabilities import Hint
from twofold.core.codes import format_code
from twofold.core.game import Step
from twofold.core.i18n import N_, _
from twofold.core.rules import largest_tile
from twofold.ui.app.dialogs import GameOverDialog
from twofold.ui.app.screens.game import GameScreen, game_bindings
from twofold.ui.app.widgets.announce import AnnouncementLine
from twofold.ui.app.widgets.board import SlideBoard

MOVE = Binding.Group(_("Move"), compact=True)
DIRECTIONS = ("left", "up", "down", "right")
#: the arrow buttons' tooltips, translated when drawn
MOVE_TIPS = {
    "left": N_("Move left"),
    "up": N_("Move up"),
    "down": N_("Move down"),
    "right": N_("Move right"),
}
ARROWS = {"left": "◀", "up": "▲", "down": "▼", "right": "▶"}


class SlideScreen(GameScreen):
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
        Binding("escape", "menu", _("Menu"), show=False,
                tooltip=_("Save and go back to the mode menu"), id="slide.escape"),
    ]  # fmt: skip

    # -- layout ------------------------------------------------------------------------------

    def compose_play(self) -> Iterable[Widget]:
        with Vertical(id="play-area"):
            yield SlideBoard(self.state.board, id="board")
            with HorizontalGroup(id="arrows"):
                for direction in DIRECTIONS:
                    button = Button(
                        ARROWS[direction],
                        id=f"arrow-{direction}",
                        compact=True,
                        tooltip=_(MOVE_TIPS[direction]),
                    )
                    button.can_focus = False
                    yield button
            yield AnnouncementLine(id=self.ANNOUNCE_ID)

    @property
    def board(self) -> SlideBoard:
        return self.query_one("#board", SlideBoard)

    def board_widget(self) -> Widget:
        return self.board

    def on_mount(self) -> None:
        super().on_mount()
        if self.first_tutorial():
            return  # the tutorial comes first; the game is there when it ends
        if self.game.over:
            self.call_after_refresh(self.game_over)

    def opening_words(self) -> str:
        return _("Game {code}. Slide the tiles with the arrow keys.").format(
            code=format_code(self.game.code)
        )

    def apply_settings(self) -> None:
        super().apply_settings()
        self.board.animate_moves = not self.reduced_motion

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        self.play(direction)

    @on(SlideBoard.Swiped)
    def _swiped(self, event: SlideBoard.Swiped) -> None:
        self.play(event.direction)

    @on(Button.Pressed, "#arrows Button")
    def _arrow(self, event: Button.Pressed) -> None:
        event.stop()
        direction = (event.button.id or "").removeprefix("arrow-")
        if direction in DIRECTIONS:
            self.play(direction)

    def action_undo(self) -> None:
        self.play("undo")

    def play(self, action: str) -> None:
        """The player's action: it takes over from the solver, then is applied."""
        self.stop_solver()
        self.act(action)

    def finish_animation(self) -> None:
        for board in self.query(SlideBoard):
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
        super().after_step(before, step)

    def game_over(self) -> None:
        game = self.game
        if not game.over or isinstance(self.app.screen, GameOverDialog):
            return
        state = game.state
        why = self.status.over
        dialog = GameOverDialog(
            state.score, self.best, largest_tile(state.board), state.moves, game.can_undo, why
        )
        self.app.push_screen(dialog, self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self.start(self.session.new_game)
        elif choice == "undo":
            self.play("undo")

    def game_replaced(self) -> None:
        self.board.show(self.state.board)

    def show_hint(self, hint: Hint | None) -> None:
        if hint is not None and hint.action in DIRECTIONS:
            self.announce(_("Hint: {action}.").format(action=_(MOVE_TIPS[hint.action])))
            return
        super().show_hint(hint)
