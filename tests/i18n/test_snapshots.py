"""What German looks like: the menu and a 2048 board at 80x24."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.waiting import footer_drawn
from twofold.core import _i18n as i18n
from twofold.core import plugins
from twofold.core.codes import code_from_text
from twofold.core.store import SqliteStore, open_store
from twofold.ui.app.app import TwofoldApp

SnapCompare = Callable[..., bool]
CODE = code_from_text("twofold-i18n-tests")
MID_GAME = {
    "board": [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 4, 128], [0, 0, 0, 2]],
    "score": 1024,
    "moves": 120,
}


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    opened = open_store()
    yield opened
    opened.close()


def german_app(store: SqliteStore, mode_id: str | None = None, **kwargs: Any) -> TwofoldApp:
    store.save_settings(
        dataclasses.replace(store.load_settings(), language="de", reduced_motion=True)
    )
    # as at a real start: the first translation reads the stored language
    i18n.set_language(i18n.stored_language())
    return TwofoldApp(plugins.registry(), store, mode_id=mode_id, **kwargs)


async def settle(pilot: Pilot[Any]) -> None:
    await footer_drawn(pilot)
    await pilot.pause()


def test_the_menu_in_german(snap_compare: SnapCompare, store: SqliteStore) -> None:
    assert snap_compare(german_app(store), terminal_size=(80, 24), run_before=settle)


def test_a_2048_board_in_german(snap_compare: SnapCompare, store: SqliteStore) -> None:
    async def moved(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("left")
        await settle(pilot)

    app = german_app(store, "2048", code=CODE, position=MID_GAME)
    assert snap_compare(app, terminal_size=(80, 24), run_before=moved)
