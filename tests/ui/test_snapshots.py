"""What the screens look like, pinned as SVG snapshots in a dark and a light theme.

Regenerate after a deliberate change with ``pytest tests/ui --snapshot-update`` and look
at the report before committing. Every snapshot uses a fixed code or position, the
test's own TWOFOLD_HOME and no animation, and waits for the footer's keys before a key or
the picture (tests.waiting.footer_drawn), so it never changes by itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.ui.conftest import CODE, LONG_ROWS, MID_GAME, NEARLY_OVER, NEARLY_WON, AppFactory
from tests.ui.test_menu_and_screens import finish
from tests.waiting import footer_drawn, until
from twofold.core import plugins
from twofold.core.session import Session
from twofold.core.store import SqliteStore

THEMES = ["textual-dark", "textual-light"]
#: a fixed opening of the real deal, for a board that is mid-game without a position
OPENING = ("left", "up", "right", "down", "left", "up", "left", "down", "right", "up") * 2

SnapCompare = Callable[..., bool]
RunBefore = Callable[[Pilot[Any]], Awaitable[None]]


def playing(*keys: str) -> RunBefore:
    """Once the footer is drawn, press ``keys``."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await footer_drawn(pilot)
        await pilot.press(*keys)

    return run_before


@pytest.fixture(params=THEMES)
def theme(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_menu(snap_compare: SnapCompare, make_app: AppFactory, theme: str, store: SqliteStore):
    finish(store, "2048", 5120, (2, 4, 8, 16, 32, 64, 128, 256, 512), 1)
    waiting = Session(plugins.registry().mode("2048-5x5"), store)
    waiting.new_game(CODE)
    for action in OPENING[:4]:
        waiting.act(action)
    waiting.close()
    assert snap_compare(
        make_app(motion=False, theme=theme), run_before=footer_drawn, terminal_size=(80, 24)
    )


def test_2048_mid_game_80x24(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", code=CODE, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing(*OPENING), terminal_size=(80, 24))


def test_2048_mid_game_120x40(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", code=CODE, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing(*OPENING), terminal_size=(120, 40))


def test_2048_6x6_position_80x24(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048-6x6", position=LONG_ROWS, motion=False, theme=theme)
    assert snap_compare(app, run_before=footer_drawn, terminal_size=(80, 24))


def test_win_dialog(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", position=NEARLY_WON, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing("left"), terminal_size=(80, 24))


def test_game_over(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", position=NEARLY_OVER, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing("right"), terminal_size=(80, 24))


def test_help(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", position=MID_GAME, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing("question_mark"), terminal_size=(80, 24))


def test_statistics(
    snap_compare: SnapCompare, make_app: AppFactory, theme: str, store: SqliteStore
):
    for n, score in enumerate((1200, 3400, 2200, 5100, 4800, 2600), start=1):
        finish(store, "2048", score, (2, 4, 8, 16, 32, 64, 128, 256, 512), n)
    app = make_app("2048", position=MID_GAME, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing("t"), terminal_size=(80, 24))


def test_settings(snap_compare: SnapCompare, make_app: AppFactory, theme: str):
    app = make_app("2048", position=MID_GAME, motion=False, theme=theme)
    assert snap_compare(app, run_before=playing("comma"), terminal_size=(80, 24))


def test_board_reading(snap_compare: SnapCompare, make_app: AppFactory):
    app = make_app("2048", position=MID_GAME, motion=False)

    async def read(pilot: Pilot[Any]) -> None:
        await footer_drawn(pilot)
        await pilot.press("r")
        pilot.app.clear_notifications()

    assert snap_compare(app, run_before=read, terminal_size=(80, 24))


def test_too_small(snap_compare: SnapCompare, make_app: AppFactory):
    board = [[2, 0, 0, 0, 0, 0]] + [[0] * 6 for _ in range(5)]
    app = make_app("2048-6x6", position={"board": board}, motion=False)
    # below 44x20 every screen gives way to one message naming the size needed

    async def shown(pilot: Pilot[Any]) -> None:
        from twofold.ui.app.screens.too_small import TooSmallScreen

        await until(pilot, lambda: isinstance(pilot.app.screen, TooSmallScreen), what="it")

    assert snap_compare(app, run_before=shown, terminal_size=(32, 12))
