"""The board widget on its own: geometry, swipes, tile styles and the frames of a move."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from twofold.ui.app.board import motion as board_motion
from twofold.ui.app.board.canvas import fit_geometry, smallest_size
from twofold.ui.app.board.motion import plan
from twofold.ui.app.board.slide import SlideBoard, swipe_direction
from twofold.ui.app.widgets.tiles import TILE_COLOURS, tile_colours, tile_label, tile_style
from twofold.variants.classic2048.rules import ClassicRules, SlideState


@pytest.mark.parametrize(
    ("dx", "dy", "direction"),
    [
        (0, 0, None),
        (2, 1, None),  # too short both ways
        (3, 0, "right"),
        (-3, 1, "left"),
        (0, 2, "down"),
        (1, -2, "up"),
        (4, 2, "right"),  # 4 columns weigh 2 rows: a tie goes to the columns
        (3, 2, "down"),  # 3 columns weigh 1.5 rows
    ],
)
def test_swipe_direction(dx: int, dy: int, direction: str | None):
    assert swipe_direction(dx, dy) == direction


@pytest.mark.parametrize(("size", "width", "height"), [(4, 80, 20), (5, 80, 20), (6, 80, 19)])
def test_every_size_has_two_row_tiles_at_80x24(size: int, width: int, height: int):
    geometry = fit_geometry(size, size, width, height)
    assert geometry is not None
    assert geometry.tile_height >= 2 and geometry.tile_width >= 6
    assert geometry.width <= width and geometry.height <= height


def test_geometry_grows_with_the_terminal_and_finds_cells():
    small = fit_geometry(4, 4, 80, 20)
    big = fit_geometry(4, 4, 120, 36)
    assert small is not None and big is not None
    assert big.tile_height > small.tile_height
    x, y = big.corner(2, 3)
    assert big.cell_at(big.left + int(x), big.top + int(y)) == (2, 3)
    assert big.cell_at(big.left, big.top) is None  # the frame
    assert fit_geometry(6, 6, *[n - 1 for n in smallest_size(6, 6)]) is None


def test_labels_fit_their_tiles():
    assert tile_label(2048, 6) == "2048"
    assert tile_label(131072, 6) == "131072"
    assert tile_label(131072, 5) == "128K"
    assert tile_label(1 << 20, 6) == "1M"
    assert tile_label(3 << 20, 2) == "3M" and tile_label(1 << 30, 4) == "2^30"


def test_every_value_gets_a_readable_style():
    for value in TILE_COLOURS:
        background, foreground = tile_colours(value)
        assert background != foreground
    beyond = [tile_colours(1 << e) for e in range(18, 30)]
    assert all(bg and fg for bg, fg in beyond)
    assert tile_style(1 << 40).bgcolor is not None


def test_a_move_glides_then_grows_its_new_tile():
    rules = ClassicRules(4)
    before = rules.from_position({"board": [[2, 2, 0, 4], [0] * 4, [0] * 4, [0] * 4]}, "0" * 8)
    outcome = rules.apply(before, "left")
    motion = plan(before.board, outcome.state.board, outcome.events)
    assert motion is not None
    travel = motion.phases[0]
    assert travel.kind == "travel" and not travel.falls
    paths = {(source, target) for _value, source, target in travel.glides}
    assert ((0, 1), (0, 0)) in paths and ((0, 3), (0, 1)) in paths
    spawned = frozenset(e.cell for e in outcome.events if e.kind == "appeared")
    assert motion.phases[-1].kind == "arrive" and motion.phases[-1].grow == spawned
    # a tenth of a second to slide, a tenth to grow in (the merge shows at once)
    assert motion.seconds == pytest.approx(0.2)


def test_no_events_means_no_animation():
    assert plan(((2, 0),), ((2, 0),), []) is None


class BoardApp(App[None]):
    def __init__(self, board: SlideBoard) -> None:
        super().__init__()
        self.board = board

    def compose(self) -> ComposeResult:
        yield self.board


def tile_columns(board: SlideBoard, row: int, value: int) -> list[int]:
    """The columns of the widget where the label of ``value`` is drawn on a text row."""
    geometry = board.geometry
    assert geometry is not None
    _x, y = geometry.corner(row, 0)
    line = board.render_line(geometry.top + int(y) + (geometry.tile_height - 1) // 2).text
    return [i for i in range(len(line)) if line.startswith(str(value), i)]


async def test_frames_glide_then_grow(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(board_motion, "TEMPO", 100.0)
    # the board's own clock stands still: a frame timer that fires during the pause (a busy
    # machine) then works out the same moment the test set, not the real time since play
    now = [0.0]
    rules = ClassicRules(4)
    before: SlideState = rules.from_position(
        {"board": [[0, 0, 0, 8], [0] * 4, [0] * 4, [0] * 4]}, "0" * 8
    )
    outcome = rules.apply(before, "left")

    board = SlideBoard(before.board)
    board.clock = lambda: now[0]
    app = BoardApp(board)
    async with app.run_test(size=(80, 20)) as pilot:
        geometry = board.geometry
        assert geometry is not None
        start = tile_columns(board, 0, 8)
        board.play(before.board, outcome.state.board, outcome.events)
        assert board.animating
        now[0] = 5.0
        board.progress = 0.25  # half-way through the glide
        board.refresh()
        await pilot.pause()
        middle = tile_columns(board, 0, 8)
        now[0] = 15.0
        board.progress = 0.75  # gliding done, the new tile half grown
        board.refresh()
        end = tile_columns(board, 0, 8)
        assert end[0] < middle[0] < start[0]
        board.finish_animation()
        assert tile_columns(board, 0, 8) == end
        assert not board.animating


def tile_cells(board: SlideBoard, cell: tuple[int, int], value: int) -> int:
    """How many character cells of ``cell``'s area show ``value``'s background."""
    geometry = board.geometry
    assert geometry is not None
    x, y = geometry.corner(*cell)
    left, top = geometry.left + int(x), geometry.top + int(y)
    colour = tile_style(value).bgcolor
    count = 0
    for row in range(top, top + geometry.tile_height):
        column = 0
        for segment in board.render_line(row):
            for _char in segment.text:
                inside = left <= column < left + geometry.tile_width
                if inside and segment.style is not None and segment.style.bgcolor == colour:
                    count += 1
                column += 1
    return count


async def test_a_new_tile_grows_in(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(board_motion, "TEMPO", 100.0)
    rules = ClassicRules(4)
    before: SlideState = rules.from_position(
        {"board": [[0, 0, 0, 8], [0] * 4, [0] * 4, [0] * 4]}, "0" * 8
    )
    outcome = rules.apply(before, "left")
    spawn = next(e for e in outcome.events if e.kind == "appeared")

    board = SlideBoard(before.board)
    app = BoardApp(board)
    async with app.run_test(size=(80, 20)):
        geometry = board.geometry
        assert geometry is not None
        full = geometry.tile_width * geometry.tile_height
        board.play(before.board, outcome.state.board, outcome.events)
        board.progress = 0.25  # still gliding: the new tile is not there yet
        assert tile_cells(board, spawn.cell, spawn.value) == 0
        board.progress = 0.75
        assert 0 < tile_cells(board, spawn.cell, spawn.value) < full
        board.finish_animation()
        assert tile_cells(board, spawn.cell, spawn.value) == full
