"""Drawing chains on the 2248 board: mouse, tap by tap, keyboard; refusals and take-backs."""

from __future__ import annotations

from textual.geometry import Region

from tests.ui_chain.conftest import board_of, click, drag, playing
from twofold.core.settings import Settings
from twofold.ui.app.board.chain import ChainBoard


async def test_drag_merges_a_chain() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await drag(pilot, board, [(7, 0), (7, 1), (7, 2)])
        assert screen.session.game.log == ["chain 7,0 7,1 7,2"]
        assert screen.session.game.state.score == 8
        assert board.chain == []


async def test_tap_by_tap_merges_on_the_last_tile() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await click(pilot, board, (7, 2))
        assert board.chain == [(7, 0), (7, 1), (7, 2)]
        assert screen.session.game.log == []
        await click(pilot, board, (7, 2))
        assert screen.session.game.log == ["chain 7,0 7,1 7,2"]


async def test_keyboard_chain() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        # the first arrow shows the cursor where it is: bottom left
        await pilot.press("left", "space", "right", "space", "right", "enter")
        assert board.chain == [(7, 0), (7, 1), (7, 2)]
        await pilot.press("enter")
        assert screen.session.game.log == ["chain 7,0 7,1 7,2"]


async def test_a_tile_that_does_not_fit_is_refused_and_flashes() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (6, 0))  # a 32 after a 2
        assert board.chain == [(7, 0)]
        assert board.flash_cell == (6, 0)
        assert "second tile" in str(screen.query_one("#chain-status").render())


async def test_drag_back_takes_off_the_last_tile() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await drag(pilot, board, [(7, 0), (7, 1), (7, 2), (7, 1)], release=False)
        assert board.chain == [(7, 0), (7, 1)]
        await pilot.mouse_up(board, offset=board.cell_offset((7, 1)))
        assert screen.session.game.log == ["chain 7,0 7,1"]


async def test_drag_back_to_the_first_and_release_cancels() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await drag(pilot, board, [(7, 0), (7, 1), (7, 0)])
        assert board.chain == []
        assert screen.session.game.log == []


async def test_tap_on_the_first_tile_cancels() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await click(pilot, board, (7, 0))
        assert board.chain == []


async def test_escape_cancels_then_backspace_takes_back() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await pilot.press("left", "space", "right", "space", "right", "space")
        await pilot.press("backspace")
        assert board.chain == [(7, 0), (7, 1)]
        await pilot.press("escape")
        assert board.chain == []
        assert not screen.play.paused


def board_lines(board: ChainBoard) -> list[str]:
    board.refresh()  # drawn afresh at the board's clock, not from the line cache
    return [strip.text for strip in board.render_lines(Region(0, 0, *board.size))]


async def test_the_preview_is_a_bubble_above_the_last_tile() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await click(pilot, board, (7, 2))
        geometry = board.geometry
        assert geometry is not None
        top = geometry.origin((7, 2))[1]
        above = board_lines(board)[top - 1]
        assert " 8 ×3 " in above
        centre = geometry.centre((7, 2))[0]
        assert above.index("8 ×3") <= centre <= above.index("8 ×3") + 4
        status = str(screen.query_one("#chain-status").render())
        assert "×3" not in status  # not on the status line any more


async def test_the_bubble_shakes_when_a_tile_is_refused_but_not_under_reduced_motion() -> None:
    for reduced in (False, True):
        settings = Settings(tutorial_seen=True, reduced_motion=reduced)
        async with playing(settings=settings) as (pilot, screen):
            board = board_of(screen)
            now = [100.0]
            board.clock = lambda now=now: now[0]
            await click(pilot, board, (7, 0))
            await click(pilot, board, (7, 1))
            top = board.geometry.origin((7, 1))[1]  # type: ignore[union-attr]
            still = board_lines(board)[top - 1]
            await click(pilot, board, (6, 4))  # not touching: refused
            now[0] += 0.1  # a moment into the shake
            moved = board_lines(board)[top - 1]
            assert (moved != still) is not reduced
            now[0] += 1.0
            assert board_lines(board)[top - 1] == still


async def test_right_button_cancels() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await pilot.click(board, offset=board.cell_offset((3, 3)), button=3)
        assert board.chain == []
