"""How fast the app answers: time to the menu, and a key press to the redrawn board.

Targets: the menu is on screen within 1 second of ``twofold`` starting; a key
press to the redrawn board within 30 ms of app work.

* Start-up runs ``twofold``'s own start in a fresh Python (imports included), headless,
  and times from the process spawn to the menu screen being mounted and drawn.
* Key to board plays moves through the real screen handler and then renders every line
  of the board widget, which is the app's work for one key (the terminal's own drawing
  is not ours to time), for each kind of controls: 2048 (slide), 2248 (chain: a pair of
  equal tiles) and the drop example (place: a column). Reduced motion, so a move draws
  its final board.

    .venv/bin/python benchmarks/bench_app.py [--starts 5] [--moves 300] [--modes 2048,2248,drop]
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
from twofold.ui.app.app import TwofoldApp
from twofold.ui.app.screens.menu import MenuScreen

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


def drop_registry() -> object:
    """twofold's own variants and the drop example (from examples/, not installed)."""
    from pathlib import Path

    from twofold.core import plugins

    folder = Path(__file__).resolve().parents[1] / "examples" / "twofold-drop"
    sys.path.insert(0, str(folder))
    import twofold_drop

    return plugins.load([("drop", twofold_drop)])


def chain_key(state: object) -> str:
    """A chain a player could draw: two equal tiles side by side (2248's second tile
    equals its first), the first such pair from the top left."""
    board = state.board  # type: ignore[attr-defined]
    for r, row in enumerate(board):
        for c, value in enumerate(row):
            for r2, c2 in ((r, c + 1), (r + 1, c)):
                if r2 < len(board) and c2 < len(row) and value and board[r2][c2] == value:
                    return f"chain {r},{c} {r2},{c2}"
    return "undo"


async def time_keys(
    moves: int, mode_id: str = "2048", cpu: list[float] | None = None
) -> list[float]:
    """Key to redrawn board, ``moves`` times: the screen's own handler for the key, then
    every line of its board widget. 2048 slides; 2248 joins a pair; drop drops. ``cpu``
    collects the same spans in this thread's CPU time, which a busy machine does not stretch."""
    import dataclasses

    from textual.geometry import Region

    from twofold.core import plugins
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp

    store = open_store()
    store.save_settings(
        dataclasses.replace(
            store.load_settings(), reduced_motion=True, tutorials_seen=("2248", "drop")
        )
    )
    registry = drop_registry() if mode_id == "drop" else plugins.registry()
    # a fixed code: every run times the same games
    app = TwofoldApp(registry, store, mode_id=mode_id, code="KAF3Q0D0")  # type: ignore[arg-type]
    timings: list[float] = []
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        board = screen.board  # type: ignore[attr-defined]  # the one board, whatever the mode
        region = Region(0, 0, board.size.width, board.size.height)
        depth = len(app.screen_stack)
        directions = ["left", "down", "right", "down"]
        for number in range(moves):
            session = screen.session  # type: ignore[attr-defined]
            if session.game.over:
                session.new_game()
            if mode_id == "2248":
                action = chain_key(session.game.state)
                began, began_cpu = time.perf_counter(), time.thread_time()
                screen.act(action)  # type: ignore[attr-defined]
            elif mode_id == "drop":
                began, began_cpu = time.perf_counter(), time.thread_time()
                screen.place((0, number % 5))  # type: ignore[attr-defined]
            else:
                began, began_cpu = time.perf_counter(), time.thread_time()
                screen.play(directions[number % 4])  # type: ignore[attr-defined]
            board.render_lines(region)
            timings.append(time.perf_counter() - began)
            if cpu is not None:
                cpu.append(time.thread_time() - began_cpu)
            screen.finish_animation()  # type: ignore[attr-defined]
            if app.screen_stack[-1] is not screen:  # a dialog (game over): untimed, closed
                await pilot.pause()
                while len(app.screen_stack) > depth:
                    app.pop_screen()
                await pilot.pause()
    store.close()
    return timings


def figures(ms: list[float]) -> str:
    ms = sorted(ms)
    return (
        f"median {statistics.median(ms):.2f} ms, p99 {ms[max(0, int(len(ms) * 0.99) - 1)]:.2f} ms,"
        f" max {ms[-1]:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument(
        "--modes", default="2048,2248,drop", help="modes to time a key in (2048, 2248, drop)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["TWOFOLD_HOME"] = home
        starts = time_starts(args.starts, home) if args.starts else []
        cpu: dict[str, list[float]] = {mode: [] for mode in args.modes.split(",")}
        keys = {mode: asyncio.run(time_keys(args.moves, mode, cpu[mode])) for mode in cpu}
    if starts:
        print(
            f"start-up to menu: median {statistics.median(starts):.2f} s, max {max(starts):.2f} s"
        )
    for mode, timings in keys.items():
        ms = [t * 1000 for t in timings]
        print(f"key to redrawn board, {mode} ({len(ms)} keys): {figures(ms)}")
        print(f"  the same in CPU time: {figures([t * 1000 for t in cpu[mode]])}")


if __name__ == "__main__":
    main()
