"""Board shapes in the contract: a layout's cells and positions, NO_CELL where there is no
cell (not a stone, never said, never hit), the session refusing a board that disagrees
with its layout in one line, and every rectangle mode as it was."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from twofold.core._events import Appeared
from twofold.core._layout import check_board
from twofold.core.codes import code_from_text
from twofold.core.plugins import PluginFault
from twofold.core.session import Session
from twofold.plugin import (
    HEX_STEPS,
    NO_CELL,
    STONE,
    Layout,
    Mode,
    Outcome,
    RulesBase,
    lines_toward,
    rectangle,
)
from twofold.testing import MemoryStore, check_layout
from twofold.ui.app.board.canvas import fit_geometry

CODE = code_from_text("layout")
HEX = Layout.hexagon(2)


def test_a_hexagon_of_radius_2_is_19_cells_in_offset_rows() -> None:
    assert len(HEX.cells) == 19 and (HEX.rows, HEX.cols) == (5, 5)
    assert HEX.holes == ((0, 0), (0, 1), (1, 0), (3, 4), (4, 3), (4, 4))
    assert [HEX.position(cell) for cell in [(0, 2), (1, 1), (2, 0), (4, 2)]] == [
        (1.0, 0.0),
        (0.5, 1.0),
        (0.0, 2.0),
        (3.0, 4.0),
    ]
    assert HEX.blank()[0] == (NO_CELL, NO_CELL, 0, 0, 0) and NO_CELL != STONE
    assert len(Layout.hexagon(3).cells) == 37 and len(Layout.hexagon(0).cells) == 1


def test_every_hex_step_gives_lines_of_3_4_5_4_3_cells() -> None:
    for step in HEX_STEPS.values():
        lines = lines_toward(HEX.cells, step)
        assert sorted(map(len, lines)) == [3, 3, 4, 4, 5]
        assert all(cell in HEX for line in lines for cell in line)


def test_a_hexagon_is_drawn_as_text_in_offset_rows_and_a_rectangle_as_before() -> None:
    marks = {cell: "." for cell in HEX.cells} | {(2, 2): "16"}
    lines = HEX.draw(marks).splitlines()
    assert [len(line.split()) for line in lines] == [3, 4, 5, 4, 3]
    assert [len(line) - len(line.lstrip()) for line in lines] == [5, 3, 1, 3, 5]
    square = Layout.rectangle(2, 3)
    assert square.draw(dict(zip(square.cells, ["2", "4", "8", "16", "32", "64"], strict=True))) == (
        " 2  4  8\n16 32 64"
    )


def test_any_set_of_cells_with_positions_is_a_layout() -> None:
    ring = Layout.at({(0, 0): (0, 0), (0, 2): (2, 0), (1, 1): (1, 0.5)})
    assert ring.cells == ((0, 0), (0, 2), (1, 1)) and ring.holes == ((0, 1), (1, 0), (1, 2))
    assert (ring.rows, ring.cols, ring.width, ring.height) == (2, 3, 3.0, 1.5)
    assert ring.as_dict() == {
        "shape": "cells",
        "cells": [[0, 0], [0, 2], [1, 1]],
        "positions": [[0, 0], [2, 0], [1, 0.5]],
    }
    with pytest.raises(ValueError, match="twice"):
        Layout(((0, 0), (0, 0)), ((0, 0), (1, 0)))


def test_a_hexagon_s_board_hits_only_its_cells() -> None:
    geometry = fit_geometry(5, 5, 100, 30, layout=HEX)
    assert geometry is not None
    for cell in HEX.cells:
        assert geometry.cell_at(*geometry.centre(cell)) == cell
    # where a rectangle's corner cell would be, there is nothing to hit
    square = fit_geometry(5, 5, 100, 30)
    assert square is not None and geometry.cell_at(*square.centre((0, 0))) is None
    assert geometry.cell_at(*square.centre((4, 4))) is None


@dataclass(frozen=True)
class Tiny:
    code: str
    board: tuple[tuple[int, ...], ...]
    score: int = 0
    moves: int = 0


class Shaped(RulesBase):
    """A one-row board of three places whose middle one is no cell."""

    layout = Layout.at({(0, 0): (0, 0), (0, 2): (2, 0)})
    spill = False

    def new_game(self, code: str) -> Tiny:
        return Tiny(code, ((2, NO_CELL, 0),))

    def apply(self, state: Tiny, action: str) -> Outcome:
        board = ((0, 2 if self.spill else NO_CELL, 2),)
        return Outcome(Tiny(state.code, board, moves=1), (Appeared((0, 2), 2),))

    def is_over(self, state: Tiny) -> bool:
        return state.moves > 0


class Spilling(Shaped):
    spill = True


def shaped(rules: Shaped) -> Mode:
    return Mode(id="shaped", title="Shaped", rules=rules, layout=rules.layout)


def test_read_aloud_and_plain_leave_a_no_cell_out() -> None:
    state = Shaped().new_game(CODE)
    assert Shaped().read_board(state) == ["Row 1: 2, empty"]
    assert Shaped().render_text(state) == "2   ."
    check_layout(shaped(Shaped()))


def test_a_board_that_fills_a_no_cell_stops_the_mode_in_one_line() -> None:
    session = Session(shaped(Spilling()), MemoryStore())
    session.new_game(CODE)
    with pytest.raises(PluginFault) as fault:
        session.act("right")
    said = str(fault.value)
    assert "shaped" in said and "no cell of its layout" in said and "\n" not in said
    with pytest.raises(AssertionError, match="no cell of its layout"):
        check_layout(shaped(Spilling()))


def test_a_board_of_another_size_than_its_layout_is_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match=r"^the board is 1x2; its layout spans 5x5$"):
        check_board(((0, 0),), HEX)
    with pytest.raises(ValueError, match=r"^the board is 0x0; its layout spans 5x5$"):
        check_board((), HEX)


def test_a_rectangle_mode_declares_nothing_and_refuses_minus_two_as_ever() -> None:
    mode = Mode(id="plain", title="Plain", rules=Shaped())
    assert mode.layout is None
    assert mode.layout_of(((0, 0), (0, 0))) == Layout.rectangle(2, 2)
    assert Layout.rectangle(2, 2).cells == rectangle(2, 2)
    with pytest.raises(PluginFault, match="holds -2 at 0,1"):
        Session(mode, MemoryStore()).new_game(CODE)
