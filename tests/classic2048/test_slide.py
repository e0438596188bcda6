"""The move rule: the rule's worked examples, known merge bugs, and properties of the engine."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.variants.classic2048.slide import (
    DIRECTIONS,
    MAX_EXPONENT,
    engine,
    slide,
    trace_line,
)

Grid = list[list[int]]


def values(text: str) -> list[int]:
    """``"2 2 . 4"`` -> ``[2, 2, 0, 4]``."""
    return [0 if word == "." else int(word) for word in text.split()]


def exponents(line: list[int]) -> tuple[int, ...]:
    return tuple(v.bit_length() - 1 if v else 0 for v in line)


def push_left(text: str) -> str:
    trace = trace_line(exponents(values(text)))
    return " ".join(str(1 << e) if e else "." for e in trace.result)


def move(grid: Grid, direction: str) -> tuple[Grid, int]:
    """Move a grid of values through the packed engine."""
    e = engine(len(grid))
    packed, gained = e.slide(e.pack([exponents(row) for row in grid]), direction)
    return [[1 << x if x else 0 for x in row] for row in e.unpack(packed)], gained


def grid(*rows: str) -> Grid:
    return [values(row) for row in rows]


# -- worked examples, pushed left ---------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("2 2 2 .", "4 2 . ."),
        ("2 2 2 2", "4 4 . ."),
        ("4 4 8 .", "8 8 . ."),
        ("2 2 4 .", "4 4 . ."),
        ("4 . 4 4", "8 4 . ."),
        (". . . 2", "2 . . ."),
        ("2 4 8 16", "2 4 8 16"),
        (". . . .", ". . . ."),
        ("2 . . 2", "4 . . ."),
        ("8 8 8 8 8", "16 16 8 . ."),
        ("2 2 4 4 8 8", "4 8 16 . . ."),
    ],
)
def test_spec_examples_pushed_left(before: str, after: str) -> None:
    assert push_left(before) == after


@pytest.mark.parametrize(
    ("direction", "after"),
    [
        ("left", ["4 2 . .", ". . . .", ". . . .", ". . . ."]),
        ("right", [". . 2 4", ". . . .", ". . . .", ". . . ."]),
        ("up", ["2 2 2 .", ". . . .", ". . . .", ". . . ."]),
        ("down", [". . . .", ". . . .", ". . . .", "2 2 2 ."]),
    ],
)
def test_three_equal_tiles_merge_nearest_the_wall_in_every_direction(
    direction: str, after: list[str]
) -> None:
    # Regression: a merge landing in the wrong cell in only some directions.
    moved, gained = move(grid("2 2 2 .", ". . . .", ". . . .", ". . . ."), direction)
    assert moved == grid(*after)
    assert gained == (4 if direction in ("left", "right") else 0)


def test_three_in_a_column_merge_nearest_the_wall() -> None:
    column = grid("2 . . .", "2 . . .", "2 . . .", ". . . .")
    assert move(column, "up")[0] == grid("4 . . .", "2 . . .", ". . . .", ". . . .")
    assert move(column, "down")[0] == grid(". . . .", ". . . .", "2 . . .", "4 . . .")


# -- known merge bugs in the wild (STYLE.md) -----------------------------------------------


def test_2_2_4_does_not_collapse_to_8() -> None:
    assert push_left("2 2 4 .") == "4 4 . ."
    assert move(grid(". 4 2 2", ". . . .", ". . . .", ". . . ."), "right")[0][0] == [0, 0, 4, 4]


def test_2_2_2_2_gives_two_4s_not_8() -> None:
    assert push_left("2 2 2 2") == "4 4 . ."
    moved, gained = move(grid("2 2 2 2", ". . . .", ". . . .", ". . . ."), "right")
    assert moved[0] == [0, 0, 4, 4]
    assert gained == 8


def test_up_and_down_are_not_swapped() -> None:
    board = grid(". . . .", ". 2 . .", ". . . .", ". . . .")
    assert move(board, "up")[0][0] == [0, 2, 0, 0]
    assert move(board, "down")[0][3] == [0, 2, 0, 0]
    assert move(board, "left")[0][1] == [2, 0, 0, 0]
    assert move(board, "right")[0][1] == [0, 0, 0, 2]


def test_no_negative_index_wraps_a_row_around() -> None:
    # A tile at the left wall moved left must stay put, not reappear at the right end.
    board = grid("2 . . 4", "8 . . .", ". . . .", ". . . 16")
    assert move(board, "left")[0] == grid("2 4 . .", "8 . . .", ". . . .", "16 . . .")
    assert move(board, "right")[0] == grid(". . 2 4", ". . . 8", ". . . .", ". . . 16")
    # and rows never bleed into each other through the packing
    assert move(board, "up")[0] == grid("2 . . 4", "8 . . 16", ". . . .", ". . . .")


def test_largest_exponents_pack_without_overflow_on_6x6() -> None:
    big = 1 << 17
    board = grid(f"{big} {big} . . . .", *[". . . . . ."] * 5)
    moved, gained = move(board, "left")
    assert moved[0][0] == 1 << 18
    assert gained == 1 << 18
    top = [1 << MAX_EXPONENT] * 2 + [0] * 4
    assert move([top, *board[1:]], "left")[0][0] == top  # the cap tile never merges


def test_score_is_the_value_of_every_tile_made() -> None:
    assert move(grid("2 2 4 4", "8 8 . .", ". . . .", ". . . ."), "left")[1] == 4 + 8 + 16


def test_module_slide_function() -> None:
    e = engine(4)
    packed = e.pack([[1, 1, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    assert slide(packed, "left") == (e.pack([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]), 4)


# -- properties -----------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> Grid:
    n = draw(st.sampled_from([4, 5, 6]))
    cell = st.one_of(st.just(0), st.integers(1, 12).map(lambda e: 1 << e))
    return draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=n, max_size=n))


def mirror(g: Grid) -> Grid:
    return [row[::-1] for row in g]


def transpose(g: Grid) -> Grid:
    return [list(col) for col in zip(*g, strict=True)]


@settings(max_examples=150, deadline=None)
@given(boards(), st.sampled_from(DIRECTIONS))
def test_a_move_never_changes_the_sum_of_tiles(board: Grid, direction: str) -> None:
    moved, _gained = move(board, direction)
    assert sum(map(sum, moved)) == sum(map(sum, board))


@settings(max_examples=150, deadline=None)
@given(boards())
def test_all_four_directions_are_one_rule_mirrored_and_transposed(board: Grid) -> None:
    left, left_gain = move(board, "left")
    assert left == [list(trace_rows) for trace_rows in _left_by_rule(board)]
    right, right_gain = move(mirror(board), "left")
    assert move(board, "right") == (mirror(right), right_gain)
    up, up_gain = move(transpose(board), "left")
    assert move(board, "up") == (transpose(up), up_gain)
    down, down_gain = move(mirror(transpose(board)), "left")
    assert move(board, "down") == (transpose(mirror(down)), down_gain)
    assert left_gain >= 0


def _left_by_rule(board: Grid) -> list[list[int]]:
    rows = []
    for row in board:
        result = trace_line(exponents(row)).result
        rows.append([1 << e if e else 0 for e in result])
    return rows


@settings(max_examples=100, deadline=None)
@given(boards(), st.sampled_from(DIRECTIONS))
def test_a_second_move_changes_nothing_when_the_first_merged_nothing(
    board: Grid, direction: str
) -> None:
    once, gained = move(board, direction)
    twice, _ = move(once, direction)
    if gained == 0:
        assert twice == once  # sliding alone leaves nothing more to slide


@settings(max_examples=200, deadline=None)
@given(boards())
def test_the_moving_bits_are_the_moves_that_change_the_board(board: Grid) -> None:
    e = engine(len(board))
    packed = e.pack([exponents(row) for row in board])
    changed = [e.slide(packed, direction)[0] != packed for direction in DIRECTIONS]
    assert e.moving(packed) == sum(int(moved) << i for i, moved in enumerate(changed))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_moving_bits_hold_for_the_largest_tiles_too(data: st.DataObject) -> None:
    n = data.draw(st.sampled_from([4, 5, 6]))
    cell = st.sampled_from([0, 0, 1, 2, MAX_EXPONENT - 1, MAX_EXPONENT])  # 31s never merge
    rows = data.draw(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=n, max_size=n))
    e = engine(n)
    packed = e.pack(rows)
    changed = [e.slide(packed, direction)[0] != packed for direction in DIRECTIONS]
    assert e.moving(packed) == sum(int(moved) << i for i, moved in enumerate(changed))
