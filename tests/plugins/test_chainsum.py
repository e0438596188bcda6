"""The chain example plugin: its rules, judge and hint, played through twofold's own Game."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twofold_chainsum import judge, modes, status
from twofold_chainsum.hint import BUDGET, best_chain, groups
from twofold_chainsum.rules import SIZE, ChainSumRules, SumState, dealt

from twofold.core import plugins
from twofold.core._capabilities import Verdict
from twofold.core._events import Appeared, Fell, Merged, is_known
from twofold.core._rules import PositionError, Refused
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.session import MemoryStore, Session

CODE = code_from_text("chainsum")
RULES = ChainSumRules()


def board(*rows: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row.split()) for row in rows)


#: no two equal tiles touch except the 3s of row 0 and the 5s down column 5
PLAIN = board(
    "3 3 3 3 1 5",
    "1 2 1 2 4 5",
    "4 7 4 7 6 5",
    "1 2 1 2 4 8",
    "4 7 4 7 6 9",
    "1 2 1 2 4 8",
)


def test_n_equal_tiles_make_n_times_their_value_with_no_rounding() -> None:
    start = SumState(CODE, PLAIN, score=5)
    outcome = RULES.apply(start, "chain 0,0 0,1 0,2 0,3")
    merged, *rest = outcome.events
    assert merged == Merged((0, 3), 12, ((0, 0), (0, 1), (0, 2), (0, 3)))
    assert outcome.state.board[0][3] == 12
    assert outcome.state.score == 17
    assert (outcome.state.chains, outcome.state.longest, outcome.state.moves) == (1, 4, 1)
    # three cells emptied in row 0: nothing above them falls, three tiles drop in
    assert [type(e) for e in rest] == [Appeared] * 3
    assert {e.cell for e in rest} == {(0, 0), (0, 1), (0, 2)}
    assert outcome.state.draws == start.draws + 3
    assert all(is_known(e) for e in outcome.events)


def test_tiles_fall_into_the_gaps_and_new_ones_drop_in_from_the_top() -> None:
    outcome = RULES.apply(SumState(CODE, PLAIN), "chain 0,5 1,5 2,5")
    merged, *rest = outcome.events
    assert merged.value == 15 and merged.cell == (2, 5)
    assert [e for e in rest if isinstance(e, Fell)] == []  # the chain ends lowest
    outcome = RULES.apply(SumState(CODE, PLAIN), "chain 2,5 1,5 0,5")
    fell = [e for e in outcome.events if isinstance(e, Fell)]
    assert fell == [Fell((0, 5), (2, 5), 15)]
    column = [row[5] for row in outcome.state.board]
    assert column[2:] == [15, 8, 9, 8]
    assert [e.cell for e in outcome.events if isinstance(e, Appeared)] == [(0, 5), (1, 5)]


@pytest.mark.parametrize(
    ("cells", "reason"),
    [
        ("chain 0,0 1,0", "a 1 cannot join a chain of 3s"),
        ("chain 0,0 0,2", "row 1, column 3 does not touch the tile before it"),
        ("chain 0,0 0,1 0,0", "row 1, column 1 is in the chain already"),
        ("chain 0,3 0,4", "a 1 cannot join a chain of 3s"),
        ("chain 0,5 1,5 2,5 3,6", "row 4, column 7 is off the board"),
        ("chain 0,0", "a chain needs at least 2 tiles"),
        ("dance", "unknown command 'dance'"),
        ("chain 0,0 x", "cannot read 'x'"),
    ],
)
def test_an_illegal_chain_is_refused_with_its_reason(cells: str, reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        RULES.apply(SumState(CODE, PLAIN), cells)


def test_the_judge_previews_a_chain_and_says_why_a_tile_cannot_join() -> None:
    state = SumState(CODE, PLAIN)
    assert judge(state, [(0, 0)]) == Verdict(0, "")
    assert judge(state, [(0, 0), (0, 1)]) == Verdict(6, "")
    assert judge(state, [(0, 0), (0, 1), (0, 2)]).value == 9
    refused = judge(state, [(0, 0), (0, 1), (1, 1)])
    assert not refused.fits and refused.reason == "a 2 cannot join a chain of 3s"
    assert judge(state, [(0, 0), (0, 2)]).reason.endswith("does not touch the tile before it")
    assert judge(state, [(0, 5), (-1, 5)]).reason == "row 0, column 6 is off the board"


def test_the_hint_is_the_chain_that_makes_the_largest_tile() -> None:
    state = SumState(CODE, PLAIN)
    assert {len(g) for g in groups(PLAIN)} == {4, 3}
    hint = modes()[0].hint(state)
    assert hint is not None and len(hint.cells) == 3  # three 5s (15) beat four 3s (12)
    assert {PLAIN[r][c] for r, c in hint.cells} == {5}
    assert hint.action == "chain " + " ".join(f"{r},{c}" for r, c in hint.cells)
    assert RULES.apply(state, hint.action).state.score == 15


def test_the_hint_walks_a_whole_board_of_equal_tiles_within_its_budget() -> None:
    chain = best_chain(((2,) * SIZE,) * SIZE)
    assert len(chain) == SIZE * SIZE
    assert BUDGET >= SIZE * SIZE


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from((1, 2, 3)), min_size=36, max_size=36))
def test_every_hint_is_legal_and_no_shorter_than_any_pair(values: list[int]) -> None:
    grid = tuple(tuple(values[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE))
    state = SumState(CODE, grid)
    hint = modes()[0].hint(state)
    if RULES.is_over(state):
        assert hint is None
        return
    assert hint is not None
    outcome = RULES.apply(state, hint.action)
    bounds = [(grid[g[0][0]][g[0][1]], len(g)) for g in groups(grid)]
    made = outcome.events[0].value
    assert max(v * 2 for v, _n in bounds) <= made <= max(v * n for v, n in bounds)
    assert all(is_known(e) for e in outcome.events)
    assert all(v > 0 for row in outcome.state.board for v in row), "the board stays full"


def test_the_deal_fills_a_new_board_and_is_pinned() -> None:
    """Golden: a change to the deal or the rules here is a decision, not a slip."""
    game = Game.start(modes()[0], CODE)
    assert game.state.draws == 36
    assert [dealt(CODE, i) for i in range(6)] == [1, 2, 3, 3, 1, 3]
    assert game.state.board[0] == (1, 3, 1, 1, 1, 3)
    assert {v for row in game.state.board for v in row} <= {1, 2, 3}


def test_undo_goes_back_and_never_rerolls() -> None:
    game = Game.start(modes()[0], CODE)
    hint = modes()[0].hint(game.state)
    assert hint is not None
    first = game.act(hint.action)
    game.act("u")
    assert game.state.moves == 0
    again = game.act(hint.action)
    assert again.events == first.events


def test_positions_are_checked_in_one_line() -> None:
    ok = RULES.from_position({"board": [list(row) for row in PLAIN], "score": 3}, CODE)
    assert ok.board == PLAIN and ok.score == 3
    for bad in (
        {"board": [[1, 2]]},
        {"board": [[0] * 6] * 6},
        {"board": [[True] * 6] * 6},
        {"board": [list(row) for row in PLAIN], "score": -1},
    ):
        with pytest.raises(PositionError) as caught:
            RULES.from_position(bad, CODE)
        assert "\n" not in str(caught.value)


def test_parse_takes_chains_in_any_spelling_and_undo() -> None:
    assert RULES.parse("Chain (0,0)  0,1") == "chain 0,0 0,1"
    assert RULES.parse("chain [1, 2] [2, 3]") == "chain 1,2 2,3"
    assert [RULES.parse(w) for w in ("u", "z", "undo")] == ["undo"] * 3
    with pytest.raises(Refused):
        RULES.parse("hammer 0,0")


def test_the_mode_tells_the_app_everything_it_shows(
    chainsum_registry: plugins.Registry,
) -> None:
    assert chainsum_registry.problems == []
    mode = chainsum_registry.mode("chainsum")
    assert mode.controls == "chain" and mode.powerups == () and mode.tutorial == ()
    assert "N × v" in mode.help and "no power-ups" in mode.help
    assert {s.field for s in mode.statistics} == {"longest", "chains", "chains_per_game"}
    assert [g.key for g in mode.gauges] == ["score", "best", "moves", "longest", "code"]
    state = SumState(CODE, PLAIN, longest=4)
    assert status(state).gauges == {"longest": "4"} and status(state).over == ""
    stuck = SumState(CODE, board(*["1 2 1 2 1 2", "3 4 3 4 3 4"] * 3))
    assert status(stuck).over == "No two equal tiles touch"
    assert mode.autoplayer is not None
    player = mode.autoplayer(None)
    assert player.choose(stuck) is None
    assert player.choose(state) == mode.hint(state).action  # type: ignore[union-attr]


def test_a_session_plays_saves_resumes_and_records(
    chainsum_registry: plugins.Registry,
) -> None:
    store = MemoryStore()
    mode = chainsum_registry.mode("chainsum")
    session = Session(mode, store)
    session.new_game(CODE)
    for _turn in range(3):
        hint = mode.hint(session.game.state)
        assert hint is not None
        assert session.act(hint.action).changed
    session.act("undo")
    again = Session(mode, store)
    assert again.game.state == session.game.state
    again.new_game()
    [finished] = store.finished
    assert finished.mode_id == "chainsum" and finished.moves == 2
    assert finished.stats == {"chains": 2, "longest": session.game.state.longest}
