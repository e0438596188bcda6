"""Fixtures for plugin tests: the example plugins importable, and registries built from them.

The examples are separate distributions (``examples/twofold-*``); here they are put on
``sys.path`` so their modules can be registered in code, the way a plugin's own tests
would. The end-to-end test installs them for real.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from twofold.core import plugins

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FIBONACCI_DIR = EXAMPLES / "twofold-fibonacci"
CHAINSUM_DIR = EXAMPLES / "twofold-chainsum"
BROKEN_DIR = EXAMPLES / "twofold-broken"
DROP_DIR = EXAMPLES / "twofold-drop"
STONES_DIR = EXAMPLES / "twofold-stones"
HEX_DIR = EXAMPLES / "twofold-hex"

for folder in (FIBONACCI_DIR, CHAINSUM_DIR, BROKEN_DIR, DROP_DIR, STONES_DIR, HEX_DIR):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def only(name: str, plugin: object) -> Iterator[plugins.Registry]:
    """A registry holding only ``plugin``; it is unregistered afterwards."""
    registry = plugins.load([(name, plugin)], entry_points_=[])
    try:
        yield registry
    finally:
        registry.manager.unregister(name=name)


@pytest.fixture
def fib_registry() -> Iterator[plugins.Registry]:
    import twofold_fibonacci

    yield from only("fibonacci", twofold_fibonacci)


@pytest.fixture
def chainsum_registry() -> Iterator[plugins.Registry]:
    import twofold_chainsum

    yield from only("chainsum", twofold_chainsum)


@pytest.fixture
def drop_registry() -> Iterator[plugins.Registry]:
    import twofold_drop

    yield from only("drop", twofold_drop)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, object]]]:
    """Plugins to add to the process-wide registry, as if installed: append (name, plugin).

    The built-in variants load from their entry points as usual; the registry is
    forgotten afterwards so no other test sees these plugins.
    """
    extra: list[tuple[str, object]] = []
    real_load = plugins.load
    monkeypatch.setattr(plugins, "load", lambda *args, **kw: real_load(extra, **kw))
    plugins.reset()
    try:
        yield extra
    finally:
        plugins.reset()
