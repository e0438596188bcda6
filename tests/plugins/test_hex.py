"""Hex, the board-shape example: 2048 on a hexagon of 19 cells in six directions, played
everywhere a rectangle is: the kit, the rules, --plain, --json, a proof, the learning
environment, and the app (six keys, the swipe, a board drawn as a hexagon)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import twofold_hex
from hypothesis import given
from hypothesis import strategies as st
from rich.color import Color
from textual.pilot import Pilot
from textual.strip import Strip
from twofold_hex.rules import HEX, LINES, HexRules, HexState

from tests.guide import GUIDE
from tests.plugins.playing import play_in_the_app
from twofold.core import plugins
from twofold.core.codes import code_from_text, parse_code
from twofold.core.game import Game
from twofold.core.result import result_text
from twofold.core.verify import verify
from twofold.plugin import HEX_DIRECTIONS, NO_CELL, PositionError, slide
from twofold.testing import check_layout, check_mode
from twofold.testing.line_modes import line_session
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.board.slide import SlideBoard, swipe_direction

CODE = code_from_text("hex")
HEX_MODE, DAILY = twofold_hex.modes()
RULES = HexRules()
RULES_FILE = twofold_hex.rules.__file__


def backgrounds(strip: Strip) -> list[Color | None]:
    """The background colour of each column of a line of the board."""
    return [s.style.bgcolor if s.style else None for s in strip for _c in s.text]


def position(tiles: dict[tuple[int, int], int]) -> HexState:
    rows = [list(row) for row in HEX.blank()]
    for (r, c), value in tiles.items():
        rows[r][c] = value
    return RULES.from_position({"board": rows}, CODE)


def test_hex_keeps_the_whole_contract_and_its_rules_are_short() -> None:
    check_mode(HEX_MODE, app=False)
    check_layout(DAILY)
    with open(RULES_FILE, encoding="utf-8") as rules:
        assert len(rules.read().splitlines()) <= 150


def test_a_hex_board_is_19_cells_in_rows_of_3_4_5_4_3() -> None:
    board = RULES.new_game(CODE).board
    cells = [[v for v in row if v != NO_CELL] for row in board]
    assert [len(row) for row in cells] == [3, 4, 5, 4, 3]
    assert sum(v > 0 for row in cells for v in row) == 2


@pytest.mark.parametrize(
    ("direction", "wall"),
    [("nw", (0, 2)), ("ne", (0, 4)), ("w", (2, 0)), ("e", (2, 4)), ("sw", (4, 0)), ("se", (4, 2))],
)
def test_each_of_the_six_directions_slides_a_tile_to_its_side(
    direction: str, wall: tuple[int, int]
) -> None:
    outcome = RULES.apply(position({(2, 2): 8}), direction)
    moved = outcome.events[0]
    assert moved.kind == "moved" and (moved.source, moved.target) == ((2, 2), wall)
    assert outcome.state.board[wall[0]][wall[1]] == 8


def test_two_equal_tiles_merge_along_a_diagonal_and_no_cell_is_ever_filled() -> None:
    outcome = RULES.apply(position({(2, 2): 4, (3, 1): 4}), "sw")
    assert outcome.state.board[4][0] == 8 and outcome.state.score == 8
    for r, c in HEX.holes:
        assert outcome.state.board[r][c] == NO_CELL


def test_a_position_with_a_tile_where_there_is_no_cell_is_refused() -> None:
    rows = [list(row) for row in HEX.blank()]
    rows[0][0] = 2
    with pytest.raises(PositionError, match="-2 where the hexagon has no cell"):
        RULES.from_position({"board": rows}, CODE)


values = st.sampled_from([0, 0, 0, 2, 4, 8, 16])


@given(st.lists(values, min_size=19, max_size=19), st.sampled_from(sorted(LINES)))
def test_a_push_keeps_the_tiles_sum_and_every_no_cell(tiles: list[int], direction: str) -> None:
    board = position(dict(zip(HEX.cells, tiles, strict=True))).board
    after, _events, points = slide(board, LINES[direction])
    total = sum(v for row in board for v in row if v > 0)
    assert sum(v for row in after for v in row if v > 0) == total
    assert all(after[r][c] == NO_CELL for r, c in HEX.holes)
    assert slide(after, LINES[direction])[0] == after or points >= 0


def test_plain_draws_a_hexagon_and_reads_only_cells() -> None:
    status, out = line_session(HEX_MODE, ["read", "quit"], json_mode=False)
    lines = out.splitlines()
    picture = next(i for i, line in enumerate(lines) if line.strip().startswith((".", "2", "4")))
    rows = lines[picture : picture + 5]
    assert [len(row.split()) for row in rows] == [3, 4, 5, 4, 3]
    # offset rows: each row of the top half starts half a cell left of the one above
    indents = [len(row) - len(row.lstrip()) for row in rows]
    assert indents == [2, 1, 0, 1, 2]
    said = [line for line in lines if line.startswith("Row ")]
    assert [len(line.split(": ")[1].split(", ")) for line in said] == [3, 4, 5, 4, 3]
    assert status == 0 and "-2" not in out


def test_json_gives_the_layout_first_and_minus_two_where_there_is_no_cell() -> None:
    status, out = line_session(HEX_MODE, ["ne", "quit"], json_mode=True)
    first, moved = (json.loads(line) for line in out.splitlines()[:2])
    assert status == 0 and first["layout"]["shape"] == "hexagon"
    assert len(first["layout"]["cells"]) == 19 and first["layout"]["positions"][3] == [0.5, 1]
    assert {(r, c) for r, c in first["layout"]["cells"]} == set(HEX.cells)
    assert all(first["board"][r][c] == -2 for r, c in HEX.holes)
    assert [c["word"] for c in first["commands"][:6]] == ["nw", "ne", "w", "e", "sw", "se"]
    assert "layout" not in moved


def test_a_hex_game_verifies_and_its_daily_is_the_days() -> None:
    game = Game.start(HEX_MODE, CODE)
    for action in ["ne", "sw", "w", "e", "nw", "se"] * 4:
        game.act(action)
    modes = {HEX_MODE.id: HEX_MODE, DAILY.id: DAILY}
    verified = verify(result_text(game), modes.get)
    assert (verified.score, verified.moves) == (game.state.score, game.state.moves)


def test_the_learning_environment_observes_no_cell_as_255_and_takes_six_directions() -> None:
    from twofold.rl.env import TwofoldEnv
    from twofold.rl.observation import OneHot

    env = TwofoldEnv(HEX_MODE)
    observation, _info = env.reset(seed=3)
    assert env.action_space.n == 6
    assert [env.table.name(a) for a in range(6)] == [d.name for d in HEX_DIRECTIONS]
    assert all(observation[r, c] == 255 for r, c in HEX.holes)
    assert all(observation[r, c] < 255 for r, c in HEX.cells)
    planes, _info = OneHot(TwofoldEnv(HEX_MODE)).reset(seed=3)
    assert all(planes[r, c].sum() == 0 for r, c in HEX.holes)
    assert all(planes[r, c].sum() == 1 for r, c in HEX.cells)


@pytest.mark.parametrize(
    ("dx", "dy", "name"),
    [(6, -3, "ne"), (-6, -3, "nw"), (6, 3, "se"), (-6, 3, "sw"), (9, 0, "e"), (-9, 0, "w")],
)
def test_a_swipe_on_the_hexagon_goes_to_the_nearest_of_six(dx: int, dy: int, name: str) -> None:
    assert swipe_direction(dx, dy, HEX_DIRECTIONS) == name


def test_the_app_plays_six_keys_and_draws_a_hexagon_that_no_click_misses() -> None:
    registry = plugins.load([("hex", twofold_hex)], entry_points_=[])

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board = app.screen.query_one(SlideBoard)
        geometry = board.geometry
        assert geometry is not None
        # offset rows: row 1's first cell sits half a tile left of row 0's, row 2's a whole one
        x0, _y = geometry.origin((0, 2))
        x1, _y = geometry.origin((1, 1))
        x2, y2 = geometry.origin((2, 0))
        assert x0 - x1 == x1 - x2 and abs(2 * (x0 - x1) - geometry.pitch) <= 1
        # a place that is no cell is never drawn, not even as frame, nor hit by a click
        frame = board.get_component_rich_style("board--frame").bgcolor
        empty = board.get_component_rich_style("board--empty").bgcolor
        _x, y0 = geometry.origin((0, 2))
        drawn = [bg for bg in backgrounds(board.render_line(y0)) if bg in (frame, empty)]
        assert drawn and backgrounds(board.render_line(y0))[x2 + 1] not in (frame, empty)
        assert backgrounds(board.render_line(y2))[x2 + 1] == empty
        for cell in HEX.cells:
            assert geometry.cell_at(*geometry.centre(cell)) == cell
        assert geometry.cell_at(x2, y2 - 2 * (geometry.tile_height + geometry.gap_y)) is None
        game = app.screen.session.game  # type: ignore[attr-defined]
        played = set()
        for _round in range(3):
            for direction in HEX_DIRECTIONS:
                moves = bool(RULES.apply(game.state, direction.name).events)
                await pilot.press(direction.keys[0])
                await pilot.pause()
                if moves:
                    assert game.log[-1] == direction.name, direction.keys[0]
                    played.add(direction.name)
        assert played == {d.name for d in HEX_DIRECTIONS}

    play_in_the_app(body, registry, "hex", code=CODE, seen=("hex",))


def test_the_tutorial_builds_a_hexagon_plugin_that_keeps_the_contract(tmp_path: Path) -> None:
    page = (GUIDE / "tutorial" / "hex.md").read_text(encoding="utf-8")
    steps = re.findall(r"<!-- hex step -->\s*```python\n(.*?)```", page, re.DOTALL)
    assert len(steps) == 5
    folder = tmp_path / "twofold_hexa"
    folder.mkdir()
    (folder / "__init__.py").write_text("\n".join(steps), encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        import twofold_hexa  # type: ignore[import-not-found]

        registry = plugins.load([("hexa", twofold_hexa)], entry_points_=[])
        try:
            mode = registry.mode("hexa")
            check_mode(mode, app=False)
            picture = mode.rules.render_text(mode.rules.new_game(parse_code("CDFF-6SNT")))
            assert picture in page
        finally:
            registry.manager.unregister(name="hexa")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("twofold_hexa", None)
