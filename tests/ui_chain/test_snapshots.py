"""What the 2248 screen looks like: mid-chain, the result, Daily and Blitz, dark and light."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from tests.ui_chain.conftest import chain_screen, make_app, no_pairs
from twofold.core.settings import Settings

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
        await app.push_screen(chain_screen(app, mode_id, position=position))
        await pilot.pause()
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
