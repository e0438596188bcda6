"""The building blocks of twofold.plugin: lines on any board shape, slide-and-merge with the
merge rule a function, stones, new tiles from the deal, and the rules base class."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twofold.plugin import (
    FOUR_STEPS,
    STONE,
    Appeared,
    Merged,
    Mode,
    Moved,
    Outcome,
    PositionError,
    Refused,
    RulesBase,
    lines_toward,
    put_stones,
    rectangle,
    slide,
    slide_line,
    spawn,
)


def row(*values: int) -> tuple[tuple[int, ...], ...]:
    return (tuple(values),)


LINE = [(0, 0), (0, 1), (0, 2), (0, 3)]


@pytest.mark.parametrize(
    ("values", "after", "points"),
    [
        ((2, 2, 2, 2), [4, 4, 0, 0], 8),
        ((2, 2, 4, 0), [4, 4, 0, 0], 4),  # a merged tile does not merge again in one push
        ((0, 0, 0, 2), [2, 0, 0, 0], 0),
        ((2, STONE, 2, 2), [2, STONE, 4, 0], 4),  # a stone cuts the line: tiles stop at it
        ((0, 2, STONE, 2), [2, 0, STONE, 2], 0),
    ],
)
def test_a_line_slides_and_merges_as_in_2048(
    values: tuple[int, ...], after: list[int], points: int
) -> None:
    found, _events, made = slide_line(LINE, row(*values))
    assert (found, made) == (after, points)


def test_the_events_say_what_moved_and_what_merged() -> None:
    _values, events, _points = slide_line(LINE, row(0, 2, 0, 2))
    assert events == [
        Moved((0, 1), (0, 0), 2),
        Moved((0, 3), (0, 0), 2),
        Merged((0, 0), 4, ((0, 1), (0, 3))),
    ]


def fibonacci_neighbours(first: int, second: int) -> int | None:
    """Neighbouring Fibonacci numbers (or two 1s) add up."""
    terms = [1, 1, 2, 3, 5, 8, 13, 21]
    pairs = {frozenset((a, b)) for a, b in itertools.pairwise(terms)}
    return first + second if frozenset((first, second)) in pairs else None


def threes(first: int, second: int) -> int | None:
    """1 and 2 make 3; from 3 up, equal tiles add up."""
    if {first, second} == {1, 2}:
        return 3
    return first + second if first == second >= 3 else None


@pytest.mark.parametrize(
    ("merge", "values", "after"),
    [
        (fibonacci_neighbours, (2, 3, 5, 5), [5, 5, 5, 0]),
        (fibonacci_neighbours, (1, 1, 2, 2), [2, 2, 2, 0]),
        (threes, (1, 2, 2, 1), [3, 3, 0, 0]),
        (threes, (1, 1, 3, 3), [1, 1, 6, 0]),
    ],
)
def test_the_merge_rule_is_a_function(
    merge: object, values: tuple[int, ...], after: list[int]
) -> None:
    found, _events, _points = slide_line(LINE, row(*values), merge)  # type: ignore[arg-type]
    assert found == after


def test_lines_of_a_rectangle_are_its_rows_and_columns_from_the_wall() -> None:
    cells = rectangle(2, 3)
    assert lines_toward(cells, FOUR_STEPS["left"]) == [[(0, 0), (0, 1), (0, 2)],
                                                        [(1, 0), (1, 1), (1, 2)]]  # fmt: skip
    assert lines_toward(cells, FOUR_STEPS["down"]) == [[(1, 0), (0, 0)], [(1, 1), (0, 1)],
                                                        [(1, 2), (0, 2)]]  # fmt: skip


def test_lines_follow_any_shape_and_any_step() -> None:
    # a radius-1 hexagon in axial coordinates: six directions, lines of two or three cells
    hexagon = [(q, r) for q in range(-1, 2) for r in range(-1, 2) if abs(q + r) <= 1]
    lines = lines_toward(hexagon, (1, -1))
    assert sorted(len(line) for line in lines) == [2, 2, 3]
    assert sorted(cell for line in lines for cell in line) == sorted(hexagon)


boards = st.lists(
    st.lists(st.sampled_from([0, 0, 2, 4, 8, STONE]), min_size=4, max_size=4),
    min_size=4,
    max_size=4,
).map(lambda rows: tuple(tuple(r) for r in rows))


@given(boards, st.sampled_from(sorted(FOUR_STEPS)))
def test_a_push_keeps_the_tiles_sum_and_never_moves_a_stone(board: object, way: str) -> None:
    after, _events, points = slide(board, lines_toward(rectangle(4, 4), FOUR_STEPS[way]))  # type: ignore[arg-type]
    tiles = [v for r in board for v in r if v > 0]  # type: ignore[attr-defined]
    assert sum(v for r in after for v in r if v > 0) == sum(tiles)
    stones = {(r, c) for r, line in enumerate(board) for c, v in enumerate(line) if v == STONE}  # type: ignore[arg-type]
    assert stones == {
        (r, c) for r, line in enumerate(after) for c, v in enumerate(line) if v == STONE
    }
    assert points % 2 == 0


def test_new_tiles_and_stones_come_from_the_deal() -> None:
    empty = ((0, 0), (0, 0))
    board, born = spawn(empty, "ABCD-EFGH", 0)
    assert (board, born) == spawn(empty, "ABCD-EFGH", 0)
    assert isinstance(born, Appeared) and born.value in (2, 4)
    stoned = put_stones(empty, "ABCD-EFGH", 0, 2)
    assert sum(v == STONE for r in stoned for v in r) == 2


@dataclass(frozen=True)
class Count:
    code: str
    board: tuple[tuple[int, ...], ...] = ((0,),)
    score: int = 0
    moves: int = 0


class CountRules(RulesBase):
    """Only what the game changes: a new game, a move and its end."""

    def new_game(self, code: str) -> Count:
        return Count(code)

    def apply(self, state: Count, action: str) -> Outcome:
        if action != "left":
            raise Refused("only left")
        after = Count(state.code, ((state.board[0][0] + 2,),), state.score + 2, state.moves + 1)
        return Outcome(after, (Merged((0, 0), after.board[0][0]),))

    def is_over(self, state: Count) -> bool:
        return state.board[0][0] >= 8


def test_a_rules_base_gives_every_optional_member_a_default() -> None:
    rules = CountRules()
    state = rules.new_game("ABCD-EFGH")
    assert rules.parse(" H ") == "left" and rules.parse("u") == "undo"
    with pytest.raises(Refused):
        rules.parse("sideways")
    with pytest.raises(PositionError):
        rules.from_position({"board": [[2]]}, "ABCD-EFGH")
    outcome = rules.apply(state, "left")
    assert rules.undo(state, outcome.state) == state
    assert rules.announce(state, outcome) == "Made 2. Score 2."
    assert rules.read_board(outcome.state) == ["Row 1: 2"]
    assert rules.render_text(outcome.state) == "2"
    assert rules.report(state) == {} and rules.stats(state) == {} and rules.undo_depth > 0


class MinusTwo(CountRules):
    """A board with a value no front can draw: -2 is no tile, no empty cell and no stone."""

    def apply(self, state: Count, action: str) -> Outcome:
        outcome = super().apply(state, action)
        return Outcome(Count(state.code, ((-2,),), 0, 1), outcome.events)


def test_an_unknown_negative_value_stops_the_mode_in_one_line_naming_it() -> None:
    from twofold.core.plugins import PluginFault
    from twofold.testing import MemoryStore, Session

    session = Session(Mode(id="minus", title="Minus", rules=MinusTwo()), MemoryStore())
    with pytest.raises(PluginFault) as stopped:
        session.act("left")
    said = str(stopped.value)
    assert said.startswith("mode minus failed") and "-2" in said and "\n" not in said
    assert session.game.state.board == ((0,),)  # the game is left as it was


@pytest.mark.parametrize("json_mode", [True, False])
def test_the_line_modes_stop_a_mode_that_puts_an_unknown_negative_in_one_line(
    json_mode: bool,
) -> None:
    import io
    import json

    from twofold.testing import MemoryStore, Session
    from twofold.ui.lines import run_lines

    session = Session(Mode(id="minus", title="Minus", rules=MinusTwo()), MemoryStore())
    out = io.StringIO()
    status = run_lines(session, json_mode=json_mode, stdin=["left\n"], stdout=out)
    assert status == 1 and "Traceback" not in out.getvalue()
    said = out.getvalue().splitlines()[-1]
    if json_mode:
        assert json.loads(said)["error"].startswith("mode minus failed")
    assert "mode minus failed" in said and "-2" in said
