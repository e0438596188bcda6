"""Issue 13 in the app: a failed write and a second window are notifications, never silent."""

from __future__ import annotations

import sqlite3
from typing import Any

from tests.ui.conftest import AppFactory
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import SqliteStore, open_store


class FailingCommit:
    """The store's connection, with every COMMIT failing as on a full disk."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if statement == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def messages(app: Any) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_a_write_that_fails_during_play_is_a_notification(
    make_app: AppFactory, store: SqliteStore
) -> None:
    app = make_app("2048", motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        real = store._connection
        store._connection = FailingCommit(real)  # type: ignore[assignment]
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        told = [m for m in messages(app) if "could not be saved" in m]
        assert len(told) == 1, messages(app)  # told once, not at every move
        store._connection = real
        await pilot.press("left", "up", "right", "down")
        await pilot.pause()
        assert any("saved again" in m for m in messages(app))


async def test_a_mode_open_in_another_window_says_so(make_app: AppFactory) -> None:
    other = open_store(owner="the-other-window")
    held = Session(registry().mode("2048"), other)

    try:
        app = make_app("2048", motion=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert any("open in another window" in m for m in messages(app)), messages(app)
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
    store._connection.execute("UPDATE finished SET score = 'abc'")

    app = make_app(None, motion=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert any("could not be read" in m for m in messages(app)), messages(app)
