"""How fast the app answers: time to the menu, and a key press to the redrawn board.

Targets (SPEC 8): the menu is on screen within 1 second of ``twofold`` starting; a key
press to the redrawn board within 30 ms of app work.

* Start-up runs ``twofold``'s own start in a fresh Python (imports included), headless,
  and times from the process spawn to the menu screen being mounted and drawn.
* Key to board plays 2048 moves through the real screen handler and then renders every
  line of the board widget, which is the app's work for one key (the terminal's own
  drawing is not ours to time). Reduced motion, so a move draws its final board.

    .venv/bin/python benchmarks/bench_app.py [--starts 5] [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

START_SCRIPT = """
import asyncio
from twofold.core import plugins
from twofold.core.store import open_store
from twofold.ui.app import TwofoldApp
from twofold.ui.screens.menu import MenuScreen

async def main():
    app = TwofoldApp(plugins.registry(), open_store())
    async with app.run_test(size=(100, 32)) as pilot:
        while not isinstance(app.screen, MenuScreen):
            await pilot.pause()
        await pilot.pause()
        print("menu", flush=True)

asyncio.run(main())
"""


def time_starts(count: int, home: str) -> list[float]:
    times = []
    for _ in range(count):
        began = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", START_SCRIPT],
            env={**os.environ, "TWOFOLD_HOME": home},
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - began)
    return times


async def time_keys(moves: int) -> list[float]:
    import dataclasses

    from textual.geometry import Region

    from twofold.core import plugins
    from twofold.core.store import open_store
    from twofold.ui.app import TwofoldApp
    from twofold.ui.screens.slide import SlideScreen
    from twofold.ui.widgets.board import SlideBoard

    store = open_store()
    store.save_settings(dataclasses.replace(store.load_settings(), reduced_motion=True))
    app = TwofoldApp(plugins.registry(), store, mode_id="2048")
    timings: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SlideScreen)
        board = screen.query_one(SlideBoard)
        region = Region(0, 0, board.size.width, board.size.height)
        directions = ["left", "down", "right", "down"]
        for number in range(moves):
            if screen.session.game.over:
                screen.session.new_game()
            began = time.perf_counter()
            screen.play(directions[number % 4])
            board.render_lines(region)
            timings.append(time.perf_counter() - began)
    store.close()
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TWOFOLD_HOME"] = home
        starts = time_starts(args.starts, home)
        keys = asyncio.run(time_keys(args.moves))
    ms = sorted(t * 1000 for t in keys)
    print(f"start-up to menu: median {statistics.median(starts):.2f} s, max {max(starts):.2f} s")
    print(
        f"key to redrawn board ({len(ms)} moves): median {statistics.median(ms):.2f} ms, "
        f"p99 {ms[int(len(ms) * 0.99) - 1]:.2f} ms, max {ms[-1]:.2f} ms"
    )


if __name__ == "__main__":
    main()
