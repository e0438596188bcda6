"""In the app, a failed write and a second window are notifications, never silent."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from tests.ui.conftest import AppFactory, set_settings
from tests.waiting import notices
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import SqliteStore, files, open_store
from twofold.ui.app.app import TwofoldApp


class FailingCommit:
    """The store's connection, with every COMMIT failing as on a full disk while ``failing``."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.failing = False

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if self.failing and statement == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


@pytest.fixture
def failing_store() -> Iterator[tuple[SqliteStore, list[FailingCommit]]]:
    """A store whose connections (handed in through ``open_store(connect=...)``) fail on cue."""
    made: list[FailingCommit] = []

    def connect(path: str) -> sqlite3.Connection:
        made.append(FailingCommit(files.connect(path)))
        return made[-1]  # type: ignore[return-value]

    opened = open_store(connect=connect)
    yield opened, made
    opened.close()


async def test_a_write_that_fails_during_play_is_a_notification(
    failing_store: tuple[SqliteStore, list[FailingCommit]],
) -> None:
    store, made = failing_store
    set_settings(store, reduced_motion=True)
    app = TwofoldApp(registry(), store, mode_id="2048")
    async with app.run_test(size=(80, 24)) as pilot:
        made[-1].failing = True
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        told = [m for m in notices(app) if "could not be saved" in m]
        assert len(told) == 1, notices(app)  # told once, not at every move
        made[-1].failing = False
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        assert any("saved again" in m for m in notices(app))


async def test_a_mode_open_in_another_window_says_so(make_app: AppFactory) -> None:
    other = open_store(owner="the-other-window")
    held = Session(registry().mode("2048"), other)

    try:
        app = make_app("2048", motion=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert any("open in another window" in m for m in notices(app)), notices(app)
    finally:
        held.close()
        other.close()


async def test_a_finished_game_that_does_not_read_is_a_notice_in_the_menu(
    make_app: AppFactory, store: SqliteStore
) -> None:
    """update finished set score='abc' gave the app a full Rich traceback."""
    session = Session(registry().mode("2048"), store)
    for move in ("left", "up", "right", "down"):
        session.act(move)
    session.new_game()
    session.close()
    with sqlite3.connect(store.path) as other:  # type: ignore[arg-type]
        other.execute("UPDATE finished SET score = 'abc'")

    app = make_app(None, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("could not be read" in m for m in notices(app)), notices(app)
