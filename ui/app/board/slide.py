"""Slide controls on the board: a drag across it is a swipe (the keys are the screen's)."""

from __future__ import annotations

from textual import events
from textual.message import Message

from twofold.ui.app.board.widget import GameBoard

#: a drag counts as a swipe past this many columns or rows of travel
SWIPE_COLUMNS = 3
SWIPE_ROWS = 2


def swipe_direction(dx: int, dy: int) -> str | None:
    """The direction of a drag, or None when it travelled too little to be a swipe.

    Terminal columns are about half as tall as rows are wide, so a column of travel
    weighs half a row.
    """
    if abs(dx) < SWIPE_COLUMNS and abs(dy) < SWIPE_ROWS:
        return None
    if abs(dx) / 2 >= abs(dy):
        return "right" if dx > 0 else "left"
    return "down" if dy > 0 else "up"


class SlideBoard(GameBoard):
    """The board of a slide mode: a drag posts ``Swiped`` in its direction."""

    class Swiped(Message):
        """The player dragged across the board in a direction."""

        def __init__(self, direction: str) -> None:
            super().__init__()
            self.direction = direction

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.press(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        travel = self.release(event)
        direction = swipe_direction(*travel) if travel is not None else None
        if direction is not None:
            self.post_message(self.Swiped(direction))
