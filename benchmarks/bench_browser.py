"""``twofold serve`` through a real Chromium: page open to menu, and a key press to the board.

Targets: the menu visible within 3 s of opening the page; a move redrawn within
100 ms at the median.

* Page to menu: a fresh page (a new app process each time) from ``goto`` to the menu's
  text in the terminal emulator's buffer.
* Key to board: 2048 moves pressed as real keys in the page; each is timed inside the page
  from the keydown to the first terminal write that shows the new move count ("redrawn"),
  and to the last write the move caused ("settled": followed by 150 ms of quiet; the board's
  0.2 s slide-and-grow animation and any flash of the score included).
  The moves are chosen by replaying the game locally, so every key changes the board.

Needs the web extra, Playwright and a Chromium (TWOFOLD_CHROMIUM or ``chromium``):

    .venv/bin/python benchmarks/bench_browser.py [--pages 10] [--moves 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.served import (
    CHROMIUM_ARGS,
    VIEWPORT,
    find_chromium,
    start_server,
    wait_for_text,
)

KEYS = {"up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft", "right": "ArrowRight"}
#: the order a simple corner strategy tries directions in
PREFERENCE = ("down", "left", "right", "up")

MEASURE = """
() => {
  const terminal = window.twofoldTerminal;
  const top = () => window.twofoldScreen()[0];
  const before = top();
  window.twofoldTiming = new Promise((resolve) => {
    let pressed = null, drawn = null, last = null, quiet = null;
    document.addEventListener("keydown", () => { pressed = performance.now(); },
                              { capture: true, once: true });
    const writes = terminal.onWriteParsed(() => {
      if (pressed === null) return;
      const now = performance.now();
      if (drawn === null && top() !== before) drawn = now;
      if (drawn !== null) {
        last = now;
        clearTimeout(quiet);
        quiet = setTimeout(() => {
          writes.dispose();
          resolve([drawn - pressed, last - pressed]);
        }, 150);
      }
    });
  });
}
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def planned_moves(code: str, count: int) -> list[str]:
    """Directions that each change the board, replaying the game the page will play."""
    from twofold.core import plugins
    from twofold.core.game import Game

    game = Game.start(plugins.registry().mode("2048"), code)
    moves: list[str] = []
    while len(moves) < count and not game.over:
        for direction in PREFERENCE:
            if game.act(direction).changed:
                moves.append(direction)
                break
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--moves", type=int, default=100)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        sys.exit("bench_browser: no Chromium found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    from twofold.core.codes import code_from_text

    with tempfile.TemporaryDirectory() as home:
        os.environ["TWOFOLD_HOME"] = home
        server = start_server(Path(home))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                context = browser.new_context(viewport=VIEWPORT)
                opens = []
                for _ in range(args.pages):
                    page = context.new_page()
                    began = time.perf_counter()
                    page.goto(server.url)
                    wait_for_text(page, "2248 Daily")
                    opens.append(time.perf_counter() - began)
                    page.close()

                drawn: list[float] = []
                settled: list[float] = []
                round_ = 0
                while len(drawn) < args.moves:
                    code = code_from_text(f"bench browser {round_}")
                    round_ += 1
                    page = context.new_page()
                    page.goto(f"{server.url}?game=2048/{code}")
                    wait_for_text(page, "Moves 0", row=0)
                    for direction in planned_moves(code, args.moves - len(drawn)):
                        page.evaluate(MEASURE)
                        page.keyboard.press(KEYS[direction])
                        first, last = page.evaluate("window.twofoldTiming")
                        drawn.append(first)
                        settled.append(last)
                    page.close()
                browser.close()
        finally:
            server.stop()

    print(
        f"page open to menu ({len(opens)} pages): median {statistics.median(opens):.2f} s, "
        f"p95 {percentile(opens, 0.95):.2f} s, max {max(opens):.2f} s (target 3 s)"
    )
    print(
        f"key to redrawn board ({len(drawn)} moves): median {statistics.median(drawn):.1f} ms, "
        f"p95 {percentile(drawn, 0.95):.1f} ms (target 100 ms at the median)"
    )
    print(
        f"key to settled board (animations done): median {statistics.median(settled):.1f} ms, "
        f"p95 {percentile(settled, 0.95):.1f} ms"
    )


if __name__ == "__main__":
    main()
