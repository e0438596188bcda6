"""The hint is the true optimum: compared with a search of every chain."""

from __future__ import annotations

import random

import pytest

from tests.chain2248.helpers import CLASSIC, board_with, state_with
from twofold.variants.chain2248.board import COLS, ROWS
from twofold.variants.chain2248.hint import best_chain, brute_force_chain, chain_key
from twofold.variants.chain2248.rules import check_chain

#: tiles too big to join anything, to wall a small playing area off
WALL = [[2 ** (20 + r * COLS + c) for c in range(COLS)] for r in range(ROWS)]


def window_board(rng: random.Random) -> list[list[int]]:
    """A small random area of small tiles (dense, many chains) inside a wall."""
    height, width = rng.choice([(3, 3), (2, 4), (3, 4), (4, 3), (2, 5)])
    top, left = rng.randint(0, ROWS - height), rng.randint(0, COLS - width)
    k = rng.choice([1, 2, 3, 4])
    board = [row[:] for row in WALL]
    for r in range(top, top + height):
        for c in range(left, left + width):
            board[r][c] = 2 ** rng.randint(1, k)
    return board


def sparse_board(rng: random.Random) -> list[list[int]]:
    """A whole board of many values: few equal neighbours, chains up several levels."""
    k = rng.choice([6, 7, 8])
    return [[2 ** rng.randint(1, k) for _ in range(COLS)] for _ in range(ROWS)]


def assert_matches_brute_force(board: list[list[int]]) -> None:
    hint = best_chain(board)
    brute = brute_force_chain(board)
    assert chain_key(board, hint) == chain_key(board, brute), board
    if hint is not None:
        check_chain(board, list(hint))


@pytest.mark.parametrize("seed", range(4))
def test_hint_matches_brute_force_on_dense_small_areas(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        assert_matches_brute_force(window_board(rng))


@pytest.mark.parametrize("seed", range(4))
def test_hint_matches_brute_force_on_sparse_boards(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        assert_matches_brute_force(sparse_board(rng))


def test_hint_on_a_stuck_board_is_none() -> None:
    assert best_chain(board_with({})) is None


def test_all_equal_tiles_make_one_chain_of_40() -> None:
    board = [[2] * COLS for _ in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    assert chain_key(board, hint) == (128, 40)


def test_ladder_of_rows_climbs_every_row() -> None:
    board = [[2 ** (ROWS - r)] * COLS for r in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    # 5 x (2 + 4 + ... + 256) = 2550, rounded up to 4096, through all 40 tiles
    assert chain_key(board, hint) == (4096, 40)


def test_checkerboard_is_legal_and_beats_any_one_value() -> None:
    board = [[2 if (r + c) % 2 else 4 for c in range(COLS)] for r in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    value, length = chain_key(board, hint)
    # twenty 4s touch only diagonally: a path alternates rows, so at most 17 of them
    assert value == 128 and length >= 17


def test_prefers_the_bigger_tile_then_the_longer_chain() -> None:
    # three 2s (-> 8) versus two 4s (-> 8): equal tiles, the longer chain wins
    state = state_with({(7, 0): 2, (7, 1): 2, (7, 2): 2, (5, 3): 4, (5, 4): 4})
    hint = CLASSIC.rules.hint(state)
    assert hint is not None and len(hint) == 3
    # a 2 2 4 ladder (-> 8) and two 8s (-> 16): the bigger tile wins though shorter
    state = state_with({(7, 0): 2, (7, 1): 2, (7, 2): 4, (3, 3): 8, (3, 4): 8})
    assert CLASSIC.rules.hint(state) in (((3, 3), (3, 4)), ((3, 4), (3, 3)))


def test_hint_is_deterministic() -> None:
    rng = random.Random(7)
    board = [[2 ** rng.randint(1, 3) for _ in range(COLS)] for _ in range(ROWS)]
    assert best_chain(board) == best_chain(board)
