"""Drawing chains on the 2248 board: mouse, tap by tap, keyboard; refusals and take-backs."""

from __future__ import annotations

from tests.ui_chain.conftest import board_of, click, drag, playing


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
        assert not screen.paused


async def test_preview_shows_the_tile_and_the_length() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await click(pilot, board, (7, 2))
        status = str(screen.query_one("#chain-status").render())
        assert "8" in status and "×3" in status


async def test_right_button_cancels() -> None:
    async with playing() as (pilot, screen):
        board = board_of(screen)
        await click(pilot, board, (7, 0))
        await click(pilot, board, (7, 1))
        await pilot.click(board, offset=board.cell_offset((3, 3)), button=3)
        assert board.chain == []
