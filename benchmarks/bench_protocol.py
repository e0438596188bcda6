"""Throughput of the JSON line protocol as a game grows (flat: a save writes what changed).

One game per mode is played through the ``--json`` front end on a real database in a
temporary folder, one command at a time: 2048 moves (a corner strategy; when the
board is stuck, ``undo`` and the same move again, so the log keeps growing) and 2248
chains (the lowest pair of touching equal tiles). The rate is the commands per second
over the window of commands ending at the 1,000th and at the 10,000th action.
Target: the 10,000th no slower than 1.5x the 1,000th.

    nice -n 19 .venv/bin/python benchmarks/bench_protocol.py [--actions 10000] [--window 200]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import open_store
from twofold.ui.lines import JsonFront

TARGET = 1.5
CORNER = ("down", "left", "right", "up")


class Discard:
    """A stdout that keeps nothing (the replies are built and encoded, then dropped)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def slide_command(session: Session, last: list[str]) -> str:
    game = session.game
    if game.over:
        return "undo"
    for word in CORNER:
        if game.mode.rules.apply(game.state, word).changed:
            return word
    return "undo"


def chain_command(session: Session, last: list[str]) -> str:
    game = session.game
    board = game.state.board
    best: tuple[int, str] | None = None
    rows, cols = len(board), len(board[0])
    for r in range(rows):
        for c in range(cols):
            value = board[r][c]
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                rr, cc = r + dr, c + dc
                touching = 0 <= rr < rows and 0 <= cc < cols and board[rr][cc] == value
                if value and touching and (best is None or value < best[0]):
                    best = (value, f"chain {r},{c} {rr},{cc}")
    if best is not None:
        return best[1]
    return "shuffle" if game.state.powerups.get("shuffle") else "undo"


def play(mode_id: str, policy: Callable[[Session, list[str]], str], actions: int) -> list[float]:
    """Seconds per command for ``actions`` commands of one growing game."""
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder))
        session = Session(registry().mode(mode_id), store)
        front = JsonFront(session, Discard())  # type: ignore[arg-type]
        session.game.resume()
        times: list[float] = []
        last: list[str] = []
        while len(times) < actions:
            command = policy(session, last)
            start = time.perf_counter()
            front.command(command)
            times.append(time.perf_counter() - start)
            last.append(command)
            if session.game.over and command == "undo" and not session.game.can_undo:
                raise SystemExit(f"{mode_id}: the game ended at action {len(times)}")
        kept = len(session.game.log)
        session.close()
        store.close()
    print(f"{mode_id}: {actions} commands, {kept} actions in the log")
    return times


def rate(times: list[float], end: int, window: int) -> float:
    chunk = sorted(times[end - window : end])
    # the median of the window: one slow fsync or a busy neighbour must not decide it
    return 1.0 / chunk[len(chunk) // 2]


def main(argv: Any = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=200)
    args = parser.parse_args(argv)
    os.environ.setdefault("TWOFOLD_LANGUAGE", "en")
    worst = 0.0
    print(f"{'mode':8} {'at 1,000':>12} {'at ' + format(args.actions, ','):>12} {'ratio':>6}")
    for mode_id, policy in (("2048", slide_command), ("2248", chain_command)):
        times = play(mode_id, policy, args.actions)
        early = rate(times, 1000, args.window)
        late = rate(times, args.actions, args.window)
        ratio = early / late
        worst = max(worst, ratio)
        print(f"{mode_id:8} {early:10.0f}/s {late:10.0f}/s {ratio:6.2f}")
    print(f"slowest ratio {worst:.2f} (target at most {TARGET})")
    return 0 if worst <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
