"""The gravity, chain and position blocks of twofold.plugin: tiles falling along any step on
any set of cells with the deal refilling, chains and groups through any neighbours with the
rule of a chain a function, the ready pair rules, and reading a position."""

from __future__ import annotations

import doctest
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.core import _chains, _gravity, _positions
from twofold.plugin import (
    DOWN,
    STONE,
    Appeared,
    Board,
    Cell,
    Fell,
    PositionError,
    Refused,
    chain_problem,
    check_chain,
    doubling_chain,
    eight_neighbours,
    equal_chain,
    equal_pairs,
    fall,
    fibonacci_pairs,
    folded,
    group_of,
    groups,
    has_chain,
    merge_chain,
    position_board,
    position_score,
    rectangle,
    refill,
    settle,
    side_neighbours,
    slide_line,
    stepping,
    threes_pairs,
)
from twofold.variants.chain2248 import board as board_2248
from twofold.variants.chain2248 import rules as rules_2248


def grid(*rows: str) -> Board:
    return tuple(tuple(STONE if v == "#" else int(v) for v in row.split()) for row in rows)


def mirrored(board: Board) -> Board:
    """Left and right swapped."""
    return tuple(tuple(reversed(row)) for row in board)


def flipped(board: Board) -> Board:
    """Top and bottom swapped."""
    return tuple(reversed(board))


@pytest.mark.parametrize("module", [_chains, _gravity, _positions])
def test_the_examples_in_the_docstrings_are_true(module: object) -> None:
    failed, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failed == 0


# -- gravity -----------------------------------------------------------------------------------


def test_tiles_fall_down_into_the_gaps_each_column_keeping_its_order() -> None:
    board = grid("2 4 0", "0 8 0", "4 0 2", "0 0 0")
    after, events = fall(board, rectangle(4, 3))
    assert after == grid("0 0 0", "0 0 0", "2 4 0", "4 8 2")
    # column by column from the left, each from its lowest tile up
    assert events == (
        Fell((2, 0), (3, 0), 4),
        Fell((0, 0), (2, 0), 2),
        Fell((1, 1), (3, 1), 8),
        Fell((0, 1), (2, 1), 4),
        Fell((2, 2), (3, 2), 2),
    )


def test_a_stone_never_falls_and_holds_up_what_is_above_it() -> None:
    after, events = fall(grid("2 4", "# 0", "0 0"), rectangle(3, 2))
    assert after == grid("2 0", "# 0", "0 4")
    assert events == (Fell((0, 1), (2, 1), 4),)


def test_tiles_fall_along_any_step_on_any_set_of_cells() -> None:
    # a board with a hole at (1, 1) (no cell): sideways, tiles stop at the hole's edge
    cells = [cell for cell in rectangle(2, 3) if cell != (1, 1)]
    after, _events = fall(grid("2 0 4", "8 0 0"), cells, (0, -1))
    assert after == grid("2 4 0", "8 0 0")
    up, _events = fall(grid("0 0", "2 0", "0 4"), rectangle(3, 2), (-1, 0))
    assert up == grid("2 4", "0 0", "0 0")


def test_the_deal_refills_in_the_order_given_and_counts_its_draws() -> None:
    board, born, draws = refill(grid("0 2", "0 0"), [(1, 0), (0, 0), (0, 1)], lambda n: n + 10, 3)
    assert board == grid("14 2", "13 0") and draws == 5
    assert born == (Appeared((1, 0), 13), Appeared((0, 0), 14))


@pytest.mark.parametrize(
    ("from_wall", "after"), [(True, grid("11 13", "10 12")), (False, grid("10 12", "11 13"))]
)
def test_settling_fills_each_column_from_the_bottom_or_from_the_top(
    from_wall: bool, after: Board
) -> None:
    empty = grid("0 0", "0 0")
    board, events, draws = settle(empty, rectangle(2, 2), lambda n: n + 10, 0, from_wall=from_wall)
    assert board == after and draws == 4 and all(isinstance(e, Appeared) for e in events)


columns_8x5 = st.lists(
    st.lists(st.sampled_from([0, 0, 2, 4, 8, 16]), min_size=5, max_size=5),
    min_size=8,
    max_size=8,
).map(lambda rows: tuple(tuple(r) for r in rows))


@settings(max_examples=150, deadline=None)
@given(columns_8x5)
def test_falling_down_is_2248s_own_gravity(board: Board) -> None:
    grid_2248 = [list(row) for row in board]
    falls = board_2248.gravity(grid_2248)
    after, events = fall(board, rectangle(8, 5), DOWN)
    assert after == tuple(tuple(row) for row in grid_2248)
    assert events == tuple(Fell(a, b, v) for a, b, v in falls)


boards_with_stones = st.lists(
    st.lists(st.sampled_from([0, 0, 0, 2, 4, 8, STONE]), min_size=4, max_size=4),
    min_size=5,
    max_size=5,
).map(lambda rows: tuple(tuple(r) for r in rows))


@settings(max_examples=150, deadline=None)
@given(boards_with_stones)
def test_a_fall_keeps_every_tile_and_stone_and_is_mirror_symmetric(board: Board) -> None:
    cells = rectangle(5, 4)
    after, events = fall(board, cells)
    assert sorted(v for row in after for v in row) == sorted(v for row in board for v in row)
    stones = {(r, c) for r, c in cells if board[r][c] == STONE}
    assert stones == {(r, c) for r, c in cells if after[r][c] == STONE}
    assert fall(after, cells) == (after, ())  # settled: nothing falls twice
    assert fall(mirrored(board), cells)[0] == mirrored(after)
    assert fall(flipped(board), cells, (-1, 0))[0] == flipped(after)
    assert len(events) == sum(a.source != a.target for a in events)


@settings(max_examples=100, deadline=None)
@given(boards_with_stones)
def test_settling_leaves_no_empty_cell_and_uses_one_draw_for_each(board: Board) -> None:
    cells = rectangle(5, 4)
    empty = sum(v == 0 for row in board for v in row)
    after, events, draws = settle(board, cells, lambda n: 2 ** (n % 5 + 1), 7)
    assert all(v != 0 for row in after for v in row)
    assert draws == 7 + empty == 7 + sum(isinstance(e, Appeared) for e in events)


# -- pair rules --------------------------------------------------------------------------------


def test_the_ready_pair_rules() -> None:
    assert [fibonacci_pairs(a, b) for a, b in [(1, 1), (1, 2), (2, 3), (987, 1597)]] == [
        2,
        3,
        5,
        2584,
    ]
    assert [fibonacci_pairs(a, b) for a, b in [(2, 2), (3, 3), (1, 3), (2, 5), (5, 0), (4, 4)]] == [
        None
    ] * 6
    assert [threes_pairs(a, b) for a, b in [(1, 2), (2, 1), (3, 3), (6, 6)]] == [3, 3, 6, 12]
    assert [threes_pairs(a, b) for a, b in [(1, 1), (2, 2), (3, 6), (1, 3)]] == [None] * 4


@given(
    st.sampled_from([equal_pairs, fibonacci_pairs, threes_pairs]),
    st.integers(0, 3000),
    st.integers(0, 3000),
)
def test_a_pair_rule_is_symmetric_and_conserves_the_sum(merge: object, a: int, b: int) -> None:
    made = merge(a, b)  # type: ignore[operator]
    assert made == merge(b, a)  # type: ignore[operator]
    assert made is None or made == a + b


def test_a_threes_line_slides_with_the_ready_rule() -> None:
    values, _events, points = slide_line(
        [(0, 0), (0, 1), (0, 2), (0, 3)], ((1, 2, 3, 3),), threes_pairs
    )
    assert (values, points) == ([3, 6, 0, 0], 9)


# -- chain rules -------------------------------------------------------------------------------


def test_the_ready_chain_rules() -> None:
    assert equal_chain([3, 3, 3, 3]) == 12
    with pytest.raises(Refused, match="a 2 cannot join a chain of 3s"):
        equal_chain([3, 3, 2])
    assert doubling_chain([2, 2, 4, 8]) == 16 and doubling_chain([2, 2, 2]) == 8
    with pytest.raises(Refused, match="8 cannot follow 2"):
        doubling_chain([2, 2, 8])
    assert folded(fibonacci_pairs)([1, 1, 1, 5]) == 8
    assert folded(threes_pairs)([1, 2, 3]) == 6
    with pytest.raises(Refused, match=r"^8 cannot join 3$"):
        folded(fibonacci_pairs)([1, 2, 8])


chains_of_values = st.lists(st.sampled_from([2, 4, 8, 16, 32]), min_size=2, max_size=9)


@settings(max_examples=300, deadline=None)
@given(chains_of_values)
def test_the_doubling_rule_is_2248s_rule_and_2248_plays_it(values: list[int]) -> None:
    # 2248's rule in its own words: the second equals the first, each next one equals or
    # doubles the one before, and the chain makes its sum rounded up to a power of two
    legal = values[1] == values[0] and all(b in (a, 2 * a) for a, b in pairwise(values[1:]))
    cells = [(0, i) for i in range(len(values))]
    board = (tuple(values),)
    if not legal:
        with pytest.raises(Refused):
            doubling_chain(values)
        with pytest.raises(Refused):
            rules_2248.check_chain(board, cells)
        return
    made = doubling_chain(values)
    assert made == board_2248.merge_value(sum(values)) >= sum(values) > made // 2
    assert rules_2248.check_chain(board, cells) == made


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        [equal_chain, folded(equal_pairs), folded(fibonacci_pairs), folded(threes_pairs)]
    ),
    st.lists(st.sampled_from([1, 1, 2, 3, 4, 5, 8]), min_size=2, max_size=6),
)
def test_every_ready_chain_rule_makes_the_sum_of_its_tiles(rule: object, values: list[int]) -> None:
    try:
        made = rule(values)  # type: ignore[operator]
    except Refused:
        return
    assert made == sum(values)


# -- chains and groups on a board --------------------------------------------------------------

BOARD = grid("3 3 3 3 1 5", "1 2 1 2 4 5", "4 7 4 7 6 5")
CELLS = rectangle(3, 6)


@pytest.mark.parametrize(
    ("chain", "reason"),
    [
        ([(0, 0), (1, 0)], "a 1 cannot join a chain of 3s"),
        ([(0, 0), (0, 2)], "row 1, column 3 does not touch the tile before it"),
        ([(0, 0), (0, 1), (0, 0)], "row 1, column 1 is in the chain already"),
        ([(0, 5), (1, 5), (2, 5), (3, 6)], "row 4, column 7 is off the board"),
        ([(0, 5), (1, 5), (2, 5)], ""),
        ([(0, 1), (1, 0)], "a 1 cannot join a chain of 3s"),
        ([(1, 0), (0, 1)], "a 3 cannot join a chain of 1s"),
        ([(1, 0), (2, 1)], "a 7 cannot join a chain of 1s"),
    ],
)
def test_a_chain_is_judged_at_its_last_cell(chain: list[Cell], reason: str) -> None:
    assert chain_problem(BOARD, chain, CELLS) == reason


def test_a_legal_chain_makes_its_tile_and_a_bad_one_says_why() -> None:
    assert check_chain(BOARD, [(0, 0), (0, 1), (0, 2), (0, 3)], CELLS) == 12
    with pytest.raises(Refused, match="a chain needs at least 2 tiles"):
        check_chain(BOARD, [(0, 0)], CELLS)
    with pytest.raises(Refused, match="does not touch"):
        check_chain(BOARD, [(0, 0), (0, 2), (0, 1)], CELLS)
    # only the sides touch with four neighbours
    with pytest.raises(Refused, match="does not touch"):
        check_chain(grid("2 0", "0 2"), [(0, 0), (1, 1)], rectangle(2, 2), side_neighbours)
    assert merge_chain(BOARD, [(0, 5), (1, 5), (2, 5)], 15)[0:3] == grid(
        "3 3 3 3 1 0", "1 2 1 2 4 0", "4 7 4 7 6 15"
    )


def test_chains_follow_any_neighbours_a_hexagon_too() -> None:
    # a radius-1 hexagon in axial coordinates (q, r), on a 3x3 grid shifted by one
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    cells = {(q + 1, r + 1) for q in range(-1, 2) for r in range(-1, 2) if abs(q + r) <= 1}
    board = grid("0 4 4", "4 4 4", "4 4 0")
    hexagon = stepping(steps)
    assert check_chain(board, [(0, 2), (1, 1), (2, 0)], cells, hexagon) == 12  # along a (1,-1) line
    assert chain_problem(board, [(0, 1), (1, 2)], cells, hexagon) == (
        "row 2, column 3 does not touch the tile before it"
    )
    assert (
        chain_problem(board, [(2, 1), (2, 2)], cells, hexagon) == "row 3, column 3 is off the board"
    )
    assert has_chain(board, cells, hexagon)


def test_has_chain_is_whether_two_touching_tiles_make_one() -> None:
    assert has_chain(BOARD, CELLS)
    lonely = grid("2 4", "8 2")
    assert has_chain(lonely, rectangle(2, 2)) and not has_chain(
        lonely, rectangle(2, 2), side_neighbours
    )
    assert not has_chain(grid("2 #", "# 2"), rectangle(2, 2), side_neighbours)
    assert has_chain(grid("1 2", "4 8"), rectangle(2, 2), side_neighbours, folded(threes_pairs))


def test_a_group_is_found_breadth_first_from_its_start() -> None:
    board = grid("2 2 2", "2 4 2", "2 2 4")
    assert group_of(
        board, (1, 0), rectangle(3, 3), stepping([(1, 0), (0, -1), (0, 1), (-1, 0)])
    ) == [
        (1, 0),
        (2, 0),
        (0, 0),
        (2, 1),
        (0, 1),
        (0, 2),
        (1, 2),
    ]
    assert groups(board, rectangle(3, 3)) == [
        [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
    ]
    assert groups(board, rectangle(3, 3), eight_neighbours)[1] == [(1, 1), (2, 2)]


square_boards = st.lists(
    st.lists(st.sampled_from([2, 4, 8, STONE, 0]), min_size=4, max_size=4), min_size=4, max_size=4
).map(lambda rows: tuple(tuple(r) for r in rows))


@settings(max_examples=150, deadline=None)
@given(square_boards, st.sampled_from([side_neighbours, eight_neighbours]))
def test_groups_part_the_tiles_and_a_mirror_mirrors_them(board: Board, touch: object) -> None:
    cells = rectangle(4, 4)
    found = groups(board, cells, touch)  # type: ignore[arg-type]
    every = [cell for group in found for cell in group]
    assert len(every) == len(set(every))
    for group in found:
        assert len({board[r][c] for r, c in group}) == 1 and board[group[0][0]][group[0][1]] > 0

    def mirror(group: Sequence[Cell]) -> list[Cell]:
        return sorted((r, 3 - c) for r, c in group)

    assert sorted(mirror(g) for g in found) == sorted(groups(mirrored(board), cells, touch))  # type: ignore[arg-type]
    assert has_chain(board, cells, touch) == bool(found)  # type: ignore[arg-type]


@settings(max_examples=150, deadline=None)
@given(
    square_boards, st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=5)
)
def test_a_chain_and_its_mirror_are_judged_alike(board: Board, chain: list[Cell]) -> None:
    cells = rectangle(4, 4)
    flipped_chain = [(r, 3 - c) for r, c in chain]
    try:
        made = check_chain(board, chain, cells, eight_neighbours, doubling_chain)
    except Refused:
        with pytest.raises(Refused):
            check_chain(mirrored(board), flipped_chain, cells, eight_neighbours, doubling_chain)
        return
    assert made == check_chain(
        mirrored(board), flipped_chain, cells, eight_neighbours, doubling_chain
    )


# -- positions ---------------------------------------------------------------------------------


def test_a_position_is_read_with_one_line_for_the_first_thing_wrong() -> None:
    def fits(value: int) -> bool:
        return value >= 0

    assert position_board({"board": [[1, 0], [0, 2]]}, 2, 2, "two by two", fits) == grid(
        "1 0", "0 2"
    )
    for bad in (
        {"board": [[1, 0]]},
        {"board": [[1, 0], [0]]},
        {"board": [[1, -1], [0, 0]]},
        [1],
        {},
    ):
        with pytest.raises(PositionError, match=r"^two by two$"):
            position_board(bad, 2, 2, "two by two", fits)
    with pytest.raises(PositionError, match=r"^row 1, column 2 is not a whole number$"):
        position_board({"board": [[1, True], [0, 0]]}, 2, 2, "two by two", fits, "no good")
    with pytest.raises(PositionError, match=r"^row 2, column 1 holds -3, no good$"):
        position_board({"board": [[1, 0], [-3, 0]]}, 2, 2, "two by two", fits, "no good")
    assert position_score({"score": 5}) == 5 and position_score({}) == 0
    for score in (-1, "5", True, 1.5):
        with pytest.raises(PositionError, match="score"):
            position_score({"score": score})
