"""The 2048 rules through the core contract: deal, events, parsing, positions, words."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.core import plugins
from twofold.core._deal import draw
from twofold.core._rules import Mode, Outcome, PositionError, Refused, State
from twofold.core.game import Game
from twofold.variants.classic2048 import modes
from twofold.variants.classic2048.rules import (
    ClassicRules,
    Merge,
    Slide,
    SlideState,
    Spawn,
)

CODE = "1NYG88J8"
RULES = ClassicRules(4)


def mode(mode_id: str = "2048") -> Mode:
    return {m.id: m for m in modes()}[mode_id]


def position(*rows: str, size: int = 4, **extra: Any) -> SlideState:
    board = [[0 if w == "." else int(w) for w in row.split()] for row in rows]
    return ClassicRules(size).from_position({"board": board, **extra}, CODE)


def rows(state: SlideState) -> list[str]:
    return [" ".join(str(v) if v else "." for v in row) for row in state.board]


# -- registration ---------------------------------------------------------------------------


def test_the_plugin_registers_four_modes_through_the_hook() -> None:
    registry = plugins.load()
    assert registry.problems == []
    found = {m.id: m for m in registry.modes.values() if m.family.startswith("2048")}
    assert sorted(found) == ["2048", "2048-5x5", "2048-6x6", "2048-daily"]
    assert [found[i].size for i in ("2048", "2048-5x5", "2048-6x6", "2048-daily")] == [4, 5, 6, 4]
    assert [m.id for m in registry.family("2048")] == ["2048", "2048-5x5", "2048-6x6"]
    assert found["2048-daily"].daily and found["2048-daily"].family == "2048-daily"
    for m in found.values():
        assert m.controls == "slide"
        assert m.goal == 2048
        assert m.rules.undo_depth == 2000
    assert found["2048"].title == "2048"


# -- the deal -------------------------------------------------------------------------------


def test_a_new_game_places_two_tiles_from_draws_0_and_1() -> None:
    state = RULES.new_game(CODE)
    assert isinstance(state, State)
    assert state.draws == 2
    assert (state.score, state.moves) == (0, 0)
    tiles = [(r, c, v) for r, row in enumerate(state.board) for c, v in enumerate(row) if v]
    assert len(tiles) == 2
    # the documented formula, worked by hand from the raw draws
    first = draw(CODE, 0)
    cell = first % 16
    value = 4 if (first >> 32) % 10 == 0 else 2
    assert state.board[cell // 4][cell % 4] == value
    second = draw(CODE, 1)
    empty = [i for i in range(16) if i != cell]
    cell2 = empty[second % 15]
    assert state.board[cell2 // 4][cell2 % 4] == (4 if (second >> 32) % 10 == 0 else 2)


def test_four_odds_are_near_one_in_ten() -> None:
    fours = sum((draw("ODDS0000", i) >> 32) % 10 == 0 for i in range(20_000))
    assert 0.09 < fours / 20_000 < 0.11


def test_new_tiles_over_many_games_are_fours_about_one_time_in_ten() -> None:
    fours = total = 0
    for n in range(1500):
        state = RULES.new_game(f"GAME{n:04d}")
        values = [v for row in state.board for v in row if v]
        fours += values.count(4)
        total += len(values)
    assert 0.08 < fours / total < 0.12


def test_exactly_one_tile_appears_after_a_real_move() -> None:
    before = position("2 . . .", ". . . .", ". . . .", ". . . 2")
    outcome = RULES.apply(before, "up")
    spawns = [e for e in outcome.events if isinstance(e, Spawn)]
    assert len(spawns) == 1
    assert outcome.state.draws == before.draws + 1
    assert outcome.state.moves == before.moves + 1
    assert sum(v > 0 for row in outcome.state.board for v in row) == 3


def test_a_move_that_changes_nothing_is_no_move() -> None:
    # Regression: a tile spawning after a move that changed nothing.
    before = position("2 4 . .", "8 . . .", ". . . .", ". . . .")
    outcome = RULES.apply(before, "left")
    assert outcome.events == ()
    assert not outcome.changed
    assert outcome.state is before
    game = Game.start(
        mode(), CODE, position={"board": [[2, 4, 0, 0], [8, 0, 0, 0]] + [[0] * 4] * 2}
    )
    step = game.act("left")
    assert not step.changed
    assert game.log == [] and game.state.moves == 0 and game.state.draws == 0
    assert step.announcement == "Left: nothing moved."


# -- events ---------------------------------------------------------------------------------


def test_events_say_exactly_what_moved_merged_and_appeared() -> None:
    before = position(". 2 2 2", ". . . .", "4 . . 4", ". . . .")
    outcome = RULES.apply(before, "left")
    slides = [e for e in outcome.events if isinstance(e, Slide)]
    merges = [e for e in outcome.events if isinstance(e, Merge)]
    assert slides == [
        Slide((0, 1), (0, 0), 2),
        Slide((0, 2), (0, 0), 2),
        Slide((0, 3), (0, 1), 2),
        Slide((2, 3), (2, 0), 4),
    ]
    assert merges == [Merge((0, 0), 4), Merge((2, 0), 8)]
    assert outcome.events[-1].kind == "appeared"
    assert outcome.state.score == 12
    assert outcome.events[0].as_dict() == {
        "type": "moved",
        "source": [0, 1],
        "target": [0, 0],
        "value": 2,
    }


def test_events_going_down_are_counted_from_the_bottom_wall() -> None:
    before = position("2 . . .", "2 . . .", "2 . . .", ". . . .")
    events = RULES.apply(before, "down").events
    assert events[:3] == (
        Slide((2, 0), (3, 0), 2),
        Slide((1, 0), (3, 0), 2),
        Slide((0, 0), (2, 0), 2),
    )
    assert events[3] == Merge((3, 0), 4)


@st.composite
def states(draw_: st.DrawFn) -> SlideState:
    n = draw_(st.sampled_from([4, 5, 6]))
    cell = st.one_of(st.just(0), st.just(0), st.integers(1, 6).map(lambda e: 1 << e))
    board = draw_(st.lists(st.lists(cell, min_size=n, max_size=n), min_size=n, max_size=n))
    return ClassicRules(n).from_position({"board": board}, CODE)


@settings(max_examples=120, deadline=None)
@given(states(), st.sampled_from(["left", "right", "up", "down"]))
def test_events_rebuild_the_board_they_describe(before: SlideState, direction: str) -> None:
    rules = ClassicRules(before.size)
    outcome = rules.apply(before, direction)
    if not outcome.changed:
        assert outcome.state is before
        return
    board = [list(row) for row in before.board]
    arrivals: dict[tuple[int, int], list[int]] = {}
    for event in outcome.events:
        if isinstance(event, Slide):
            assert board[event.source[0]][event.source[1]] == event.value
            board[event.source[0]][event.source[1]] = 0
            arrivals.setdefault(event.target, []).append(event.value)
    for (r, c), values in arrivals.items():
        board[r][c] += sum(values)
    for event in outcome.events:
        if isinstance(event, Merge):
            r, c = event.cell
            assert board[r][c] == event.value  # both halves arrived (or one stayed)
        if isinstance(event, Spawn):
            r, c = event.cell
            assert board[r][c] == 0
            board[r][c] = event.value
    assert [tuple(row) for row in board] == list(outcome.state.board)
    made = sum(e.value for e in outcome.events if isinstance(e, Merge))
    assert outcome.state.score == before.score + made


# -- through the core: replay and undo ------------------------------------------------------

actions = st.lists(st.sampled_from(["left", "right", "up", "down"]), min_size=1, max_size=40)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["2048", "2048-5x5", "2048-6x6", "2048-daily"]), actions)
def test_replaying_the_log_equals_playing(mode_id: str, directions: list[str]) -> None:
    game = Game.start(mode(mode_id), CODE)
    for direction in directions:
        if game.over:
            break
        game.act(direction)
    again = Game.replay(mode(mode_id), CODE, game.log)
    assert again.state == game.state
    assert list(again.history) == list(game.history)


@settings(max_examples=40, deadline=None)
@given(actions, st.sampled_from(["left", "right", "up", "down"]))
def test_undo_then_the_same_action_gives_the_same_state(directions: list[str], last: str) -> None:
    game = Game.start(mode(), CODE)
    for direction in directions:
        game.act(direction)
    before = game.state
    step = game.act(last)
    if not step.changed:
        return
    after = game.state
    assert game.act("u").changed
    assert game.state == before
    assert game.act(last).outcome.state == after
    assert game.state == after


def test_undo_returns_the_previous_state_with_its_place_in_the_deal() -> None:
    game = Game.start(mode(), CODE)
    opening = game.state
    game.act("left")
    assert game.act("undo").announcement == "Undone. Score 0."
    assert game.state == opening
    assert RULES.undo(opening, game.state) is opening


# -- parsing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "action"),
    [
        ("left", "left"),
        ("LEFT", "left"),
        (" Right ", "right"),
        ("up", "up"),
        ("down", "down"),
        ("a", "left"),
        ("d", "right"),
        ("w", "up"),
        ("S", "down"),
        ("h", "left"),
        ("j", "down"),
        ("k", "up"),
        ("l", "right"),
        ("arrow left", "left"),
        ("ArrowUp", "up"),
        ("←", "left"),
        ("u", "undo"),
        ("undo", "undo"),
        ("Z", "undo"),
    ],
)
def test_parse_every_spelling(typed: str, action: str) -> None:
    assert RULES.parse(typed) == action


@pytest.mark.parametrize("typed", ["xyz", "", "lef", "chain 0,0 0,1", "new"])
def test_parse_refuses_unknown_words(typed: str) -> None:
    with pytest.raises(Refused) as refusal:
        RULES.parse(typed)
    assert str(refusal.value) == f"unknown command '{typed.strip()}'"


def test_apply_refuses_what_is_not_a_direction() -> None:
    with pytest.raises(Refused):
        RULES.apply(RULES.new_game(CODE), "undo")


# -- positions ------------------------------------------------------------------------------


def test_from_position_reads_board_score_and_moves() -> None:
    state = position("2 . . .", ". 4 . .", ". . 2048 .", ". . . 131072", score=500, moves=7)
    assert state.board[3][3] == 131072
    assert (state.score, state.moves, state.draws) == (500, 7, 0)
    six = position(*[". . . . . 131072"] * 6, size=6)
    assert six.board[5][5] == 131072


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], 'a position is a JSON object with a "board"'),
        ({}, 'the position needs "board": a list of rows, each a list'),
        ({"board": "2 2"}, 'the position needs "board": a list of rows, each a list'),
        ({"board": [[0] * 4] * 3}, "the board must be 4 rows of 4 cells"),
        ({"board": [[0] * 5] * 4}, "the board must be 4 rows of 4 cells"),
        (
            {"board": [[3, 0, 0, 0]] + [[0] * 4] * 3},
            "the cell at row 1, column 1 holds 3: a tile is a power of two from 2",
        ),
        (
            {"board": [[0] * 4, [0, -2, 0, 0]] + [[0] * 4] * 2},
            "the cell at row 2, column 2 holds -2: a tile is a power of two from 2",
        ),
        (
            {"board": [[0] * 4, [0, 1, 0, 0]] + [[0] * 4] * 2},
            "the cell at row 2, column 2 holds 1: a tile is a power of two from 2",
        ),
        (
            {"board": [[0, 0, "2", 0]] + [[0] * 4] * 3},
            "the cell at row 1, column 3 is not a whole number",
        ),
        (
            {"board": [[0, 0, True, 0]] + [[0] * 4] * 3},
            "the cell at row 1, column 3 is not a whole number",
        ),
        (
            {"board": [[1 << 40, 0, 0, 0]] + [[0] * 4] * 3},
            "the cell at row 1, column 1 holds 1099511627776: the largest tile is 2147483648",
        ),
        ({"board": [[0] * 4] * 4, "score": -1}, '"score" must be a whole number from 0'),
        ({"board": [[0] * 4] * 4, "moves": "3"}, '"moves" must be a whole number from 0'),
    ],
)
def test_from_position_says_what_is_wrong_in_one_line(data: Any, message: str) -> None:
    with pytest.raises(PositionError) as error:
        RULES.from_position(data, CODE)
    assert str(error.value) == message
    assert "\n" not in message


def test_a_position_game_is_uncounted_and_plays_from_the_code() -> None:
    board = [[2, 2, 0, 0]] + [[0] * 4] * 3
    game = Game.start(mode(), CODE, position={"board": board})
    assert game.flags.uncounted
    step = game.act("left")
    assert step.changed and game.state.score == 4 and game.state.draws == 1


# -- game over ------------------------------------------------------------------------------


def test_game_over_only_when_full_without_equal_neighbours() -> None:
    over = position("2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 2")
    assert RULES.is_over(over)
    assert all(not RULES.apply(over, d).changed for d in ("left", "right", "up", "down"))
    assert not RULES.is_over(position("2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 4"))
    assert not RULES.is_over(position("2 4 2 4", "4 2 4 2", "2 4 2 4", "4 2 4 ."))
    vertical = position("2 4 2 4", "4 8 4 2", "2 8 2 4", "4 2 4 2")
    assert not RULES.is_over(vertical)
    assert RULES.apply(vertical, "up").changed


def test_diagonal_neighbours_never_join() -> None:
    assert RULES.is_over(position("2 4 8 16", "4 2 16 8", "8 16 2 4", "16 8 4 2"))


# -- words ----------------------------------------------------------------------------------


def test_announce_a_move_with_merges_and_the_new_tile() -> None:
    before = position("4 4 2 2", ". . . .", ". . . .", ". . . .", score=100)
    outcome = RULES.apply(before, "left")
    spawn = outcome.events[-1]
    assert isinstance(spawn, Spawn)
    row, col = spawn.cell
    assert RULES.announce(before, outcome) == (
        f"Left: made 8 and 4. Score 112. New {spawn.value} at row {row + 1}, column {col + 1}."
    )


def test_announce_a_slide_without_merges_and_a_no_move() -> None:
    before = position(". . . .", ". . . .", ". . . .", "2 . . .")
    outcome = RULES.apply(before, "up")
    assert RULES.announce(before, outcome).startswith("Up. Score 0. New ")
    still = RULES.apply(before, "down")
    assert RULES.announce(before, still) == "Down: nothing moved."
    assert RULES.announce(before, Outcome(before)) == "Move: nothing moved."


def test_announce_game_over() -> None:
    # the last empty cell gets a 2 (draw 0 of CODE) beside an 8 and a 4: nothing can move
    before = position("2 4 2 4", "4 2 4 2", "2 4 2 8", "16 32 4 4")
    outcome = RULES.apply(before, "left")
    assert RULES.is_over(outcome.state)
    assert RULES.announce(before, outcome) == (
        "Left: made 8. Score 8. New 2 at row 4, column 4. No moves left: game over."
    )


def test_read_board_row_by_row() -> None:
    state = position("2 . 4 8", ". . . .", "2048 . . .", ". . . 16")
    assert RULES.read_board(state) == [
        "Row 1: 2, empty, 4, 8",
        "Row 2: empty, empty, empty, empty",
        "Row 3: 2048, empty, empty, empty",
        "Row 4: empty, empty, empty, 16",
    ]


def test_render_text_aligns_the_grid_and_numbers_its_rows_and_columns() -> None:
    # numbered from 1 as in 2248's --plain board, so both games read alike
    state = position("2 . 4 8", ". . . .", "2048 . . .", ". . . 16")
    assert RULES.render_text(state) == "\n".join(
        [
            "     1    2    3    4",
            "1    2    .    4    8",
            "2    .    .    .    .",
            "3 2048    .    .    .",
            "4    .    .    .   16",
        ]
    )


def test_report_and_stats() -> None:
    state = position("2 . 4 8", ". . . .", "2048 . . .", ". . . 16")
    assert RULES.report(state) == {"won": True, "size": 4, "largest": 2048}
    small = position("2 . . .", ". . . .", ". . . .", ". . . .", size=4)
    assert RULES.report(small) == {"won": False, "size": 4, "largest": 2}
    assert RULES.stats(state) == {}


def test_reaching_2048_is_flagged_once_by_the_core() -> None:
    game = Game.start(mode(), CODE, position={"board": [[1024, 1024, 0, 0]] + [[0] * 4] * 3})
    step = game.act("left")
    assert step.reached_goal and game.flags.won
