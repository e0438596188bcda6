"""What the 2248 screen looks like: mid-chain, the result, Daily and Blitz, dark and light."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tests.ui_chain.conftest import chain_screen, make_app, no_pairs
from tests.waiting import footer_drawn
from twofold.core.settings import Settings
from twofold.ui.app.board.chain import ChainBoard

SnapCompare = Callable[..., bool]


def opened(
    mode_id: str = "2248",
    *,
    position: dict[str, Any] | None = None,
    keys: tuple[str, ...] = (),
    theme: str | None = None,
):  # type: ignore[no-untyped-def]
    async def run_before(pilot: Pilot[int]) -> None:
        app: Any = pilot.app
        if theme is not None:
            app.theme = theme
        screen = chain_screen(app, mode_id, position=position)
        await app.push_screen(screen)
        await footer_drawn(pilot, screen)
        await pilot.press(*keys)
        await pilot.pause()

    return run_before


#: cursor to the bottom left, then 2, 2, 4 with the keyboard
MID_CHAIN = ("left", "space", "right", "space", "right", "space")


def test_mid_chain_with_preview(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), run_before=opened(keys=MID_CHAIN))


def test_mid_chain_light_theme(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), run_before=opened(keys=MID_CHAIN, theme="textual-light"))


def test_result_screen(snap_compare: SnapCompare) -> None:
    position = {
        "board": no_pairs(),
        "score": 4242,
        "powerups": {"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0},
    }
    # "No more moves" first; Enter shows the result
    assert snap_compare(make_app(), run_before=opened(position=position, keys=("enter",)))


def test_daily_top_bar(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), run_before=opened("2248-daily"))


def test_blitz_top_bar(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), run_before=opened("2248-blitz"))


def test_tutorial_first_step(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(Settings()), run_before=opened())


def test_bubble_at_100x32(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(), run_before=opened(keys=MID_CHAIN), terminal_size=(100, 32))


def test_confetti_frame(snap_compare: SnapCompare) -> None:
    """Two 256s merge into a new highest 512: a frame of the burst, its clock frozen."""
    board = no_pairs()
    board[7][0] = board[7][1] = 256

    async def run_before(pilot: Pilot[int]) -> None:
        app: Any = pilot.app
        screen = chain_screen(app, position={"board": board})
        await app.push_screen(screen)
        await footer_drawn(pilot, screen)
        chain = screen.query_one(ChainBoard)
        chain.clock = lambda: 1000.0
        await pilot.press("left", "space", "right", "space", "enter")
        await pilot.pause()
        chain.finish_animation()
        chain.clock = lambda: 1000.35
        chain.refresh()
        await pilot.pause()

    assert snap_compare(make_app(), run_before=run_before)
