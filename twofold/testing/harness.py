"""What a plugin's own tests stand on: its plugin registered alone, a game, a fresh data folder.

These names are part of :mod:`twofold.testing`, so a plugin's tests import nothing of
twofold beyond it and :mod:`twofold.plugin`.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from twofold.core import plugins
from twofold.core.game import Game
from twofold.core.plugins import Registry
from twofold.core.session import Session
from twofold.core.storage import MemoryStore
from twofold.core.store.files import HOME_VARIABLE

__all__ = [
    "Game",
    "MemoryStore",
    "Registry",
    "Session",
    "fresh_home",
    "registered",
    "twofold_home",
]


@contextlib.contextmanager
def registered(name: str, plugin: object) -> Iterator[Registry]:
    """A registry holding only ``plugin`` (no installed plugin), unregistered afterwards."""
    registry = plugins.load([(name, plugin)], entry_points_=[])
    try:
        yield registry
    finally:
        if registry.manager.has_plugin(name):
            registry.manager.unregister(name=name)


@contextlib.contextmanager
def fresh_home(folder: Path | None = None) -> Iterator[Path]:
    """``TWOFOLD_HOME`` set to ``folder`` (a new temporary one by default) while inside.

    Saves, records and settings go there, never to the player's own data folder.
    """
    before = os.environ.get(HOME_VARIABLE)
    with contextlib.ExitStack() as stack:
        if folder is None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        os.environ[HOME_VARIABLE] = str(folder)
        try:
            yield folder
        finally:
            if before is None:
                os.environ.pop(HOME_VARIABLE, None)
            else:
                os.environ[HOME_VARIABLE] = before


def _twofold_home(tmp_path: Path) -> Iterator[Path]:
    """A fresh ``TWOFOLD_HOME`` for one test (import it into your ``conftest.py``)."""
    with fresh_home(tmp_path / "twofold-home") as folder:
        yield folder


try:
    import pytest
except ImportError:  # pytest is only needed by a test that uses the fixture
    twofold_home = _twofold_home
else:
    twofold_home = pytest.fixture(_twofold_home, name="twofold_home")
