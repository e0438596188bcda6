"""The 2248 autoplayer: legal moves only, the same moves for the same code, and it stops."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tests.chain2248.helpers import CLASSIC, DAILY, state_with
from twofold.core.autoplay import play_out
from twofold.ui.command.cli import main
from twofold.variants.chain2248.autoplay import ENDLESS_MERGES, ChainAutoplayer
from twofold.variants.chain2248.hint import best_chain
from twofold.variants.chain2248.state import ChainState

CODE = "J6E9AHV3"


def played(mode_rules: object, state: ChainState, moves: int, depth: int = 1) -> list[str]:
    """The autoplayer's first actions from ``state``; each must be legal (apply raises)."""
    rules = DAILY.rules if mode_rules is None else mode_rules
    player = ChainAutoplayer(rules, depth)  # type: ignore[arg-type]
    actions = []
    for _ in range(moves):
        action = player.choose(state)
        if action is None:
            break
        assert rules.parse(action) == action  # type: ignore[attr-defined]
        outcome = rules.apply(state, action)  # type: ignore[attr-defined]
        assert outcome.changed
        actions.append(action)
        state = outcome.state
    return actions


def test_the_autoplayer_makes_legal_moves_and_the_same_ones_for_a_code() -> None:
    first = played(DAILY.rules, DAILY.rules.new_game(CODE), 6)
    again = played(DAILY.rules, DAILY.rules.new_game(CODE), 6)
    assert len(first) == 6 and first == again
    assert played(CLASSIC.rules, CLASSIC.rules.new_game(CODE), 3)


def test_near_the_end_of_a_daily_it_may_spend_its_power_ups_legally() -> None:
    state = replace(DAILY.rules.new_game(CODE), merges_left=2, powerups={"hammer": 1, "swap": 1})
    actions = played(DAILY.rules, state, 5)
    assert [a.split()[0] for a in actions].count("chain") == 2
    assert all(a.split()[0] in ("chain", "swap", "hammer") for a in actions)


def test_on_a_stuck_board_it_uses_a_rescue_that_opens_a_chain() -> None:
    stuck = replace(state_with({}, CLASSIC), powerups={"swap": 1})
    assert best_chain(stuck.board) is None
    action = ChainAutoplayer(CLASSIC.rules).choose(stuck)  # type: ignore[arg-type]
    assert CLASSIC.rules.rescues(stuck) == ["swap"]  # type: ignore[attr-defined]
    assert action is not None and action.startswith("swap ")
    after = CLASSIC.rules.apply(stuck, action).state
    assert best_chain(after.board) is not None
    assert ChainAutoplayer(CLASSIC.rules).choose(replace(stuck, powerups={})) is None  # type: ignore[arg-type]


def test_it_stops_when_the_daily_budget_is_spent_and_after_many_endless_merges() -> None:
    spent = replace(DAILY.rules.new_game(CODE), merges_left=0)
    assert ChainAutoplayer(DAILY.rules).choose(spent) is None  # type: ignore[arg-type]
    long = replace(CLASSIC.rules.new_game(CODE), merges=ENDLESS_MERGES)
    assert ChainAutoplayer(CLASSIC.rules).choose(long) is None  # type: ignore[arg-type]


@pytest.mark.slow
def test_a_whole_daily_through_the_contract() -> None:
    assert DAILY.autoplayer is not None and CLASSIC.autoplayer is not None
    with pytest.raises(ValueError):
        DAILY.autoplayer(0)
    game = play_out(DAILY, CODE, DAILY.autoplayer(1))
    assert game.stats["merges"] == 30 and game.stats["longest_chain"] >= 2
    again = play_out(DAILY, CODE, DAILY.autoplayer(1))
    assert again.result() == game.result()


def test_twofold_solve_2248_reports_longest_chain_and_merges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["solve", "2248", "--games", "1", "--depth", "1", "--stop-at", "512"]
    assert main([*argv, "--code", CODE, "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["mode"] == "2248" and data["reached"] == {}
    assert data["results"][0]["largest"] >= 512
    assert set(data["stats"]) == {"longest_chain", "merges"}
    assert main([*argv, "--code", CODE, "--workers", "1"]) == 0
    out = capsys.readouterr().out.lower()  # the mode's own statistic labels
    assert "longest chain" in out and "merges" in out
