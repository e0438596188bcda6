"""The three modes come through the plugin hook; Daily's budget; Blitz's clock."""

from __future__ import annotations

import pytest

from tests.chain2248.helpers import BLITZ, CLASSIC, DAILY, state_with
from twofold.core import plugins
from twofold.core._rules import Refused
from twofold.core.game import Game


def test_modes_are_registered_through_the_hook() -> None:
    registry = plugins.load()
    assert registry.problems == []
    for mode_id in ("2248", "2248-daily", "2248-blitz"):
        mode = registry.mode(mode_id)
        assert mode.controls == "chain" and mode.goal is None and mode.family == mode_id
        assert registry.owners[mode_id] == "chain2248"
    assert registry.mode("2248").title == "2248"
    assert registry.mode("2248-daily").daily
    assert registry.mode("2248-blitz").time_limit == 180.0


class FakeClock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def test_blitz_ends_when_the_clock_runs_out() -> None:
    clock = FakeClock()
    game = Game.start(BLITZ, "7K3M9QXP", clock=clock)
    game.resume()
    clock.now += 179.0
    assert not game.over and game.time_left == pytest.approx(1.0)
    clock.now += 1.0
    assert game.over
    with pytest.raises(Refused, match="time is up"):
        game.act("shuffle")


def test_blitz_pause_stops_the_clock() -> None:
    clock = FakeClock()
    game = Game.start(BLITZ, "7K3M9QXP", clock=clock)
    game.resume()
    clock.now += 100.0
    game.pause()
    clock.now += 500.0
    assert game.time_left == pytest.approx(80.0) and not game.over


def test_blitz_is_never_over_by_being_stuck() -> None:
    stuck = state_with({(7, 0): 2, (5, 0): 2}, mode=BLITZ)
    assert BLITZ.rules.stuck(stuck)
    assert not BLITZ.rules.is_over(stuck)
    assert BLITZ.rules.report(stuck)["rescues"] == ["shuffle"]


def test_daily_counts_merges_down_from_thirty() -> None:
    state = DAILY.rules.new_game("7K3M9QXP")
    assert state.merges_left == 30
    assert DAILY.rules.report(state)["merges_left"] == 30
    hint = DAILY.rules.hint(state)
    assert hint is not None
    outcome = DAILY.rules.apply(state, "chain " + " ".join(f"{r},{c}" for r, c in hint))
    assert outcome.state.merges_left == 29
    assert "Merges left: 29." in DAILY.rules.announce(state, outcome)


def test_report_and_stats() -> None:
    state = state_with({(7, 0): 2, (7, 1): 2})
    report = CLASSIC.rules.report(state)
    assert set(report) == {
        "powerups",
        "retired",
        "highest",
        "merges",
        "longest_chain",
        "stuck",
        "rescues",
    }
    assert report["stuck"] is False and report["rescues"] == []
