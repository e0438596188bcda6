"""A served twofold and a Chromium page on it: start ``twofold serve``, read and drive a page.

Shared by the browser tests and ``benchmarks/bench_browser.py``. What a page shows is read
from the xterm.js terminal's text buffer (``window.twofoldScreen()``), never from pixels.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twofold.core import plugins

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
VIEWPORT = {"width": 1000, "height": 700}
#: generous: the machine is shared and each page starts a Python process (20 s timed out at
#: load 7 to 8; waiting longer costs nothing where the page comes)
WAIT_MS = 45_000


def find_chromium() -> str | None:
    named = os.environ.get("TWOFOLD_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


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


def start_server(home: Path, *options: str, packages: Path | None = None) -> Served:
    """``twofold serve --port 0`` with its own TWOFOLD_HOME; returns once it prints its URL.

    ``packages``: a folder of installed plugins (``pip install --target``) the server and
    every page's app import from, and load (the suite's TWOFOLD_NO_PLUGINS is off for them).
    """
    env = dict(os.environ, TWOFOLD_HOME=str(home), PYTHONUNBUFFERED="1")
    if packages is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(packages), env.get("PYTHONPATH")) if p)
        env.pop(plugins.DISABLE_VARIABLE, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.command.cli", "serve", "--port", "0", *options],
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


# -- reading and driving a page --------------------------------------------------------------


def screen(page: Any) -> list[str]:
    """The terminal's rows as text."""
    return list(page.evaluate("window.twofoldScreen ? window.twofoldScreen() : []"))


def wait_for_text(page: Any, text: str, *, row: int | None = None) -> None:
    """Wait until ``text`` is on screen (in ``row`` only, when given)."""
    where = "rows.join('\\n')" if row is None else f"(rows[{row}] || '')"
    wait_for(
        page,
        f"(text) => {{ const rows = window.twofoldScreen ? window.twofoldScreen() : [];"
        f" return {where}.includes(text); }}",
        text,
        what=f"{text!r} on screen" + ("" if row is None else f" in row {row}"),
    )


def wait_for(page: Any, script: str, arg: Any = None, *, what: str = "") -> None:
    """Wait until ``script`` is true in the page; if it never is, fail showing the screen."""
    from playwright.sync_api import TimeoutError as PageTimeout

    try:
        page.wait_for_function(script, arg=arg, timeout=WAIT_MS)
    except PageTimeout:
        shown = "\n".join(screen(page))
        message = f"waited {WAIT_MS} ms for {what or script}; the page shows:\n{shown}"
        raise AssertionError(message) from None


def wait_for_announcement(page: Any, text: str) -> None:
    """Wait until the app has announced ``text`` (the line under the board; it may wrap).

    The app announces after it has played an action and drawn its numbers, so this is the
    sign that the last key has been handled, not only sent.
    """
    wait_for(
        page,
        "(text) => { const rows = window.twofoldScreen ? window.twofoldScreen() : [];"
        " return rows.join(' ').replace(/\\s+/g, ' ').includes(text); }",
        " ".join(text.split()),
        what=f"the announcement {text!r}",
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


# -- a phone: touches, and what a screenshot shows -------------------------------------------

#: an upright phone (CSS pixels), as Chromium emulates one
PHONE = {"width": 390, "height": 844}


def touch(page: Any, points: list[tuple[float, float]]) -> None:
    """One finger: down at the first point, through the others, up at the last (real touch
    events, through the DevTools protocol)."""
    session = page.context.new_cdp_session(page)
    try:

        def send(kind: str, x: float, y: float) -> None:
            at = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
            session.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": at})

        send("touchStart", *points[0])
        for (x0, y0), (x1, y1) in itertools.pairwise(points):
            for step in range(1, 5):
                send("touchMove", x0 + (x1 - x0) * step / 4, y0 + (y1 - y0) * step / 4)
        send("touchEnd", *points[-1])
    finally:
        session.detach()


def drawn_box(page: Any, first_row: int, last_row: int) -> tuple[float, float, float, float]:
    """What a screenshot at the device's pixels shows between two terminal rows: the box
    (left, top, right, bottom, in CSS pixels) of everything not the app's background, which
    is read one row above ``first_row`` at the left edge. The browser decodes the image."""
    import base64

    png = base64.b64encode(page.screenshot()).decode("ascii")
    return tuple(  # type: ignore[return-value]
        page.evaluate(
            """async ([png, firstRow, lastRow]) => {
            const t = window.twofoldTerminal;
            const r = document.querySelector('.xterm-screen').getBoundingClientRect();
            const cellH = r.height / t.rows, dpr = window.devicePixelRatio;
            const blob = await (await fetch('data:image/png;base64,' + png)).blob();
            const bitmap = await createImageBitmap(blob);
            const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
            const context = canvas.getContext('2d');
            context.drawImage(bitmap, 0, 0);
            const w = bitmap.width, data = context.getImageData(0, 0, w, bitmap.height).data;
            const at = (x, y) => 4 * (Math.floor(y) * w + Math.floor(x));
            const blank = at((r.left + 1) * dpr, (r.top + (firstRow - 0.5) * cellH) * dpr);
            const bg = [data[blank], data[blank + 1], data[blank + 2]];
            let box = [Infinity, Infinity, -1, -1];
            const y0 = (r.top + firstRow * cellH) * dpr, y1 = (r.top + lastRow * cellH) * dpr;
            for (let y = Math.floor(y0); y < y1; y++) {
              for (let x = Math.floor(r.left * dpr); x < r.right * dpr; x++) {
                const i = at(x, y);
                if (data[i] !== bg[0] || data[i + 1] !== bg[1] || data[i + 2] !== bg[2]) {
                  box = [Math.min(box[0], x), Math.min(box[1], y),
                         Math.max(box[2], x), Math.max(box[3], y)];
                }
              }
            }
            return box.map((v) => v / dpr);
        }""",
            [png, first_row, last_row],
        )
    )


def colours_at(page: Any, points: list[tuple[float, float]]) -> list[list[int]]:
    """The RGB a screenshot at the device's pixels shows at each point (CSS pixels)."""
    import base64

    png = base64.b64encode(page.screenshot()).decode("ascii")
    return list(
        page.evaluate(
            """async ([png, points]) => {
            const dpr = window.devicePixelRatio;
            const blob = await (await fetch('data:image/png;base64,' + png)).blob();
            const bitmap = await createImageBitmap(blob);
            const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
            const context = canvas.getContext('2d');
            context.drawImage(bitmap, 0, 0);
            return points.map(([x, y]) =>
                Array.from(context.getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1)
                    .data.slice(0, 3)));
        }""",
            [png, points],
        )
    )
