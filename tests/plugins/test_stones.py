"""Stones in the contract: the example sliding game with stones keeps the whole contract;
the one board draws a stone (never a "-1" tile); R, --plain and --json say it; records
leave it out; twofold.testing catches a stone that moves or a value that is no cell."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
import twofold_stones
from textual.pilot import Pilot
from twofold_stones.rules import StonesRules, StonesState

from tests.plugins.playing import play_in_the_app
from twofold.core import plugins
from twofold.core._rules import Outcome, tile_values
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.plugin import STONE, Mode, Moved
from twofold.testing import check_mode, check_stones
from twofold.testing.line_modes import line_session
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.board.widget import GameBoard
from twofold.ui.app.dialogs import BoardReading

CODE = code_from_text("stones")
[MODE] = twofold_stones.modes()


def stoned(rows: list[list[int]]) -> StonesState:
    return StonesRules().from_position({"board": rows}, CODE)


def test_the_stones_example_keeps_the_whole_contract() -> None:
    check_mode(MODE, app=False)


def test_a_new_game_has_three_stones_from_the_deal() -> None:
    board = StonesRules().new_game(CODE).board
    assert sum(v == STONE for row in board for v in row) == 3
    assert StonesRules().new_game(CODE).board == board


def test_a_tile_stops_at_a_stone_and_never_merges_across_it() -> None:
    state = stoned([[0, 2, STONE, 2, 0]] + [[0] * 5 for _ in range(4)])
    outcome = StonesRules().apply(state, "right")
    row = outcome.state.board[0]
    assert (row[1], row[2], row[4]) == (2, STONE, 2)
    assert not any(e.kind == "merged" for e in outcome.events)
    left = StonesRules().apply(state, "left").state.board[0]
    assert left[0] == 2 and left[2] == STONE and left[3] == 2


def test_records_and_the_tile_strip_leave_stones_out() -> None:
    game = Game.start(MODE, CODE)
    assert STONE not in tile_values(game.state.board) and STONE not in game.reached
    assert min(game.reached) > 0


def test_json_carries_a_stone_as_minus_one_and_plain_draws_it_as_a_hash() -> None:
    status, out = line_session(MODE, ["read", "quit"], json_mode=True)
    first = json.loads(out.splitlines()[0])
    stones = {(r, c) for r, row in enumerate(first["board"]) for c, v in enumerate(row) if v == -1}
    assert status == 0 and len(stones) == 3
    read = json.loads(out.splitlines()[1])
    assert "stone" in json.dumps(read)
    status, out = line_session(MODE, ["quit"], json_mode=False)
    assert status == 0 and out.count("#") >= 3 and "-1" not in out


class Rolling(StonesRules):
    """Stones that roll along with the tiles: what check_stones must catch."""

    def apply(self, state: StonesState, action: str) -> Outcome:
        outcome = super().apply(state, action)
        rows = [list(row) for row in outcome.state.board]
        for r, row in enumerate(rows):
            if STONE in row and row.index(STONE) > 0 and not row[0]:
                c = row.index(STONE)
                row[0], row[c] = STONE, 0
                events = (*outcome.events, Moved((r, c), (r, 0), STONE))
                board = tuple(tuple(x) for x in rows)
                return Outcome(replace(outcome.state, board=board), events)
        return outcome


class Crumbling(StonesRules):
    """A stone that turns into a value that is no cell at all."""

    def apply(self, state: StonesState, action: str) -> Outcome:
        outcome = super().apply(state, action)
        rows = [[-3 if v == STONE else v for v in row] for row in outcome.state.board]
        board = tuple(tuple(row) for row in rows)
        return Outcome(replace(outcome.state, board=board), outcome.events)


class Silent(StonesRules):
    """Rules that read a stone as a bare number, as a board before stones did."""

    def read_board(self, state: StonesState) -> list[str]:
        return [", ".join(map(str, row)) for row in state.board]


@pytest.mark.parametrize(
    ("rules", "words"),
    [(Rolling(), "stone"), (Crumbling(), "holds -3"), (Silent(), "does not say 'stone'")],
)
def test_the_kit_catches_a_stone_that_moves_crumbles_or_goes_unsaid(
    rules: StonesRules, words: str
) -> None:
    mode: Mode = replace(MODE, rules=rules)
    with pytest.raises(AssertionError, match=words):
        check_stones(mode)


def test_the_one_board_draws_a_stone_as_a_stone_never_as_a_tile() -> None:
    registry = plugins.load([("stones", twofold_stones)], entry_points_=[])

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board = app.screen.query_one(GameBoard)
        stones = [
            (r, c) for r, row in enumerate(board.board) for c, v in enumerate(row) if v == STONE
        ]
        geometry = board.geometry
        assert geometry is not None and len(stones) == 3
        text = "\n".join(board.render_line(y).text for y in range(board.size.height))
        assert "-1" not in text
        for cell in stones:
            x, y = geometry.origin(cell)
            line = board.render_line(y + geometry.value_line).text
            assert set(line[x : x + geometry.tile_width]) == {"░"}
        game = app.screen
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, BoardReading)  # R reads the board in a dialog
        assert "stone" in game.read_lines()[stones[0][0]]  # type: ignore[attr-defined]

    play_in_the_app(body, registry, "stones", code=CODE, seen=("stones",))
