"""Hammer, Swap, Shuffle, Undo; power-ups earned by new highest tiles; praise."""

from __future__ import annotations

import re

import pytest

from tests.chain2248.helpers import BLITZ, CLASSIC, DAILY, chain_text, state_with
from twofold.core._rules import Refused
from twofold.core.game import Game
from twofold.variants.chain2248.board import ROWS
from twofold.variants.chain2248.words import praise_for


def test_hammer_removes_one_tile_and_one_drops_in() -> None:
    state = state_with({(7, 0): 2, (5, 0): 4})
    outcome = CLASSIC.rules.apply(state, "hammer 6,0")
    before = [state.board[r][0] for r in range(ROWS)]
    after = [outcome.state.board[r][0] for r in range(ROWS)]
    assert after[1:] == [*before[:6], before[7]]
    assert [e.cell for e in outcome.events if e.kind == "appeared"] == [(0, 0)]
    assert outcome.state.held("hammer") == 0 and outcome.state.moves == 1
    assert outcome.state.draws == state.draws + 1
    with pytest.raises(Refused, match="no Hammer left"):
        CLASSIC.rules.apply(outcome.state, "hammer 0,0")


def test_swap_exchanges_touching_tiles_diagonals_included() -> None:
    state = state_with({(7, 0): 2, (6, 1): 4})
    outcome = CLASSIC.rules.apply(state, "swap 7,0 6,1")
    assert outcome.state.board[7][0] == 4 and outcome.state.board[6][1] == 2
    assert outcome.state.held("swap") == 0
    assert outcome.state.draws == state.draws
    with pytest.raises(Refused, match=re.escape("cells (7,0) and (5,0) do not touch")):
        CLASSIC.rules.apply(state, "swap 7,0 5,0")
    same = state_with({(7, 0): 2, (7, 1): 2})
    with pytest.raises(Refused, match="equal"):
        CLASSIC.rules.apply(same, "swap 7,0 7,1")


def test_undo_gives_a_power_up_back_and_costs_one_undo() -> None:
    state = state_with({(7, 0): 2, (6, 1): 4})
    game = Game.start(CLASSIC, state.code, position={"board": [list(r) for r in state.board]})
    game.act("swap 7,0 6,1")
    assert game.state.held("swap") == 0
    game.act("undo")
    assert game.state.board == state.board
    assert game.state.held("swap") == 1 and game.state.held("undo") == 0
    game.act("swap 7,0 6,1")
    with pytest.raises(Refused, match="no Undo left"):
        game.act("undo")


def test_undo_is_one_step_only() -> None:
    game = Game.start(CLASSIC, "7K3M9QXP", position={"powerups": {"undo": 5}, **_open()})
    game.act("hammer 0,0")
    game.act("shuffle")
    game.act("undo")
    with pytest.raises(Refused, match="nothing to undo"):
        game.act("undo")


def _open() -> dict:
    return {"board": [list(r) for r in CLASSIC.rules.new_game("7K3M9QXP").board]}


@pytest.mark.parametrize(
    ("made", "earned"),
    [(512, ["hammer"]), (1024, ["swap"]), (2048, ["shuffle"]), (4096, ["undo"])],
)
def test_new_highest_tiles_grant_power_ups_in_turn(made: int, earned: list[str]) -> None:
    half = made // 2
    state = state_with({(7, 0): half, (7, 1): half}, low=True)
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    got = [(e.powerup, e.tile) for e in outcome.events if e.kind == "earned"]
    assert got == [(name, made) for name in earned]
    assert outcome.state.held(earned[0]) == state.held(earned[0]) + 1


def test_a_jump_earns_one_power_up_per_new_highest_tile() -> None:
    state = state_with({(7, 0): 256, (7, 1): 256, (7, 2): 256, (7, 3): 256}, low=True)
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1 7,2 7,3")
    got = [(e.powerup, e.tile) for e in outcome.events if e.kind == "earned"]
    assert got == [("hammer", 512), ("swap", 1024)]


def test_power_ups_stop_at_nine() -> None:
    state = state_with({(7, 0): 256, (7, 1): 256}, low=True, powerups={"hammer": 9})
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    assert outcome.state.held("hammer") == 9
    assert not [e for e in outcome.events if e.kind == "earned"]


def test_a_tile_already_reached_earns_nothing() -> None:
    state = state_with({(7, 0): 256, (7, 1): 256, (0, 0): 512}, low=True)
    outcome = CLASSIC.rules.apply(state, "chain 7,0 7,1")
    assert not [e for e in outcome.events if e.kind == "earned"]


def test_daily_and_blitz_earn_nothing() -> None:
    for mode in (DAILY, BLITZ):
        state = state_with({(7, 0): 256, (7, 1): 256}, mode=mode, low=True)
        outcome = mode.rules.apply(state, "chain 7,0 7,1")
        assert not [e for e in outcome.events if e.kind == "earned"]


def test_modes_start_with_their_power_ups() -> None:
    assert CLASSIC.rules.new_game("7K3M9QXP").powerups == {
        "hammer": 1,
        "swap": 1,
        "shuffle": 1,
        "undo": 1,
    }
    assert DAILY.rules.new_game("7K3M9QXP").powerups == {
        "hammer": 1,
        "swap": 1,
        "shuffle": 0,
        "undo": 0,
    }
    assert set(BLITZ.rules.new_game("7K3M9QXP").powerups.values()) == {0}


@pytest.mark.parametrize(
    ("length", "words"),
    [
        (5, ""),
        (6, "Nice chain"),
        (9, "Super chain"),
        (12, "Incredible chain"),
        (13, "Monster chain"),
        (30, "Monster chain"),
    ],
)
def test_praise_by_length(length: int, words: str) -> None:
    assert praise_for(length) == words


def test_long_chain_is_praised() -> None:
    cells = [(7, c) for c in range(5)] + [(6, 4)]
    state = state_with(dict.fromkeys(cells, 2))
    outcome = CLASSIC.rules.apply(state, chain_text(cells))
    assert [(e.length, e.word) for e in outcome.events if e.kind == "praised"] == [
        (6, "Nice chain")
    ]
    assert "Nice chain!" in CLASSIC.rules.announce(state, outcome)
