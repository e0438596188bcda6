"""The example plugin's rules, played through twofold's own Game and Session."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from twofold_fibonacci import GOAL, modes
from twofold_fibonacci.rules import SEQUENCE, FibonacciRules, FibState, add_up

from twofold.core import plugins
from twofold.core._events import Appeared, Merged, Moved, is_known
from twofold.core._rules import PositionError, Refused
from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code
from twofold.core.game import Game
from twofold.core.session import MemoryStore, Session
from twofold.plugin import fibonacci_pairs, slide_line

CODE = code_from_text("fibonacci")
RULES = FibonacciRules(4)


class Settled(NamedTuple):
    """One line after a push, positions counted from the wall."""

    values: tuple[int, ...]
    #: (from, to, value) for every tile that moved
    shifts: tuple[tuple[int, int, int], ...]
    #: (where, first's start, second's start, made) for every sum
    sums: tuple[tuple[int, int, int, int], ...]


def settle(line: Sequence[int]) -> Settled:
    """One line pushed towards position 0 as the example pushes it: the blocks' slide_line
    with the rule fibonacci_pairs."""
    cells = [(0, i) for i in range(len(line))]
    values, events, _points = slide_line(cells, (tuple(line),), fibonacci_pairs)
    shifts = tuple((e.source[1], e.target[1], e.value) for e in events if isinstance(e, Moved))
    sums = tuple(
        (e.cell[1], e.cells[0][1], e.cells[1][1], e.value) for e in events if isinstance(e, Merged)
    )
    return Settled(tuple(values), shifts, sums)


def board(*rows: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) if v != "." else 0 for v in row.split()) for row in rows)


def test_neighbours_in_the_sequence_add_up_and_nothing_else_does() -> None:
    assert add_up(1, 1) == 2
    assert add_up(1, 2) == add_up(2, 1) == 3
    assert add_up(2, 3) == 5
    assert add_up(987, 1597) == 2584
    assert add_up(2, 2) == 0
    assert add_up(3, 3) == 0
    assert add_up(1, 3) == 0
    assert add_up(2, 5) == 0
    assert add_up(5, 0) == 0
    assert SEQUENCE[:8] == (1, 2, 3, 5, 8, 13, 21, 34)


def test_a_sum_remembers_where_its_two_tiles_started() -> None:
    assert settle((0, 2, 0, 3)).sums == ((0, 1, 3, 5),)
    assert settle((1, 1, 1, 1)).sums == ((0, 0, 1, 2), (1, 2, 3, 2))


@pytest.mark.parametrize(
    ("line", "after"),
    [
        ((1, 1, 0, 0), (2, 0, 0, 0)),
        ((1, 2, 3, 0), (3, 3, 0, 0)),  # the made 3 does not add up again
        ((2, 3, 5, 0), (5, 5, 0, 0)),
        ((1, 1, 1, 1), (2, 2, 0, 0)),
        ((1, 1, 2, 0), (2, 2, 0, 0)),
        ((2, 1, 1, 0), (3, 1, 0, 0)),  # the two nearest the wall go first
        ((3, 3, 0, 0), (3, 3, 0, 0)),  # equal tiles other than 1s never join
        ((0, 5, 0, 8), (13, 0, 0, 0)),
        ((3, 0, 5, 8), (8, 8, 0, 0)),
        ((0, 0, 0, 1), (1, 0, 0, 0)),
    ],
)
def test_a_line_settles_towards_the_wall(line: tuple[int, ...], after: tuple[int, ...]) -> None:
    assert settle(line).values == after


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from((0, 0, 1, 1, 2, 3, 5, 8)), min_size=4, max_size=6))
def test_settling_keeps_the_line_total_and_only_sums_make_tiles(line: list[int]) -> None:
    settled = settle(line)
    assert sum(settled.values) == sum(line)
    assert len(settled.values) == len(line)
    assert sum(1 for v in settled.values if v) == sum(1 for v in line if v) - len(settled.sums)
    assert (settled.values == tuple(line)) == (not settled.shifts)
    # a tile made in this push never adds up again: each cell holds at most one sum
    assert len({where for where, *_parts in settled.sums}) == len(settled.sums)


@pytest.mark.parametrize(
    ("direction", "expected"),
    [
        ("left", board("3 . . .", "2 . . .", "8 . . .", ". . . .")),
        ("right", board(". . . 3", ". . . 2", ". . . 8", ". . . .")),
        ("up", board("1 3 1 .", "5 . 3 .", ". . . .", ". . . .")),
        ("down", board(". . . .", ". . . .", "1 . 1 .", "5 3 3 .")),
    ],
)
def test_every_direction_reads_its_own_lines(
    direction: str, expected: tuple[tuple[int, ...], ...]
) -> None:
    start = FibState(CODE, board("1 2 . .", ". 1 1 .", "5 . 3 .", ". . . ."))
    outcome = RULES.apply(start, direction)
    born = [e for e in outcome.events if isinstance(e, Appeared)]
    assert len(born) == 1
    r, c = born[0].cell
    assert expected[r][c] == 0, "a birth lands on a cell the push left empty"
    got = [list(row) for row in outcome.state.board]
    got[r][c] = 0
    assert tuple(tuple(row) for row in got) == expected


def test_a_push_that_changes_nothing_is_no_move() -> None:
    start = FibState(CODE, board("3 3 . .", ". . . .", ". . . .", ". . . ."), score=4, moves=2)
    outcome = RULES.apply(start, "left")
    assert not outcome.changed
    assert outcome.state is start
    assert RULES.announce(start, outcome) == "Left: nothing moved."


def test_events_and_score_tell_what_happened() -> None:
    start = FibState(CODE, board(". 2 . 3", ". . . .", ". . . .", ". . . ."), score=10)
    outcome = RULES.apply(start, "left")
    assert [e.kind for e in outcome.events] == ["moved", "moved", "merged", "appeared"]
    assert all(is_known(e) for e in outcome.events)
    assert Moved((0, 1), (0, 0), 2) in outcome.events
    assert Moved((0, 3), (0, 0), 3) in outcome.events
    assert Merged((0, 0), 5, ((0, 1), (0, 3))) in outcome.events
    assert outcome.state.score == 15
    assert outcome.state.sums == 1
    assert outcome.state.moves == 1
    assert outcome.state.draws == start.draws + 2
    text = RULES.announce(start, outcome)
    assert text.startswith("Left: 2 and 3 made 5. Score 15. A ")
    assert "was born at row" in text
    assert outcome.events[-1].as_dict()["type"] == "appeared"


def test_game_over_only_when_nothing_can_move_or_add_up() -> None:
    stuck = FibState(CODE, board("1 3 1 3", "3 8 3 8", "1 3 1 3", "3 8 3 8"))
    assert RULES.is_over(stuck)
    one_pair = FibState(CODE, board("1 3 1 3", "3 8 3 8", "1 3 1 3", "3 8 5 8"))
    assert not RULES.is_over(one_pair)
    with_a_hole = FibState(CODE, board("1 3 1 3", "3 8 3 8", "1 3 1 3", "3 8 3 ."))
    assert not RULES.is_over(with_a_hole)


def test_the_opening_and_a_short_game_are_pinned() -> None:
    """Golden: a change to the deal or the rules here is a decision, not a slip."""
    game = Game.start(modes()[0], CODE)  # twofold play fib --code MFC0-S291
    assert CODE == "MFC0S291"
    assert game.state.board == board(". 1 2 .", ". . . .", ". . . .", ". . . .")
    for action in ("left", "up", "right", "down", "left", "up"):
        game.act(action)
    assert game.state.board == board("2 3 3 .", "1 . . .", ". . . .", "1 . . .")
    assert (game.state.score, game.state.moves, game.state.draws) == (8, 6, 16)
    daily = Game.start(modes()[1], daily_code("fib-daily", date(2026, 11, 30)))
    assert daily.code == "CRMZXQYM"
    assert daily.state.board == board(". . . .", ". . 1 .", ". 2 . .", ". . . .")


def test_same_code_same_game_and_undo_never_rerolls() -> None:
    mode = modes()[0]
    a = Game.start(mode, CODE)
    b = Game.start(mode, CODE)
    for action in ("left", "down", "right", "down", "left"):
        a.act(action)
        b.act(action)
    assert a.state == b.state
    b.act("undo")
    b.act("left")
    assert b.state == a.state


def test_parse_takes_the_usual_keys_and_refuses_the_rest() -> None:
    assert [RULES.parse(w) for w in ("h", "J", " k ", "l", "a", "s", "w", "d")] == [
        "left",
        "down",
        "up",
        "right",
        "left",
        "down",
        "up",
        "right",
    ]
    assert RULES.parse("u") == RULES.parse("z") == "undo"
    with pytest.raises(Refused, match="unknown command 'dance'"):
        RULES.parse("dance")
    with pytest.raises(Refused):
        RULES.apply(FibState(CODE, board(*[". . . ."] * 4)), "chain 0,0 0,1")


def test_positions_are_checked_in_one_line() -> None:
    ok = RULES.from_position({"board": [[1, 2, 0, 0], [0] * 4, [0] * 4, [0, 0, 0, 2584]]}, CODE)
    assert ok.largest == 2584 and RULES.report(ok)["won"]
    for bad, fragment in [
        ({"board": [[1, 2]]}, "4 rows of 4 cells"),
        ({"board": [[4, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, "not a Fibonacci number"),
        ({"board": [["1", 0, 0, 0], [0] * 4, [0] * 4, [0] * 4]}, "not a whole number"),
        ({"board": [[1, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4], "score": -1}, "score"),
    ]:
        with pytest.raises(PositionError, match=fragment) as caught:
            RULES.from_position(bad, CODE)
        assert "\n" not in str(caught.value)


def test_board_in_words_and_as_text() -> None:
    state = FibState(CODE, board("1 . . 13", ". . . .", ". . . .", ". . . ."))
    assert RULES.read_board(state)[0] == "Row 1: 1, empty, empty, 13"
    assert RULES.render_text(state).splitlines()[0] == " 1  .  . 13"


def test_modes_are_registered_with_their_own_ids(fib_registry: plugins.Registry) -> None:
    assert fib_registry.problems == []
    fib, daily = fib_registry.mode("fib"), fib_registry.mode("fib-daily")
    assert (fib.controls, daily.controls) == ("slide", "slide")
    assert fib.goal == daily.goal == GOAL
    assert daily.daily and not fib.daily
    assert fib_registry.owner("FIB") == "fibonacci"
    assert [info.modes for info in fib_registry.plugins] == [("fib", "fib-daily")]


def test_the_modes_tell_the_app_their_own_help_statistics_and_top_bar(
    fib_registry: plugins.Registry,
) -> None:
    fib = fib_registry.mode("fib")
    assert "Fibonacci" in fib.help and "2584" in fib.help
    assert "one move only" in fib_registry.mode("fib-daily").help
    assert {s.field for s in fib.statistics} == {"reached_2584", "sums", "most_sums"}
    assert [g.key for g in fib.gauges] == ["score", "best", "moves", "sums", "code"]
    state = FibState(CODE, board(*[". . . ."] * 4), sums=7)
    assert fib.status_of(state).gauges == {"sums": "7"}
    assert (fib.hint, fib.autoplayer, fib.sample, fib.judge, fib.powerups) == (
        None,
        None,
        None,
        None,
        (),
    )


def test_a_session_saves_resumes_and_records(fib_registry: plugins.Registry) -> None:
    store = MemoryStore()
    mode = fib_registry.mode("fib")
    session = Session(mode, store)
    session.new_game(CODE)  # a fixed code: the same moves change the board every run
    played = [a for a in ("left", "up", "right", "down") if session.act(a).changed]
    assert len(played) >= 2
    session.act("undo")
    again = Session(mode, store)
    assert again.game.state == session.game.state
    assert again.game.log == [*played, "undo"]
    again.new_game()
    [finished] = store.finished
    assert finished.mode_id == "fib" and finished.code == CODE
    assert finished.moves == len(played) - 1
    assert finished.stats == {"sums": session.game.state.sums}


def test_the_daily_mode_has_the_days_code_and_one_step_of_undo(
    fib_registry: plugins.Registry,
) -> None:
    daily = fib_registry.mode("fib-daily")
    day = date(2026, 11, 30)
    first = Session(daily, MemoryStore(), today=lambda: day)
    second = Session(daily, MemoryStore(), today=lambda: day)
    other = Session(daily, MemoryStore(), today=lambda: date(2026, 12, 1))
    assert first.game.code == second.game.code != other.game.code
    changed = 0
    for action in ("left", "down", "right", "up") * 3:
        changed += first.act(action).changed
        if changed == 2:
            break
    assert changed == 2
    first.act("undo")
    with pytest.raises(Refused, match="nothing to undo"):
        first.act("undo")
