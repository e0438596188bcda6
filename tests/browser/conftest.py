"""Browser tests: ``twofold serve`` on a free port, driven through a real headless Chromium.

They need Playwright for Python (the ``test`` extra), textual-serve (the ``web`` extra) and a
Chromium: Debian's ``chromium`` package, or any one named by ``TWOFOLD_CHROMIUM``. Without
them the one test module is skipped, with one line saying how to enable it (keep the browser
tests in that one module, so it stays one line). What a page shows is read from the
xterm.js terminal's text buffer (``window.twofoldScreen()``), never from pixels.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
ENABLE = (
    "browser tests skipped: {why}; to run them: apt-get install chromium "
    "(or set TWOFOLD_CHROMIUM to a Chromium), and pip install -e '.[test,web]'"
)
VIEWPORT = {"width": 1000, "height": 700}
#: generous: the machine is shared and each page starts a Python process
WAIT_MS = 20_000


def find_chromium() -> str | None:
    named = os.environ.get("TWOFOLD_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


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


@pytest.fixture(scope="session")
def chromium() -> str:
    skip_without_a_browser()
    return find_chromium() or ""


# -- the server ------------------------------------------------------------------------------


@dataclass
class Served:
    """A running ``twofold serve``: its process, its URL and the home its games are saved in."""

    process: subprocess.Popen[str]
    url: str
    home: Path

    def stop(self, timeout: float = 15) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


def start_server(home: Path) -> Served:
    """``twofold serve --port 0`` with its own TWOFOLD_HOME; returns once it prints its URL."""
    env = dict(os.environ, TWOFOLD_HOME=str(home), PYTHONUNBUFFERED="1")
    process = subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.cli", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    found = re.search(r"http://\S+?/", line)
    if not found:
        process.kill()
        raise AssertionError(f"twofold serve did not print its URL: {line!r}")
    return Served(process, found.group(0), home)


@pytest.fixture(scope="module")
def served(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    server = start_server(tmp_path_factory.mktemp("served-home"))
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


# -- reading and driving a page --------------------------------------------------------------


def screen(page: Any) -> list[str]:
    """The terminal's rows as text."""
    return list(page.evaluate("window.twofoldScreen ? window.twofoldScreen() : []"))


def wait_for_text(page: Any, text: str, *, row: int | None = None) -> None:
    """Wait until ``text`` is on screen (in ``row`` only, when given)."""
    where = "rows.join('\\n')" if row is None else f"(rows[{row}] || '')"
    page.wait_for_function(
        f"(text) => {{ const rows = window.twofoldScreen ? window.twofoldScreen() : [];"
        f" return {where}.includes(text); }}",
        arg=text,
        timeout=WAIT_MS,
    )


def open_page(context: Any, url: str, text: str) -> Any:
    page = context.new_page()
    page.goto(url)
    wait_for_text(page, text)
    return page


def top_bar(page: Any) -> str:
    return screen(page)[0]


def number_after(label: str, line: str) -> int:
    found = re.search(rf"{label} (\d+)", line)
    assert found, f"no {label!r} in {line!r}"
    return int(found.group(1))


def cell_center(page: Any, column: float, row: float) -> tuple[float, float]:
    """Where on the page the middle of terminal cell (column, row) is."""
    box = page.evaluate(
        """() => {
        const t = window.twofoldTerminal;
        const r = document.querySelector('.xterm-screen').getBoundingClientRect();
        return [r.left, r.top, r.width / t.cols, r.height / t.rows];
    }"""
    )
    left, top, width, height = box
    return left + (column + 0.5) * width, top + (row + 0.5) * height


def drag(page: Any, points: list[tuple[float, float]]) -> None:
    """Press at the first point, move through the others, release at the last."""
    page.mouse.move(*points[0])
    page.mouse.down()
    for x, y in points[1:]:
        page.mouse.move(x, y, steps=4)
    page.mouse.up()


def wait_until(check: Any, timeout: float = 10) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)
