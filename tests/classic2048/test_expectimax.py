"""The compiled 4x4 search (_expectimax.c) against the Python one: the same moves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.variants.classic2048.slide import engine
from twofold.variants.classic2048.solver import PRUNE_PROBABILITY, Solver, nibbles

_expectimax = pytest.importorskip(
    "twofold.variants.classic2048._expectimax", reason="the compiled search was not built"
)

ENGINE = engine(4)


@pytest.fixture
def configured() -> None:
    """The heuristic configured, as any search does first: a test that calls the compiled
    search itself, alone or first of its process, met "configure() the heuristic first"
    (seen with --order random:1, and on one of six workers)."""
    Solver(4, 1).scores(ENGINE.pack([[1, 1, 0, 0], [0] * 4, [0] * 4, [0] * 4]))


def boards(largest: int = 14) -> st.SearchStrategy[int]:
    """Packed 4x4 boards with about a third of the cells empty."""
    cell = st.one_of(st.just(0), st.integers(1, largest))
    rows = st.lists(st.lists(cell, min_size=4, max_size=4), min_size=4, max_size=4)
    return rows.map(ENGINE.pack)


@settings(max_examples=300, deadline=None)
@given(boards())
def test_the_compiled_moves_are_the_engines(packed: int) -> None:
    expected = tuple(nibbles(moved) for moved in ENGINE.successors(packed))
    assert _expectimax.moves(nibbles(packed)) == expected


@settings(max_examples=60, deadline=None)
@given(boards(largest=15), st.integers(1, 3))
def test_the_compiled_search_scores_every_move_as_the_python_search(
    packed: int, depth: int
) -> None:
    compiled = Solver(4, depth)
    assert compiled.compiled
    assert compiled.scores(packed) == Solver(4, depth, compiled=False).scores(packed)


def crowded_boards() -> st.SearchStrategy[int]:
    """Packed 4x4 boards of small tiles with at most three cells empty, where the next tile
    can end the game: the boards on which the search's horizon looks for a lost game."""
    cells = st.lists(st.integers(1, 5), min_size=16, max_size=16)
    holes = st.lists(st.integers(0, 15), max_size=3)
    return st.tuples(cells, holes).map(
        lambda ch: ENGINE.pack(
            [[0 if 4 * r + c in ch[1] else ch[0][4 * r + c] for c in range(4)] for r in range(4)]
        )
    )


@settings(max_examples=60, deadline=None)
@given(crowded_boards(), st.integers(1, 4))
def test_the_compiled_search_scores_crowded_boards_as_the_python_search(
    packed: int, depth: int
) -> None:
    assert Solver(4, depth).scores(packed) == Solver(4, depth, compiled=False).scores(packed)


#: the Python search's scores on crowded boards, up to depth 9 (tools/pin_expectimax_scores.py
#: made them; seconds each in Python, so they are pinned rather than searched again)
DEEP_PINS = json.loads((Path(__file__).parent / "expectimax_scores.json").read_text())["pins"]


@pytest.mark.parametrize("pin", DEEP_PINS, ids=lambda pin: f"depth{pin['depth']}")
def test_the_compiled_search_scores_crowded_boards_deep_as_the_python_search(
    pin: dict[str, Any],
) -> None:
    packed = ENGINE.pack(pin["board"])
    assert Solver(4).scores(packed, pin["depth"]) == pin["scores"]


def test_a_crowded_board_is_searched_deep_by_default() -> None:
    rows = DEEP_PINS[0]["board"]
    assert Solver(4).depth_for(ENGINE.pack(rows)) == DEEP_PINS[0]["depth"]


def test_the_default_depth_agrees_on_an_early_board() -> None:
    # few kinds of tile, many empty cells: the boards of the early game
    packed = ENGINE.pack([[1, 2, 0, 0], [0, 1, 0, 0], [0, 0, 3, 0], [2, 0, 0, 1]])
    solver = Solver(4)
    assert solver.depth_for(packed) == 3
    assert solver.scores(packed) == Solver(4, compiled=False).scores(packed)


@pytest.mark.usefixtures("configured")
def test_two_32768s_that_would_merge_send_the_search_to_python() -> None:
    packed = ENGINE.pack([[15, 15, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert _expectimax.moves(nibbles(packed)) is None
    assert _expectimax.scores(nibbles(packed), 2, PRUNE_PROBABILITY) is None
    assert Solver(4, 2).scores(packed) == Solver(4, 2, compiled=False).scores(packed)
    assert Solver(4, 2).choose_packed(packed) in ("left", "right")  # either merges them


@pytest.mark.usefixtures("configured")
def test_a_65536_two_moves_away_still_sends_the_search_to_python() -> None:
    # left makes a second 32768 under the first, up would then merge them: only the search sees it
    packed = ENGINE.pack([[15, 0, 0, 0], [14, 14, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert _expectimax.moves(nibbles(packed)) is not None
    assert _expectimax.scores(nibbles(packed), 1, PRUNE_PROBABILITY) is not None
    assert _expectimax.scores(nibbles(packed), 2, PRUNE_PROBABILITY) is None
    assert Solver(4, 2).scores(packed) == Solver(4, 2, compiled=False).scores(packed)


def test_a_65536_is_searched_in_python() -> None:
    packed = ENGINE.pack([[16, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert nibbles(packed) is None
    assert Solver(4, 2).scores(packed) == Solver(4, 2, compiled=False).scores(packed)


@pytest.mark.usefixtures("configured")
def test_bad_calls_are_errors_not_crashes() -> None:
    with pytest.raises(ValueError):
        _expectimax.configure(b"too short")
    with pytest.raises(ValueError):
        _expectimax.scores(1, 0, PRUNE_PROBABILITY)
    with pytest.raises(OverflowError):
        _expectimax.moves(1 << 64)
