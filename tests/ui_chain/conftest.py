"""Hosting the 2248 screen in the real app, on boards chosen by the test."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from typing import Any, TypeVar

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Button

from tests.waiting import until
from twofold.core.codes import code_from_text
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.core.store import memory_store
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.board.chain import Cell, ChainBoard
from twofold.ui.app.screens.chain import ChainPlay
from twofold.ui.app.screens.game import GameScreen


@pytest.fixture(autouse=True)
def steady_messages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Flashes and messages that outlast a slow, busy test machine."""
    from twofold.ui.app.board import chain as board
    from twofold.ui.app.screens.chain import dialogs, status

    monkeypatch.setattr(board, "FLASH_SECONDS", 30.0)
    monkeypatch.setattr(dialogs, "NO_MORE_MOVES_SECONDS", 30.0, raising=False)
    monkeypatch.setattr(status, "REFUSAL_SECONDS", 30.0)
    monkeypatch.setattr(status, "MESSAGE_SECONDS", 30.0)


CODE = code_from_text("ui-chain")
DAY = date(2026, 11, 30)
#: five values that never touch an equal one when each row is shifted by two
_CYCLE = (8, 16, 32, 64, 128)


def no_pairs() -> list[list[int]]:
    """A board where no two equal tiles touch (diagonals included)."""
    return [[_CYCLE[(c + 2 * r) % 5] for c in range(5)] for r in range(8)]


def ladder() -> list[list[int]]:
    """No pairs, but a bottom row of 2 2 4 8 16: the chain (7,0) (7,1) (7,2) makes 8."""
    board = no_pairs()
    board[7] = [2, 2, 4, 8, 16]
    return board


class FakeClock:
    """A clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_app(settings: Settings | None = None) -> TwofoldApp:
    store = memory_store(today=lambda: DAY)
    store.save_settings(settings or Settings(tutorial_seen=True))
    return TwofoldApp(registry(), store)


def chain_screen(
    app: TwofoldApp,
    mode_id: str = "2248",
    *,
    position: dict[str, Any] | None = None,
    clock: FakeClock | None = None,
) -> GameScreen:
    mode = app.registry.mode(mode_id)
    session = Session(mode, app.store, clock=clock or FakeClock(), today=lambda: DAY)
    session.new_game(CODE, position=position or {"board": ladder()})
    return GameScreen(session, play=ChainPlay)


@asynccontextmanager
async def playing(
    mode_id: str = "2248",
    *,
    position: dict[str, Any] | None = None,
    clock: FakeClock | None = None,
    settings: Settings | None = None,
    size: tuple[int, int] = (80, 24),
) -> AsyncIterator[tuple[Pilot[int], GameScreen]]:
    """The real app with a 2248 screen pushed over its menu."""
    app = make_app(settings)
    async with app.run_test(size=size) as pilot:
        screen = chain_screen(app, mode_id, position=position, clock=clock)
        await app.push_screen(screen)
        await pilot.pause()
        yield pilot, screen


def board_of(screen: GameScreen) -> ChainBoard:
    return screen.query_one(ChainBoard)


async def click(pilot: Pilot[int], board: ChainBoard, cell: Cell) -> None:
    await pilot.click(board, offset=board.cell_offset(cell))


async def drag(
    pilot: Pilot[int], board: ChainBoard, cells: list[Cell], *, release: bool = True
) -> None:
    """Press on the first cell, move through the others, and (by default) release."""
    await pilot.mouse_down(board, offset=board.cell_offset(cells[0]))
    for cell in cells[1:]:
        await pilot.hover(board, offset=board.cell_offset(cell))
    if release:
        await pilot.mouse_up(board, offset=board.cell_offset(cells[-1]))
    await pilot.pause()


async def settle(pilot: Pilot[int]) -> None:
    """Wait for the hint's thread and the messages it sends."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


DialogT = TypeVar("DialogT", bound=Screen[Any])


async def shown(pilot: Pilot[Any], kind: type[DialogT]) -> DialogT:
    """Wait, as a player does, for a dialog of ``kind`` on top with its buttons drawn."""
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, kind) and bool(app.screen.query(Button)),
        what=kind.__name__,
    )
    return app.screen  # type: ignore[return-value]
