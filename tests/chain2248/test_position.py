"""Starting from a position given as JSON, and the errors a bad one gets."""

from __future__ import annotations

import pytest

from tests.chain2248.helpers import CLASSIC, DAILY, board_with
from twofold.core._rules import PositionError


def test_a_position_sets_board_power_ups_score_and_retired() -> None:
    board = board_with({(7, 0): 4, (7, 1): 4})
    state = CLASSIC.rules.from_position(
        {"board": board, "powerups": {"hammer": 3}, "score": 120, "retired": [2]}, "7K3M9QXP"
    )
    assert [list(r) for r in state.board] == board
    assert state.powerups == {"hammer": 3, "swap": 1, "shuffle": 1, "undo": 1}
    assert (state.score, state.retired, state.highest) == (120, (2,), 65536)


def test_daily_position_may_set_merges_left() -> None:
    state = DAILY.rules.from_position({"board": board_with({}), "merges_left": 4}, "7K3M9QXP")
    assert state.merges_left == 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({}, 'needs a "board"'),
        ({"board": [[2] * 5] * 7}, "8 rows, this one has 7"),
        ({"board": [[2] * 5] * 7 + [[2] * 4]}, "row 7 must be a list of 5 tiles"),
        ({"board": [[2] * 5] * 7 + [[2, 2, 2, 2, 3]]}, "row 7, column 4: 3 is not a power of two"),
        ({"board": [[2] * 5] * 7 + [[2, 2, 2, 2, 0]]}, "always full"),
        ({"board": [[2] * 5] * 8, "retired": [2]}, "2 is retired but still on the board"),
        ({"board": [[4] * 5] * 8, "retired": [3]}, "retired value 3"),
        ({"board": [[4] * 5] * 8, "powerups": {"bomb": 1}}, "unknown power-up 'bomb'"),
        ({"board": [[4] * 5] * 8, "powerups": {"hammer": 10}}, "0..9"),
        ({"board": [[4] * 5] * 8, "score": -1}, "the score must be"),
        ({"board": [[4] * 5] * 8, "score": "lots"}, "whole number"),
        ({"board": [[4] * 5] * 8, "merges_left": 3}, "no budget"),
        ({"board": [[4] * 5] * 8, "colour": "red"}, "unknown field 'colour'"),
    ],
)
def test_bad_positions_get_one_clear_line(data: object, message: str) -> None:
    with pytest.raises(PositionError) as error:
        CLASSIC.rules.from_position(data, "7K3M9QXP")  # type: ignore[arg-type]
    assert message in str(error.value)
    assert "\n" not in str(error.value)
