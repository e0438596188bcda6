"""Fixtures for the app's tests: a store in the test's TWOFOLD_HOME and an app factory."""

from __future__ import annotations

import asyncio
import dataclasses
import warnings
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping
from typing import Any

import pytest

from twofold.core import plugins
from twofold.core.codes import code_from_text
from twofold.core.settings import Settings
from twofold.core.store import SqliteStore, open_store
from twofold.ui.app.app import TwofoldApp

#: a fixed game code, so boards and snapshots never change between runs
CODE = code_from_text("twofold-ui-tests")

#: a board one move (right) from game over, whatever tile the deal brings
NEARLY_OVER = {
    "board": [[2, 4, 2, 4], [4, 2, 4, 2], [8, 4, 2, 4], [16, 32, 64, 0]],
    "score": 1200,
    "moves": 150,
}
#: a board one move (left) from the 2048 tile
NEARLY_WON = {
    "board": [[1024, 1024, 0, 0], [4, 8, 0, 0], [2, 0, 0, 0], [0, 0, 0, 0]],
    "score": 20000,
    "moves": 900,
}
#: a board mid-game with room to move every way
MID_GAME = {
    "board": [[2, 4, 8, 16], [0, 2, 32, 64], [0, 0, 4, 128], [0, 0, 0, 2]],
    "score": 1024,
    "moves": 120,
}

AppFactory = Callable[..., TwofoldApp]


#: a 6x6 board of long numbers: its reading is the longest a 2048 board has
LONG_ROWS = {
    "board": [
        [2, 4, 8, 16, 32, 64],
        [128, 256, 512, 1024, 2048, 4096],
        [8192, 16384, 32768, 65536, 131072, 0],
        [0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 2],
        [0, 0, 0, 0, 0, 0],
    ],
}


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Deprecated: write the test as ``async def`` (pytest-asyncio runs it) instead."""
    warnings.warn(
        "run(body()) is deprecated: make the test itself `async def` and await in it",
        DeprecationWarning,
        stacklevel=2,
    )
    return asyncio.run(coroutine)


@pytest.fixture(autouse=True)
def steady_dialogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """ "No more moves" outlasts a slow, busy test machine (it gives way to the result)."""
    from twofold.ui.app.screens.chain import dialogs

    monkeypatch.setattr(dialogs, "NO_MORE_MOVES_SECONDS", 30.0, raising=False)


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    opened = open_store()
    yield opened
    opened.close()


def set_settings(store: SqliteStore, **changes: Any) -> Settings:
    settings = dataclasses.replace(store.load_settings(), **changes)
    store.save_settings(settings)
    return settings


@pytest.fixture
def make_app(store: SqliteStore) -> AppFactory:
    """Build an app on the test's store; ``motion=False`` turns animations off."""

    def factory(
        mode_id: str | None = None,
        *,
        code: str | None = None,
        position: Mapping[str, Any] | None = None,
        motion: bool = True,
        theme: str = "textual-dark",
        extra: Iterable[tuple[str, object]] = (),
    ) -> TwofoldApp:
        set_settings(store, reduced_motion=not motion, theme=theme)
        registry = plugins.load(extra) if extra else plugins.registry()
        if position is not None and code is None:
            code = CODE
        return TwofoldApp(registry, store, mode_id=mode_id, code=code, position=position)

    return factory
