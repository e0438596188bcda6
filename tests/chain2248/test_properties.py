"""Properties of whole games: full boards, gravity, score, retirement, shuffle, undo, replay."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.chain2248.helpers import CLASSIC, chain_text
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.variants.chain2248.board import COLS, NEIGHBOURS, ROWS, has_pair, is_power_of_two
from twofold.variants.chain2248.state import ChainState

codes = st.integers(0, 10_000).map(lambda n: code_from_text(f"prop-{n}"))


def some_chain(state: ChainState, pick: int) -> str:
    """A legal chain: a pair of equal touching tiles, grown greedily by equal-or-double."""
    board = state.board
    pairs = [
        (a, b) for a in NEIGHBOURS for b in NEIGHBOURS[a] if board[a[0]][a[1]] == board[b[0]][b[1]]
    ]
    first, second = pairs[pick % len(pairs)]
    cells = [first, second]
    while True:
        last = cells[-1]
        value = board[last[0]][last[1]]
        grow = [
            n
            for n in NEIGHBOURS[last]
            if n not in cells and board[n[0]][n[1]] in (value, 2 * value)
        ]
        if not grow or len(cells) > 2 + pick % 5:
            return chain_text(cells)
        cells.append(grow[pick % len(grow)])


def assert_full(state: ChainState) -> None:
    assert len(state.board) == ROWS
    assert all(len(row) == COLS for row in state.board)
    assert all(is_power_of_two(v) for row in state.board for v in row)


@settings(max_examples=25, deadline=None)
@given(code=codes, picks=st.lists(st.integers(0, 1000), min_size=1, max_size=12))
def test_play_keeps_the_board_full_and_scores_the_tiles_made(code: str, picks: list[int]) -> None:
    state = CLASSIC.rules.new_game(code)
    assert_full(state)
    assert has_pair(state.board)
    for pick in picks:
        if not has_pair(state.board):
            break
        outcome = CLASSIC.rules.apply(state, some_chain(state, pick))
        made = [e.value for e in outcome.events if e.kind == "merged"]
        assert outcome.state.score == state.score + sum(made)
        assert outcome.state.moves == state.moves + 1
        assert_full(outcome.state)
        state = outcome.state


@settings(max_examples=25, deadline=None)
@given(code=codes, pick=st.integers(0, 1000))
def test_gravity_keeps_each_column_in_order(code: str, pick: int) -> None:
    state = CLASSIC.rules.new_game(code)
    action = some_chain(state, pick)
    cells = [tuple(map(int, p.split(","))) for p in action.split()[1:]]
    outcome = CLASSIC.rules.apply(state, action)
    made = next(e for e in outcome.events if e.kind == "merged")
    new_per_column = Counter(e.cell[1] for e in outcome.events if e.kind == "appeared")
    for c in range(COLS):
        survivors = [
            made.value if (r, c) == made.cell else state.board[r][c]
            for r in range(ROWS)
            if (r, c) not in cells[:-1]
        ]
        column = [outcome.state.board[r][c] for r in range(ROWS)]
        assert column[new_per_column[c] :] == survivors
        assert new_per_column[c] == ROWS - len(survivors)


def test_retirement_is_announced_even_with_no_such_tile_left() -> None:
    board = [[8 * 2 ** ((r * COLS + c) % 4) for c in range(COLS)] for r in range(ROWS)]
    board[7][0], board[7][1] = 1024, 1024
    state = CLASSIC.rules.from_position({"board": board}, code_from_text("retire"))
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    assert [(e.value, e.cells) for e in outcome.events if e.kind == "removed"] == [(2, ())]
    assert "The 2 has retired." in CLASSIC.rules.announce(state, outcome)


def test_retired_value_leaves_and_never_comes_back() -> None:
    board = [
        [2 if (r + c) % 3 == 0 else 8 * 2 ** ((r * COLS + c) % 4) for c in range(COLS)]
        for r in range(ROWS)
    ]
    board[7][0], board[7][1] = 1024, 1024
    state = CLASSIC.rules.from_position({"board": board}, code_from_text("retire"))
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    state = outcome.state
    retired = [e for e in outcome.events if e.kind == "removed"]
    assert [e.value for e in retired] == [2]
    # every 2 leaves; the refill before it already drew no 2
    assert len(retired[0].cells) == sum(v == 2 for row in board for v in row)
    assert state.retired == (2,)
    assert state.highest == 2048
    for pick in range(40):
        assert all(v != 2 for row in state.board for v in row)
        if not has_pair(state.board):
            break
        state = CLASSIC.rules.apply(state, some_chain(state, pick)).state


@settings(max_examples=20, deadline=None)
@given(code=codes)
def test_shuffle_keeps_the_tiles_and_leaves_a_chain(code: str) -> None:
    state = CLASSIC.rules.new_game(code)
    outcome = CLASSIC.rules.apply(state, "shuffle")
    flat = Counter(v for row in state.board for v in row)
    assert Counter(v for row in outcome.state.board for v in row) == flat
    assert has_pair(outcome.state.board)
    assert outcome.state.held("shuffle") == state.held("shuffle") - 1
    moved = [e for e in outcome.events if e.kind == "moved"]
    for e in moved:
        assert outcome.state.board[e.target[0]][e.target[1]] == e.value


@settings(max_examples=20, deadline=None)
@given(code=codes, pick=st.integers(0, 1000))
def test_undo_then_the_same_action_gives_the_same_board(code: str, pick: int) -> None:
    game = Game.start(CLASSIC, code)
    action = some_chain(game.state, pick)
    game.act(action)
    after = game.state
    game.act("undo")
    assert game.state.board == CLASSIC.rules.new_game(code).board
    assert game.state.held("undo") == 0
    game.act(action)
    assert game.state.board == after.board
    assert game.state.score == after.score
    assert game.state.draws == after.draws


@settings(max_examples=15, deadline=None)
@given(code=codes, picks=st.lists(st.integers(0, 1000), min_size=1, max_size=8))
def test_same_code_and_actions_give_the_same_game(code: str, picks: list[int]) -> None:
    game = Game.start(CLASSIC, code)
    for pick in picks:
        if not has_pair(game.state.board):
            break
        game.act(some_chain(game.state, pick))
    again = Game.replay(CLASSIC, code, game.log)
    assert again.state == game.state
