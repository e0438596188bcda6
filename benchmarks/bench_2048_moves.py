"""Moves per second of the 2048 engine: the pure slide, and full ``Rules.apply``.

Boards come from real play (random moves from fixed codes, so runs are comparable);
each board is moved in all four directions. Target: at least 500,000 pure
moves per second on 4x4, the larger sizes no worse than five times slower.

    .venv/bin/python benchmarks/bench_2048_moves.py [--seconds 1.0]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from rich.console import Console
from rich.table import Table

from twofold.variants.classic2048.rules import ClassicRules, SlideState
from twofold.variants.classic2048.slide import DIRECTIONS, engine

TARGET = 500_000


def positions(size: int, count: int = 2000) -> list[SlideState]:
    """States met in play: random-looking moves (driven by the deal) from fixed codes."""
    rules = ClassicRules(size)
    found: list[SlideState] = []
    game = 0
    while len(found) < count:
        state = rules.new_game(f"BENCH{size}{game:03d}")
        step = 0
        while len(found) < count and not rules.is_over(state):
            outcome = rules.apply(state, DIRECTIONS[(state.draws * 7 + step) % 4])
            step += 1
            if outcome.changed:
                state = outcome.state
                found.append(state)
        game += 1
    return found


def rate(work: Callable[[], int], seconds: float) -> float:
    """Moves per second of ``work`` (which returns how many moves it made), best of 3."""
    best = 0.0
    for _ in range(3):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            done += work()
        best = max(best, done / (time.perf_counter() - start))
    return best


def measure(size: int, seconds: float) -> tuple[float, float]:
    states = positions(size)
    boards = [s.packed for s in states]
    moves = [engine(size).moves[d] for d in DIRECTIONS]
    rules = ClassicRules(size)

    def pure() -> int:
        for move in moves:
            for board in boards:
                move(board)
        return 4 * len(boards)

    def full() -> int:
        for direction in DIRECTIONS:
            for state in states[:500]:
                rules.apply(state, direction)
        return 4 * 500

    pure()  # fill the lazily built tables first: steady play, not the first game
    return rate(pure, seconds), rate(full, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5, help="time per measurement")
    args = parser.parse_args()
    table = Table(title="2048 moves per second (one core)")
    table.add_column("board")
    table.add_column("pure slide", justify="right")
    table.add_column("time vs 4x4", justify="right")
    table.add_column("Rules.apply", justify="right")
    base = 0.0
    for size in (4, 5, 6):
        pure, full = measure(size, args.seconds)
        base = base or pure
        table.add_row(f"{size}x{size}", f"{pure:,.0f}", f"{base / pure:.1f}x", f"{full:,.0f}")
    console = Console()
    console.print(table)
    verdict = "meets" if base >= TARGET else "MISSES"
    console.print(f"4x4 pure slide {verdict} the target of {TARGET:,} moves per second.")


if __name__ == "__main__":
    main()
