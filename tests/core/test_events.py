"""The event check: what a board can draw passes, anything else is one line naming the fault."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from twofold.core._events import (
    Appeared,
    Event,
    Fell,
    Merged,
    Moved,
    Praised,
    Removed,
    Undone,
    Used,
    check,
)

BOARD = ((2, 0, 0), (0, 0, 0))


def test_every_well_formed_kind_passes() -> None:
    check(
        [
            Moved((0, 0), (1, 2), 2),
            Merged((0, 0), 4, ((0, 0), (0, 1))),
            Appeared((1, 1), 2),
            Fell((0, 2), (1, 2), 8),
            Removed(((0, 1),), 2, "retired"),
            Praised(6, "Nice chain"),
            Used("swap", ((0, 0), (0, 1)), free=False),
            Undone(),
        ],
        BOARD,
    )


@dataclass(frozen=True)
class Blinked(Event):
    kind = "blinked"
    cell: tuple[int, int]


@pytest.mark.parametrize(
    ("event", "says"),
    [
        (Blinked((0, 0)), "Blinked is not an event"),
        (Merged((2, 0), 4), "bad cell"),  # one row below the board
        (Merged((0, 3), 4), "bad cell"),
        (Moved((0, 0), (0, -1), 2), "bad target"),
        (Appeared((0, 0), -2), "bad value"),
        (Appeared((0, 0), True), "bad value"),  # a bool is no tile
        (Appeared((True, 0), 2), "bad cell"),
        (Appeared([0, 0], 2), "bad cell"),  # type: ignore[arg-type]
        (Merged((0, 0), 4, ((0, 0), (5, 5))), "bad cells"),
        (Removed(((0, 0),), 2, reason=3), "bad reason"),  # type: ignore[arg-type]
        (Used("hammer", free="yes"), "bad free"),  # type: ignore[arg-type]
    ],
)
def test_an_event_a_board_cannot_draw_is_one_line(event: Event, says: str) -> None:
    with pytest.raises(ValueError, match=says) as raised:
        check([Appeared((0, 0), 2), event], BOARD)
    assert "\n" not in str(raised.value)
