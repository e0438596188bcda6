"""One table of power-ups: a power-up added by its row alone is parsed, applied, offered,
counted, carried and told; the grant order and the checkpoints written before stay."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from tests.chain2248.helpers import CLASSIC, state_with
from twofold.core._events import Appeared, Event, Used
from twofold.core._rules import Outcome, Refused
from twofold.variants.chain2248.board import NEIGHBOURS, Cell, board_of, grid_of
from twofold.variants.chain2248.codec import ChainCodec
from twofold.variants.chain2248.guide import tile_chart
from twofold.variants.chain2248.modes import modes
from twofold.variants.chain2248.powerups import POWERUPS, PowerUpKind, Settings, spend
from twofold.variants.chain2248.state import ChainState


def _double(rules: Settings, state: ChainState, cells: Sequence[Cell]) -> Outcome:
    (r, c) = cells[0]
    spent = spend(state, "double")
    grid = grid_of(state.board)
    grid[r][c] *= 2
    new = replace(state, board=board_of(grid), moves=state.moves + 1, powerups=spent)
    return Outcome(new, (Used("double", ((r, c),)),))


def _double_opens(rules: Settings, state: ChainState) -> bool:
    board = state.board
    return state.held("double") > 0 and any(
        board[n[0]][n[1]] == 2 * board[r][c] for (r, c), near in NEIGHBOURS.items() for n in near
    )


def _double_told(event: Used, after: Sequence[Event], spawned: Sequence[Appeared]) -> str:
    return f"Doubled the tile at {event.cells[0]}."


DOUBLE = PowerUpKind(
    "double",
    "Double",
    "4",
    "tile",
    "Double one tile",
    "double takes one cell: double ROW,COL",
    _double,
    _double_opens,
    _double_told,
)


@pytest.fixture
def with_double(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(POWERUPS, "double", DOUBLE)


def test_the_table_holds_every_power_up_of_2248() -> None:
    assert list(POWERUPS) == ["hammer", "swap", "shuffle", "undo"]
    assert [p.id for p in CLASSIC.powerups] == list(POWERUPS)
    assert [(k.key, k.cells) for k in POWERUPS.values()] == [("1", 1), ("2", 2), ("3", 0), ("u", 0)]


@pytest.mark.usefixtures("with_double")
def test_a_power_up_added_to_the_table_is_offered_parsed_applied_and_told() -> None:
    [classic] = [m for m in modes() if m.id == "2248"]
    offered = {p.id: p for p in classic.powerups}
    assert (offered["double"].key, offered["double"].target) == ("4", "tile")
    rules = classic.rules
    assert rules.parse("Double (7,0)") == "double 7,0"
    with pytest.raises(Refused, match="double takes one cell"):
        rules.parse("double")
    state = state_with({(7, 0): 2}, classic, powerups={"double": 1})
    assert state.held("double") == 1 and rules.new_game("7K3M9QXP").held("double") == 0
    outcome = rules.apply(state, "double 7,0")
    assert outcome.state.board[7][0] == 4 and outcome.state.held("double") == 0
    assert "Doubled the tile at (7, 0)." in rules.announce(state, outcome)
    assert rules.report(outcome.state)["powerups"]["double"] == 0
    with pytest.raises(Refused, match="no Double left"):
        rules.apply(outcome.state, "double 7,0")


@pytest.mark.usefixtures("with_double")
def test_an_added_power_up_is_a_rescue_by_its_own_check() -> None:
    # a stuck board where a 2 touches a 4: doubling the 2 opens a chain
    stuck = state_with({(7, 0): 2, (7, 1): 4}, CLASSIC, powerups={"double": 1})
    assert CLASSIC.rules.stuck(stuck)
    assert "double" in CLASSIC.rules.rescues(stuck)
    assert "double" not in CLASSIC.rules.rescues(replace(stuck, powerups={}))


def test_adding_a_power_up_changes_no_grant(monkeypatch: pytest.MonkeyPatch) -> None:
    before = tile_chart()
    monkeypatch.setitem(POWERUPS, "double", DOUBLE)
    assert tile_chart() == before
    assert {grant for _tile, _retires, grant in before} == {"hammer", "swap", "shuffle", "undo"}


def test_a_checkpoint_written_before_a_new_power_up_still_decodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    codec = ChainCodec()
    state = CLASSIC.rules.new_game("7K3M9QXP")
    written = codec.encode(state)
    monkeypatch.setitem(POWERUPS, "double", DOUBLE)
    read = codec.decode(written)
    assert read.held("double") == 0 and read.powerups["hammer"] == 1
    assert read.board == state.board and read.draws == state.draws


def test_a_checkpoint_with_its_counts_beside_the_others_still_decodes() -> None:
    codec = ChainCodec()
    state = CLASSIC.rules.new_game("7K3M9QXP")
    written = codec.encode(state)
    held = written.pop("powerups")
    old = {**written, **held}  # as checkpoints were written before the power-up table
    assert codec.decode(old) == state


def test_a_checkpoint_holding_an_unknown_power_up_is_refused() -> None:
    written = ChainCodec().encode(CLASSIC.rules.new_game("7K3M9QXP"))
    written["powerups"] = {**written["powerups"], "bomb": 1}
    with pytest.raises(ValueError, match="power-ups"):
        ChainCodec().decode(written)


@pytest.mark.usefixtures("with_double")
def test_a_position_names_the_power_ups_of_the_table() -> None:
    with pytest.raises(Exception, match="hammer, swap, shuffle, undo, double"):
        state_with({}, CLASSIC, powerups={"bomb": 1})
