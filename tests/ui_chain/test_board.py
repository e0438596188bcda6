"""The board widget's geometry, colours and motion, and what a merge shows."""

from __future__ import annotations

import pytest

from tests.ui_chain.conftest import CODE, board_of, drag, ladder, no_pairs, playing
from twofold.core.plugins import registry
from twofold.core.settings import Settings
from twofold.ui.app.board import motion as animation
from twofold.ui.app.board.canvas import fit_geometry
from twofold.ui.app.board.motion import plan as motion_for
from twofold.ui.app.board.motion import still
from twofold.ui.app.widgets.tiles import tile_label as label
from twofold.ui.app.widgets.tiles import vivid_colour as tile_colour


@pytest.fixture
def slow_motion(monkeypatch: pytest.MonkeyPatch) -> None:
    """Animations long enough to be caught midway on a busy machine."""
    monkeypatch.setattr(animation, "TEMPO", 50.0)


def test_geometry_fits_80_by_24_and_grows_with_the_terminal() -> None:
    small = fit_geometry(8, 5, 80, 17, min_height=2)
    assert small is not None
    # two-line tiles with half a line between rows (each tile's last line is drawn ▀)
    assert (small.tile_width, small.tile_height, small.gap_y) == (8, 2, 0)
    assert small.width <= 80 and small.height <= 17
    big = fit_geometry(8, 5, 160, 50, min_height=2)
    assert big is not None
    assert big.tile_height > small.tile_height
    assert big.tile_width > small.tile_width


def test_geometry_too_small_is_none() -> None:
    assert fit_geometry(8, 5, 28, 20, min_height=2) is None
    assert fit_geometry(8, 5, 80, 15, min_height=2) is None


def test_cell_at_and_back() -> None:
    geometry = fit_geometry(8, 5, 80, 17, min_height=2)
    assert geometry is not None
    for cell in [(0, 0), (3, 2), (7, 4)]:
        assert geometry.cell_at(*geometry.centre(cell)) == cell
        assert geometry.cell_at(*geometry.centre(cell), core=True) == cell
    x, y = geometry.origin((2, 1))
    assert geometry.cell_at(x, y) == (2, 1)
    assert geometry.cell_at(x, y, core=True) is None  # the rim is left out while dragging
    assert geometry.cell_at(x - 1, y) is None  # the gap between tiles


def test_colours_differ_by_value_and_labels_fit() -> None:
    colours = {tile_colour(1 << e) for e in range(1, 13)}
    assert len(colours) == 12
    assert tile_colour(2) != tile_colour(1 << 13)
    assert label(1 << 20, 5) == "1M"
    assert label(131072, 5) == "128K"
    assert label(2048, 5) == "2048"


def test_motion_ends_on_the_board_after_a_merge() -> None:
    rules = registry().mode("2248").rules
    state = rules.from_position({"board": ladder()}, CODE)
    outcome = rules.apply(state, "chain 7,0 7,1 7,2")
    motion = motion_for(state.board, outcome.state.board, outcome.events)
    assert motion is not None
    assert motion.kinds[0] == "change"  # the chain collapses into its last cell, then falls
    start = {(s.row, s.col): s.value for s in motion.frame(0.0)}
    assert start[(7, 2)] == 8
    collapsed = {(s.row, s.col): s for s in motion.phases[0].frame(1.0)}
    assert (7, 0) not in collapsed and (7, 1) not in collapsed
    end = sorted((s.row, s.col, s.value) for s in motion.frame(1.0))
    assert end == sorted((s.row, s.col, s.value) for s in still(outcome.state.board))


def test_a_swap_glides_the_two_tiles() -> None:
    rules = registry().mode("2248").rules
    state = rules.from_position({"board": ladder()}, CODE)
    outcome = rules.apply(state, "swap 6,0 7,0")
    motion = motion_for(state.board, outcome.state.board, outcome.events)
    assert motion is not None and motion.kinds == ("travel",)
    paths = {(source, target) for _value, source, target in motion.phases[0].glides}
    assert paths == {((6, 0), (7, 0)), ((7, 0), (6, 0))}
    end = sorted((s.row, s.col, s.value) for s in motion.frame(1.0))
    assert end == sorted((s.row, s.col, s.value) for s in still(outcome.state.board))


async def test_merge_animates_and_any_key_finishes_it(slow_motion: None) -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        if pilot.app.animation_level == "none":
            return  # TEXTUAL_ANIMATIONS=none: nothing to see
        await pilot.mouse_down(board, offset=board.cell_offset((7, 0)))
        await pilot.hover(board, offset=board.cell_offset((7, 1)))
        await pilot.mouse_up(board, offset=board.cell_offset((7, 1)))
        assert board.animating
        await pilot.press("left")
        assert not board.animating
        assert board.board == screen.state.board


async def test_reduced_motion_draws_the_end_at_once() -> None:
    settings = Settings(tutorial_seen=True, reduced_motion=True)
    async with playing(settings=settings) as (pilot, screen):
        board = board_of(screen)
        await pilot.mouse_down(board, offset=board.cell_offset((7, 0)))
        await pilot.hover(board, offset=board.cell_offset((7, 1)))
        await pilot.mouse_up(board, offset=board.cell_offset((7, 1)))
        assert not board.animating


async def test_too_small_terminal_says_so() -> None:
    async with playing(size=(44, 20)) as (_pilot, screen):  # the smallest size twofold takes
        board = board_of(screen)
        assert board.geometry is None
        lines = [board.render_line(y).text for y in range(board.size.height)]
        assert any("too small" in line for line in lines)


async def test_a_long_chain_to_a_new_tile_praises_retires_and_earns() -> None:
    board = no_pairs()
    board[7] = [256, 256, 512, 1024, 8]
    board[6][0] = 2  # a 2 to retire when 2048 appears
    position = {"board": board}
    async with playing(position=position) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2), (7, 3)])
        status = str(screen.query_one("#chain-status").render())
        assert "New tile: 2048" in status
        assert "The 2 has retired" in status
        assert "Shuffle" in status  # 2048 earns the third power-up
        assert "retired" in screen.query_one("#chain-announce").text


async def test_praise_for_six_tiles() -> None:
    board = no_pairs()
    board[7] = [2, 2, 2, 2, 4]
    board[6][4] = 8
    async with playing(position={"board": board}) as (pilot, screen):
        await drag(pilot, board_of(screen), [(7, 0), (7, 1), (7, 2), (7, 3), (7, 4), (6, 4)])
        assert screen.session.game.log == ["chain 7,0 7,1 7,2 7,3 7,4 6,4"]
        assert "Nice chain!" in str(screen.query_one("#chain-status").render())


def test_hammer_motion_empties_the_cell_and_refills() -> None:
    rules = registry().mode("2248").rules
    state = rules.from_position({"board": ladder()}, CODE)
    outcome = rules.apply(state, "hammer 6,0")
    motion = motion_for(state.board, outcome.state.board, outcome.events)
    assert motion is not None
    removal, fall = motion.phases
    assert removal.vanish == frozenset({(6, 0)})
    assert fall.falls and sum(1 for _v, (r, _c), _t in fall.glides if r < 0) == 1  # dropped in
    end = sorted((s.row, s.col, s.value) for s in motion.frame(1.0))
    assert end == sorted((s.row, s.col, s.value) for s in still(outcome.state.board))


def test_a_retirement_is_a_second_stage() -> None:
    rules = registry().mode("2248").rules
    board = no_pairs()
    board[7] = [256, 256, 512, 1024, 8]
    board[6][0] = 2
    board[0][4] = 2
    state = rules.from_position({"board": board}, CODE)
    outcome = rules.apply(state, "chain 7,0 7,1 7,2 7,3")
    motion = motion_for(state.board, outcome.state.board, outcome.events)
    assert motion is not None
    merge, fall, retirement, *_rest = motion.phases
    assert merge.kind == retirement.kind == "change"
    (retired,) = [e for e in outcome.events if e.kind == "removed" and e.reason == "retired"]
    assert retirement.vanish == frozenset(retired.cells)
    # the first stage ends where the rules found the 2s to retire
    assert all(fall.after[r][c] == 2 for r, c in retired.cells)
    assert retirement.before == fall.after
    end = sorted((s.row, s.col, s.value) for s in motion.frame(1.0))
    assert end == sorted((s.row, s.col, s.value) for s in still(outcome.state.board))


async def test_textual_animations_none_draws_the_end_at_once() -> None:
    async with playing() as (pilot, screen):
        pilot.app.animation_level = "none"  # what TEXTUAL_ANIMATIONS=none sets
        board = board_of(screen)
        await drag(pilot, board, [(7, 0), (7, 1)])
        assert not board.animating
        assert board.board == screen.state.board


async def test_any_key_finishes_the_animation(slow_motion: None) -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        if pilot.app.animation_level == "none":
            return
        await pilot.mouse_down(board, offset=board.cell_offset((7, 0)))
        await pilot.hover(board, offset=board.cell_offset((7, 1)))
        await pilot.mouse_up(board, offset=board.cell_offset((7, 1)))
        assert board.animating
        await pilot.press("x")  # no binding at all
        assert not board.animating


def test_a_2248_board_fits_a_small_terminal_as_it_did_before_the_one_board() -> None:
    """The one board's fit needed 52 columns for 2248 (the old chain board 29): narrow tiles
    a column apart come before "too small"."""
    from twofold.ui.app.board.canvas import fit_geometry, smallest_size

    assert smallest_size(8, 5, min_height=2)[0] <= 31  # 29 and the frame
    geometry = fit_geometry(8, 5, 40, 18, min_height=2)
    assert geometry is not None and geometry.tile_height == 2 and geometry.width <= 40
