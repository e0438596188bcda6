"""Browser tests: ``twofold serve`` on a free port, driven through a real headless Chromium.

They need Playwright for Python (the ``test`` extra), textual-serve (the ``web`` extra) and a
Chromium: Debian's ``chromium`` package, or any one named by ``TWOFOLD_CHROMIUM``. Without
them the one test module is skipped, with one line saying how to enable it (keep the browser
tests in that one module, so it stays one line).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.served import (
    CHROMIUM_ARGS,
    VIEWPORT,
    WAIT_MS,
    Served,
    find_chromium,
    start_server,
)
from twofold.core.store import open_store

ENABLE = (
    "browser tests skipped: {why}; to run them: apt-get install chromium "
    "(or set TWOFOLD_CHROMIUM to a Chromium), and pip install -e '.[test,web]'"
)


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for module, extra in (("playwright", "test"), ("textual_serve", "web")):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (the {extra} extra)"
    if find_chromium() is None:
        return "no Chromium found"
    return None


def skip_without_a_browser() -> None:
    """Skip the calling test module, with one line saying how to run it, if it cannot run."""
    why = missing()
    if why is not None:
        pytest.skip(ENABLE.format(why=why), allow_module_level=True)


HERE = Path(__file__).parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder is a browser test, and all of them run on one xdist worker
    (--dist loadgroup): they share the module's server and Chromium."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def chromium() -> str:
    skip_without_a_browser()
    return find_chromium() or ""


def tutorials_seen(home: Path) -> Path:
    """``home`` for a player who has seen the tutorials: one would open over the first board."""
    store = open_store(home)
    store.save_settings(dataclasses.replace(store.load_settings(), tutorial_seen=True))
    store.close()
    return home


@pytest.fixture(scope="module")
def served(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = start_server(tutorials_seen(tmp_path_factory.mktemp("served-home")))
    yield server
    server.stop()


@pytest.fixture(scope="module")
def served_with_drop(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose pages have the drop example installed, by pip from its wheel, as a
    player would (tests/plugins/wheels.py, as the end-to-end plugin test does)."""
    from tests.plugins.wheels import EXAMPLES, build_wheel, install_into

    out = tmp_path_factory.mktemp("drop-wheel")
    wheel = build_wheel(EXAMPLES / "twofold-drop", out)
    packages = install_into(wheel, out / "packages")
    home = tutorials_seen(tmp_path_factory.mktemp("drop-home"))
    server = start_server(home, packages=packages)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Any]:
    # module scope: Playwright's own event loop is gone before other modules' tests run
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Any, served: Served) -> Iterator[Any]:
    context = browser.new_context(viewport=VIEWPORT)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=served.url.rstrip("/"))
    context.set_default_timeout(WAIT_MS)
    yield context
    context.close()
