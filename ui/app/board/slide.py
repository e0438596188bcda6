"""Slide controls on the board: a drag across it is a swipe (the keys are the screen's)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from textual import events
from textual.message import Message

from twofold.core._presentation import FOUR_DIRECTIONS, Direction
from twofold.ui.app.board.widget import GameBoard

#: a drag counts as a swipe past this many columns or rows of travel
SWIPE_COLUMNS = 3
SWIPE_ROWS = 2


def swipe_direction(
    dx: int, dy: int, directions: Sequence[Direction] = FOUR_DIRECTIONS
) -> str | None:
    """The direction of a drag: the one whose angle is nearest the drag's, or None when it
    travelled too little to be a swipe.

    Terminal columns are about half as tall as rows are wide, so a column of travel
    weighs half a row; on a tie the more level direction wins.
    """
    if abs(dx) < SWIPE_COLUMNS and abs(dy) < SWIPE_ROWS:
        return None
    if not directions:
        return None
    angle = math.degrees(math.atan2(-dy * 2, dx))  # up is positive, as a direction's angle

    def off(direction: Direction) -> tuple[float, float]:
        gap = abs(angle - direction.angle) % 360
        # on a tie (a drag exactly between two) the more level direction wins
        return round(min(gap, 360 - gap), 6), abs(math.sin(math.radians(direction.angle)))

    return min(directions, key=off).name


class SlideBoard(GameBoard):
    """The board of a slide mode: a drag posts ``Swiped`` in its direction."""

    def __init__(
        self, *args: Any, directions: Sequence[Direction] = FOUR_DIRECTIONS, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.directions = tuple(directions)

    class Swiped(Message):
        """The player dragged across the board in a direction."""

        def __init__(self, direction: str) -> None:
            super().__init__()
            self.direction = direction

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.press(event)

    def on_mouse_up(self, event: events.MouseUp) -> None:
        travel = self.release(event)
        direction = swipe_direction(*travel, self.directions) if travel is not None else None
        if direction is not None:
            self.post_message(self.Swiped(direction))
