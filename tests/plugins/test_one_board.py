"""One board draws and animates every mode: a slide, a chain and a place mode (2048, 2248
and the drop example) each play on the same widget, which draws empty cells as a grid,
animates every event of the vocabulary that moves a tile (reduced motion: drawn where
it ends), and shows what comes next beside it for any kind of controls."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import twofold_drop
from textual.pilot import Pilot
from textual.widgets import Static

from tests.plugins.playing import Body, play_in_the_app
from twofold.core import plugins
from twofold.core._events import Appeared, Earned, Event, Fell, Merged, Moved, Praised, Removed
from twofold.core._presentation import Status
from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.plugin import hookimpl
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.board import motion as board_motion
from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.board.next_tiles import Upcoming
from twofold.ui.app.board.place import PlaceBoard
from twofold.ui.app.board.slide import SlideBoard
from twofold.ui.app.board.widget import GameBoard

CODE = code_from_text("one board")
KINDS = {"2048": SlideBoard, "2248": ChainBoard, "drop": PlaceBoard}


class Offers:
    def __init__(self, *modes: Mode) -> None:
        self.modes = modes

    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        for mode in self.modes:
            register(mode)


def registry(*extra: Mode) -> plugins.Registry:
    """twofold's own modes (the suite sees no installed plugin), the drop example, ``extra``."""
    return plugins.load([("drop", twofold_drop), ("extra", Offers(*extra))])


def in_the_app(
    body: Body, mode_id: str, *, motion: bool = False, modes: tuple[Mode, ...] = ()
) -> None:
    seen = ("2048", "2248", "drop", mode_id)
    play_in_the_app(body, registry(*modes), mode_id, code=CODE, seen=seen, motion=motion)


def empty(rows: int, cols: int, **tiles: int) -> tuple[tuple[int, ...], ...]:
    """A board of ``rows`` x ``cols`` with ``tiles`` named ``r0c1=2``."""
    found = {(int(k[1]), int(k[3])): v for k, v in tiles.items()}
    return tuple(tuple(found.get((r, c), 0) for c in range(cols)) for r in range(rows))


def moves(rows: int, cols: int) -> list[tuple[str, Any, Any, tuple[Event, ...]]]:
    """Each kind of the vocabulary that moves a tile: its name, before, after, events."""
    return [
        ("moved", empty(rows, cols, r0c0=2), empty(rows, cols, r0c1=2),
         (Moved((0, 0), (0, 1), 2),)),
        ("fell", empty(rows, cols, r0c0=2), empty(rows, cols, r1c0=2),
         (Fell((0, 0), (1, 0), 2),)),
        (
            "merged",
            empty(rows, cols, r0c0=2, r0c1=2),
            empty(rows, cols, r0c1=4),
            (Merged((0, 1), 4, ((0, 0), (0, 1))),),
        ),
        (
            "removed",
            empty(rows, cols, r0c0=2),
            empty(rows, cols),
            (Removed(((0, 0),), 2, "hammer"),),
        ),
        ("appeared", empty(rows, cols), empty(rows, cols, r0c0=2), (Appeared((0, 0), 2),)),
    ]  # fmt: skip


def lines(board: GameBoard) -> list[str]:
    """What the board draws now: characters and their background colours, line by line."""
    board.refresh()
    drawn = []
    for y in range(board.size.height):
        strip = board.render_line(y)
        drawn.append("".join(f"{s.text}|{s.style.bgcolor if s.style else ''}" for s in strip))
    return drawn


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_every_kind_plays_on_the_one_board(mode_id: str) -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board = app.screen.board  # type: ignore[attr-defined]
        assert isinstance(board, GameBoard) and type(board) is KINDS[mode_id]
        assert board.id == "board"

    in_the_app(body, mode_id)


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_every_event_that_moves_a_tile_animates_on_every_board(
    mode_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board_motion, "TEMPO", 1000.0)  # long enough to look at midway

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board: GameBoard = app.screen.board  # type: ignore[attr-defined]
        now = [0.0]
        board.clock = lambda: now[0]
        for kind, before, after, events in moves(board.rows, board.cols):
            board.show(before)
            start = lines(board)
            board.play(before, after, events)
            assert board.animating, kind
            board._progress = 0.5
            midway = lines(board)
            board.finish_animation()
            end = lines(board)
            board.show(after)
            assert end == lines(board), kind  # the motion ends on the board after
            assert midway not in (start, end), kind

    in_the_app(body, mode_id, motion=True)


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_reduced_motion_draws_every_event_where_it_ends(mode_id: str) -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board: GameBoard = app.screen.board  # type: ignore[attr-defined]
        assert not board.animate_moves
        for kind, before, after, events in moves(board.rows, board.cols):
            board.show(before)
            board.play(before, after, events)
            assert not board.animating, kind
            drawn = lines(board)
            board.show(after)
            assert drawn == lines(board), kind

    in_the_app(body, mode_id, motion=False)


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_events_that_move_no_tile_are_said_not_drawn(mode_id: str) -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board: GameBoard = app.screen.board  # type: ignore[attr-defined]
        before = empty(board.rows, board.cols, r0c0=2)
        board.play(before, before, (Praised(8, "Nice chain"), Earned("hammer", 512)))
        assert not board.animating

    in_the_app(body, mode_id, motion=True)


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_empty_cells_are_drawn_as_a_grid_on_every_board(mode_id: str) -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        board: GameBoard = app.screen.board  # type: ignore[attr-defined]
        board.show(empty(board.rows, board.cols, r0c0=2))
        geometry = board.geometry
        assert geometry is not None
        cell_colour = board.get_component_rich_style("board--empty").bgcolor
        frame_colour = board.get_component_rich_style("board--frame").bgcolor
        assert cell_colour is not None and cell_colour != frame_colour
        for cell in ((board.rows - 1, board.cols - 1), (1, 1)):
            x, y = geometry.origin(cell)
            strip = board.render_line(y + geometry.value_line)
            offset, colours = 0, set()
            for segment in strip:
                if offset <= x + 1 < offset + len(segment.text) and segment.style is not None:
                    colours.add(segment.style.bgcolor)
                offset += len(segment.text)
            assert colours == {cell_colour}, cell

    in_the_app(body, mode_id)


def with_next(mode: Mode) -> Mode:
    """``mode`` under another id, with a status that says 8 and then 4 come next."""
    status = mode.status

    def next_status(state: Any) -> Status:
        shown = status(state) if status is not None else Status()
        return dataclasses.replace(shown, upcoming=(8, 4))

    return dataclasses.replace(mode, id=f"{mode.id}-next", status=next_status)


@pytest.mark.parametrize("mode_id", ["2048", "2248"])
def test_what_comes_next_is_drawn_beside_any_board_and_read_out(mode_id: str) -> None:
    mode = with_next(plugins.registry().mode(mode_id))

    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        box = screen.query_one(Upcoming)
        assert box.display and box.values == (8, 4)
        assert str(screen.query_one("#upcoming", Static).render()) == "Next: 8, then 4"
        chips = str(screen.query_one("#upcoming-tiles", Static).render())
        assert "8" in chips and "4" in chips
        board = screen.board  # type: ignore[attr-defined]
        assert box.region.x >= board.region.right  # beside the board
        assert screen.read_lines()[-1] == "Next: 8, then 4."  # type: ignore[attr-defined]

    in_the_app(body, mode.id, modes=(mode,))


@pytest.mark.parametrize("mode_id", list(KINDS))
def test_a_mode_with_nothing_next_shows_no_next_box(mode_id: str) -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        box = app.screen.query_one(Upcoming)
        assert box.display is (mode_id == "drop")

    in_the_app(body, mode_id)


def test_the_mouse_aims_a_drop_and_the_judge_previews_it() -> None:
    async def body(app: TwofoldApp, pilot: Pilot[Any]) -> None:
        screen = app.screen
        board: PlaceBoard = screen.board  # type: ignore[attr-defined]
        geometry = board.geometry
        assert geometry is not None and board.aim is None
        await pilot.hover(board, offset=geometry.centre((3, 1)))
        await pilot.pause()
        assert board.aim == (0, 1)  # a drop aims at a column
        next_block = screen.status.upcoming[0]  # type: ignore[attr-defined]
        assert board.preview == ((6, 1), str(next_block))  # it lands at the bottom
        said = str(screen.query_one("#aim-preview", Static).render())
        assert said == f"Column 2: makes {next_block}"
        assert screen.session.game.log == []  # aiming plays nothing

    in_the_app(body, "drop")
