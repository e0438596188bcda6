from __future__ import annotations

import contextlib
import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.core.toy import TALLY, TIMED
from twofold.core._rules import Refused
from twofold.core.game import Game, ReplayError


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_actions_change_state_and_log() -> None:
    game = Game.start(TALLY, "AAAAAAAA")
    step = game.act("add")
    assert step.changed
    assert game.log == ["add"]
    assert game.state.moves == 1


def test_a_no_change_action_costs_nothing() -> None:
    game = Game.start(TALLY, "AAAAAAAA")
    step = game.act("stay")
    assert not step.changed
    assert game.log == []
    assert not game.can_undo


def test_refused_action_leaves_the_game_untouched() -> None:
    game = Game.start(TALLY, "AAAAAAAA")
    with pytest.raises(Refused):
        game.act("jump")
    assert game.log == [] and game.state.value == 0


def test_undo_never_rerolls() -> None:
    game = Game.start(TALLY, "BBBBBBBB")
    game.act("add")
    first = game.state
    game.act("add")
    second = game.state
    game.act("undo")
    assert game.state == first
    game.act("add")
    assert game.state == second


def test_undo_depth_is_the_rules_own() -> None:
    game = Game.start(TALLY, "CCCCCCCC")
    for _ in range(5):
        game.act("add") if not game.over else None
    undone = 0
    while game.can_undo:
        game.act("undo")
        undone += 1
    assert undone == 3
    with pytest.raises(Refused, match="nothing to undo"):
        game.act("undo")


@given(st.lists(st.sampled_from(["add", "undo", "stay"]), max_size=12))
def test_replay_equals_play(commands: list[str]) -> None:
    game = Game.start(TALLY, "DDDDDDDD")
    for command in commands:
        with contextlib.suppress(Refused):
            game.act(command)
    again = Game.replay(TALLY, "DDDDDDDD", game.log)
    assert again.state == game.state
    assert list(again.history) == list(game.history)


def test_replay_rejects_a_log_that_does_not_fit() -> None:
    with pytest.raises(ReplayError, match="action 1"):
        Game.replay(TALLY, "EEEEEEEE", ["fly"])
    with pytest.raises(ReplayError, match="changed nothing"):
        Game.replay(TALLY, "EEEEEEEE", ["stay"])


def test_goal_is_announced_once() -> None:
    game = Game.start(TALLY, "FFFFFFFF")
    reached = []
    while not game.over:
        reached.append(game.act("add").reached_goal)
    assert reached.count(True) == 1
    assert game.flags.won


def test_position_games_are_never_counted() -> None:
    game = Game.start(TALLY, "GGGGGGGG", position={"board": [[5]]})
    assert game.state.value == 5
    assert game.flags.uncounted


def test_clock_counts_only_while_running() -> None:
    clock = FakeClock()
    game = Game.start(TIMED, "HHHHHHHH", clock=clock)
    assert game.time_left == 10.0
    game.resume()
    clock.now += 4
    assert game.time_left == pytest.approx(6.0)
    game.pause()
    clock.now += 100
    assert game.elapsed == pytest.approx(4.0)
    game.resume()
    clock.now += 6
    assert game.time_up and game.over
    with pytest.raises(Refused, match="time is up"):
        game.act("add")


def test_a_block_of_play_that_fails_leaves_the_game_as_it_was() -> None:
    game = Game.start(TALLY, "AAAAAAAA")
    game.act("add")
    flags = dataclasses.replace(game.flags)
    before = (game.state, list(game.log), list(game.history), set(game.reached), flags)
    with pytest.raises(ZeroDivisionError), game.all_or_nothing():
        game.act("add")
        game.flags.won = True
        raise ZeroDivisionError("the rules failed after the action")
    assert (game.state, game.log, list(game.history), game.reached, game.flags) == before
    with game.all_or_nothing():
        game.act("add")
    assert game.log == ["add", "add"]
