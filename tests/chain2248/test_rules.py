"""The 2248 rules: the worked examples, refusals, gravity, power-ups, the end."""

from __future__ import annotations

import re
import time

import pytest

from tests.chain2248.helpers import BLITZ, CLASSIC, DAILY, chain_text, state_with
from twofold.core._rules import Refused
from twofold.variants.chain2248.board import merge_value


@pytest.mark.parametrize(
    ("values", "made"),
    [
        ((2, 2), 4),
        ((2, 2, 2), 8),
        ((2, 2, 4), 8),
        ((128, 128, 128), 512),
        ((2, 2, 2, 2, 4, 8), 32),
    ],
)
def test_spec_examples(values: tuple[int, ...], made: int) -> None:
    cells = [(7, c) for c in range(min(len(values), 5))] + [(6, 4)][: max(0, len(values) - 5)]
    state = state_with(dict(zip(cells, values, strict=True)))
    outcome = CLASSIC.rules.apply(state, chain_text(cells))
    made_events = [e for e in outcome.events if e.kind == "merged"]
    assert [(e.cell, e.value) for e in made_events] == [(cells[-1], made)]
    assert outcome.state.score == state.score + made
    assert merge_value(sum(values)) == made


def test_tiles_fall_straight_down_and_refill_from_the_top() -> None:
    state = state_with({(7, 0): 2, (6, 0): 2, (5, 0): 4})
    outcome = CLASSIC.rules.apply(state, "chain 7,0 6,0")
    column = [row[0] for row in outcome.state.board]
    before = [row[0] for row in state.board]
    # the made 4 falls from row 6 to row 7; everything above falls one row
    assert column[7] == 4
    assert column[1:7] == before[0:6]
    assert [e.cell for e in outcome.events if e.kind == "appeared"] == [(0, 0)]
    # the other columns are untouched
    assert [row[1:] for row in outcome.state.board] == [row[1:] for row in state.board]


def test_merged_tile_sits_on_last_cell() -> None:
    state = state_with({(7, 0): 2, (7, 1): 2})
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    assert outcome.state.board[7][1] == 4
    assert outcome.state.moves == 1 and outcome.state.merges == 1
    assert outcome.state.longest_chain == 2


@pytest.mark.parametrize(
    ("tiles", "action", "reason"),
    [
        ({(7, 0): 2, (7, 1): 4}, "chain 7,0 7,1", "second tile must equal the first"),
        ({(7, 0): 16, (7, 1): 16, (7, 2): 4}, "chain 7,0 7,1 7,2", "4 cannot follow 16"),
        ({(0, 0): 2, (2, 2): 2}, "chain 0,0 2,2", "cells (0,0) and (2,2) do not touch"),
        ({(7, 0): 2, (7, 1): 2}, "chain 7,0 7,1 7,0", "used twice"),
        ({(7, 0): 2, (7, 1): 2, (7, 2): 8}, "chain 7,0 7,1 7,2", "8 cannot follow 2"),
    ],
)
def test_illegal_chains_are_refused(tiles: dict, action: str, reason: str) -> None:
    state = state_with(tiles)
    with pytest.raises(Refused, match=re.escape(reason)):
        CLASSIC.rules.apply(state, action)


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("  CHAIN 0,0   0,1 ", "chain 0,0 0,1"),
        ("chain (0, 0) (1 ,1) [2,2]", "chain 0,0 1,1 2,2"),
        ("Hammer 3,4", "hammer 3,4"),
        ("swap 0,0 1,1", "swap 0,0 1,1"),
        ("SHUFFLE", "shuffle"),
        ("undo", "undo"),
    ],
)
def test_parse_normalises(text: str, normal: str) -> None:
    assert CLASSIC.rules.parse(text) == normal


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("left", "unknown command"),
        ("", "empty"),
        ("chain 0,0", "at least 2"),
        ("chain 8,0 7,0", "row 8 is off the board"),
        ("chain 0,5 0,4", "column 5"),
        ("hammer", "one cell"),
        ("swap 0,0", "two cells"),
        ("chain 0;0 1;1", "ROW,COL"),
        ("shuffle 1,1", "no cells"),
    ],
)
def test_parse_refuses(text: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        CLASSIC.rules.parse(text)


def test_stuck_board_is_over_without_powerups() -> None:
    state = state_with({}, powerups={"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0})
    assert CLASSIC.rules.stuck(state)
    assert CLASSIC.rules.rescues(state) == []
    assert CLASSIC.rules.is_over(state)


def test_stuck_board_offers_rescues() -> None:
    state = state_with({(7, 0): 2, (7, 2): 2})
    assert CLASSIC.rules.stuck(state)
    # a Hammer's new tile is a small one from the deal and can't reach a 2 here
    assert CLASSIC.rules.rescues(state)[-2:] == ["swap", "shuffle"]
    assert not CLASSIC.rules.is_over(state)


def test_blitz_free_shuffle_only_when_stuck() -> None:
    stuck = state_with({(7, 0): 2, (7, 2): 2}, mode=BLITZ)
    assert BLITZ.rules.rescues(stuck) == ["shuffle"]
    assert not BLITZ.rules.is_over(stuck)
    outcome = BLITZ.rules.apply(stuck, "shuffle")
    assert not BLITZ.rules.stuck(outcome.state)
    assert outcome.state.held("shuffle") == 0
    with pytest.raises(Refused, match="only offered"):
        BLITZ.rules.apply(outcome.state, "shuffle")


def test_daily_budget_ends_the_game() -> None:
    state = state_with({(7, 0): 2, (7, 1): 2}, mode=DAILY, merges_left=1)
    outcome = DAILY.rules.apply(state, "chain 7,0 7,1")
    assert outcome.state.merges_left == 0
    assert DAILY.rules.is_over(outcome.state)
    assert DAILY.rules.report(outcome.state)["merges_left"] == 0
    with pytest.raises(Refused, match="no merges left"):
        DAILY.rules.apply(outcome.state, "hammer 0,0")


def test_a_long_run_of_digits_is_read_in_time_linear_in_its_length() -> None:
    """``chain`` and 4,089 digits once took 0.45 s to refuse (the pattern backtracked).

    Eight lines of N digits against one of 8N: equal work if reading is linear, eight times
    the work if it is quadratic. Best of several tries each, so a busy machine does not
    decide; no wall-clock limit.
    """
    from twofold.variants.chain2248.rules import read_cells

    def best_of_five(text: str, times: int) -> float:
        tries = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(times):
                with pytest.raises(Refused):
                    read_cells(text)
            tries.append(time.perf_counter() - start)
        return min(tries)

    best_of_five("1" * 10, 1)  # the first refusal loads the messages
    short = best_of_five("1" * 1000, 8)
    long = best_of_five("1" * 8000, 1)
    assert long < 3 * short, f"8 x 1,000 digits: {short:.6f} s; 8,000 digits: {long:.6f} s"
