"""The drop example plugin: place controls by column, chained merges, the next blocks.

It is played through twofold's own Game, Session and both line modes, the way an author
tests a plugin; the contract as a whole is run over it by ``twofold.testing``
(tests/plugins/test_testing_kit.py).
"""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twofold_drop import hint, judge, status
from twofold_drop.rules import COLUMNS, ROWS, DropRules, DropState, landing

from twofold.core import plugins
from twofold.core._events import Appeared, Fell, Merged, check
from twofold.core._rules import PositionError, Refused
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.session import MemoryStore, Session
from twofold.ui.lines import run_lines

CODE = code_from_text("drop")
RULES = DropRules()


def board(*rows: str) -> tuple[tuple[int, ...], ...]:
    """Rows from the top; the rows not given are empty ones above them."""
    given_rows = [tuple(int(v) for v in row.split()) for row in rows]
    return tuple([(0,) * COLUMNS] * (ROWS - len(given_rows)) + given_rows)


def state(*rows: str, upcoming: tuple[int, ...] = (2, 4)) -> DropState:
    return DropState(CODE, board(*rows), upcoming=upcoming, draws=2)


def test_the_mode_registers_as_a_column_place_mode(drop_registry: plugins.Registry) -> None:
    assert drop_registry.problems == [] and drop_registry.notes == []
    mode = drop_registry.mode("drop")
    assert (mode.controls, mode.place, mode.size, mode.goal) == ("place", "column", 5, 1024)
    assert mode.aim_after_goal() == 2048
    assert mode.hint and mode.judge and mode.autoplayer and mode.tutorial and mode.statistics


def test_the_block_falls_to_the_lowest_empty_cell() -> None:
    start = state("0 0 0 0 0", "8 0 0 0 0")
    outcome = RULES.apply(start, "place 0")
    assert outcome.events == (Appeared((5, 0), 2),)
    assert outcome.state.board[5][0] == 2 and outcome.state.upcoming[0] == 4


def test_equal_blocks_merge_again_and_again_as_they_fall() -> None:
    # the 2 lands on the 2, making a 4 that falls onto the 4, making an 8
    start = state("2 0 0 0 0", "4 0 0 0 0")
    outcome = RULES.apply(start, "place 0")
    assert outcome.events == (
        Appeared((4, 0), 2),
        Merged((4, 0), 4, ((5, 0), (4, 0))),
        Fell((4, 0), (5, 0), 4),
        Merged((5, 0), 8, ((6, 0), (5, 0))),
        Fell((5, 0), (6, 0), 8),
    )
    after = outcome.state
    assert after.board == board("8 0 0 0 0")
    assert (after.score, after.merges, after.combo) == (12, 2, 2)
    check(outcome.events, after.board)  # what the session checks: every event drawable


def test_three_equal_blocks_make_one_four_times_as_large() -> None:
    start = state("2 0 2 0 0", upcoming=(2, 2))
    outcome = RULES.apply(start, "place 1")
    [merged] = [e for e in outcome.events if isinstance(e, Merged)]
    assert merged.value == 8 and merged.cell == (6, 1) and len(merged.cells) == 3


def test_a_full_column_takes_no_block_and_a_full_top_row_ends_the_game() -> None:
    full = tuple(
        tuple((2 ** (1 + (r + c) % 2)) * (1 + 3 * (r % 3 == 0)) for c in range(COLUMNS))
        for r in range(ROWS)
    )
    start = DropState(CODE, full, upcoming=(64, 64), draws=2)
    with pytest.raises(Refused, match="column 1 is full"):
        RULES.apply(start, "place 0")
    assert RULES.is_over(start) and status(start).over == "Every column is full"
    assert hint(start) is None
    assert judge(start, [(0, 0)]).reason == "column 1 is full"


def test_the_judge_previews_the_largest_block_a_drop_makes() -> None:
    start = state("2 0 0 0 0", "4 0 0 0 0")
    assert judge(start, [(0, 0)]).value == 8
    assert judge(start, [(0, 3)]).value == 2 and judge(start, [(0, 3)]).fits


def test_the_hint_is_the_column_of_the_most_points() -> None:
    # column 2 makes a 4; column 3 makes a 4 that falls onto the 4 beside it: 12 points
    start = state("8 0 0 2 4", upcoming=(2, 8))
    found = hint(start)
    assert found is not None and found.action == "place 3" and found.cells == ((5, 3),)


def test_the_status_shows_the_next_two_blocks(drop_registry: plugins.Registry) -> None:
    game = Game.start(drop_registry.mode("drop"), CODE)
    shown = status(game.state)
    assert len(shown.upcoming) == 2 and shown.gauges == {"combo": "0"}


def test_parse_takes_place_and_undo_only() -> None:
    assert RULES.parse(" Place  3 ") == "place 3" and RULES.parse("u") == "undo"
    for wrong in ("3", "drop 3", "place", "place 1,2", "chain 0,0 0,1"):
        with pytest.raises(Refused):
            RULES.parse(wrong)
    with pytest.raises(Refused, match="no column 5"):
        RULES.apply(RULES.new_game(CODE), "place 5")


def test_a_position_needs_blocks_resting_on_blocks() -> None:
    rows = [[0] * COLUMNS for _row in range(ROWS)]
    rows[6][0] = 4
    assert RULES.from_position({"board": rows, "upcoming": [8, 2]}, CODE).upcoming == (8, 2)
    rows[3][1] = 2
    with pytest.raises(PositionError, match="floats"):
        RULES.from_position({"board": rows}, CODE)
    with pytest.raises(PositionError):
        RULES.from_position({"board": [[3] * COLUMNS] * ROWS}, CODE)


def test_the_opening_is_pinned() -> None:
    start = RULES.new_game(CODE)
    assert start.board == board() and start.draws == 2
    assert start.upcoming == (4, 4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, COLUMNS - 1), max_size=60))
def test_any_drops_keep_blocks_resting_and_every_event_drawable(columns: list[int]) -> None:
    current = RULES.new_game(CODE)
    for column in columns:
        if landing(current.board, column) is None:
            continue
        outcome = RULES.apply(current, f"place {column}")
        check(outcome.events, outcome.state.board)
        current = outcome.state
        for c in range(COLUMNS):
            stack = [current.board[r][c] for r in range(ROWS)]
            assert stack == sorted(stack, key=bool)  # no block over an empty cell
        assert current.upcoming == (current.upcoming[0], current.upcoming[1])


# -- the line modes ---------------------------------------------------------------------------


def lines(drop_registry: plugins.Registry, commands: list[str], *, json_mode: bool) -> str:
    session = Session(drop_registry.mode("drop"), MemoryStore())
    session.new_game(CODE)
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return out.getvalue()


def test_json_counts_columns_from_0_and_lists_the_commands(
    drop_registry: plugins.Registry,
) -> None:
    said = lines(drop_registry, ["place 0", "place 5", "hint"], json_mode=True)
    replies = [json.loads(line) for line in said.splitlines()]
    first, dropped, refused, hinted = replies
    assert first["commands"][0] == {"word": "place", "takes": "column"}
    assert {"word": "hint", "takes": "none"} in first["commands"]
    assert first["upcoming"] == [4, 4]
    assert dropped["events"] == [{"type": "appeared", "cell": [6, 0], "value": 4}]
    assert dropped["upcoming"][0] == 4
    assert refused["error"] == "there is no column 5 (columns 0 to 4)"
    assert hinted["hint_action"].startswith("place ") and len(hinted["hint"]) == 1


def test_plain_counts_columns_from_1_and_says_the_next_blocks(
    drop_registry: plugins.Registry,
) -> None:
    said = lines(drop_registry, ["help", "place 1", "place 6", "place 0", "hint"], json_mode=False)
    assert "Drop: place C (columns from the left, from 1)." in said
    assert "chain" not in said.lower() and "Power-ups" not in said and "Moves:" not in said
    assert "next: 4, then 4" in said and "Best combo 0" in said
    assert "Block 4 fell into column 1." in said
    assert "Not allowed: column 6 is off the board (columns 1 to 5)" in said
    assert "Not allowed: column 0 is off the board (columns 1 to 5)" in said
    after_one = drop_registry.mode("drop").rules.apply(
        Game.start(drop_registry.mode("drop"), CODE).state, "place 0"
    )
    found = hint(after_one.state)
    assert found is not None
    column = int(found.action.split()[1])
    assert f"Hint: place {column + 1}" in said  # the protocol's column, said from 1
