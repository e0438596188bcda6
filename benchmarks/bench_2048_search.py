"""The 2048 solver's 4x4 search, compiled against Python: the same scores, how much sooner.

Scores the four moves of fixed boards (random ones with a third of the cells empty, and
crowded late-game ones) at several depths with both searches, checks that they agree
to the last bit, and prints milliseconds per decision for each and the ratio.

    .venv/bin/python benchmarks/bench_2048_search.py [--boards N]
"""

from __future__ import annotations

import argparse
import random
import time

from rich.console import Console
from rich.table import Table

from twofold.variants.classic2048.slide import engine
from twofold.variants.classic2048.solver import Solver

SNAKE = (0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12)


def open_boards(count: int, rng: random.Random) -> list[int]:
    """Boards of tiles up to 2048, about a third of the cells empty."""
    choices = [0] * 6 + list(range(1, 12))
    return [
        engine(4).pack([[rng.choice(choices) for _ in range(4)] for _ in range(4)])
        for _ in range(count)
    ]


def late_boards(count: int, rng: random.Random) -> list[int]:
    """Late-game boards: ten big tiles laid in a snake, small ones and three gaps after."""
    boards = []
    for _ in range(count):
        top = rng.randint(11, 13)
        tail = [rng.randint(1, 4) for _ in range(3)] + [0] * 3
        rng.shuffle(tail)
        cells = [0] * 16
        for place, exponent in zip(SNAKE, [*range(top, top - 10, -1), *tail], strict=True):
            cells[place] = exponent
        boards.append(engine(4).pack([cells[r * 4 : r * 4 + 4] for r in range(4)]))
    return boards


def timed(solver: Solver, boards: list[int], depth: int | None) -> tuple[float, list[object]]:
    started = time.process_time()
    found: list[object] = [solver.scores(b, depth) for b in boards]
    return (time.process_time() - started) / len(boards), found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=12)
    args = parser.parse_args()
    compiled, python = Solver(4), Solver(4, compiled=False)
    if not compiled.compiled:
        raise SystemExit("the compiled search is not built here (see setup.py)")
    rng = random.Random(2048)
    table = Table(title="4x4 search: ms per decision (CPU)")
    for column in ("boards", "depth", "compiled", "python", "python / compiled", "same scores"):
        table.add_column(column, justify="right")
    runs = [("open", open_boards(args.boards, rng), d) for d in (3, 4, 5)]
    runs.append(("late", late_boards(max(2, args.boards // 4), rng), None))
    for name, boards, depth in runs:
        fast, fast_found = timed(compiled, boards, depth)
        slow, slow_found = timed(python, boards, depth)
        table.add_row(
            name,
            "default" if depth is None else str(depth),
            f"{fast * 1000:.2f}",
            f"{slow * 1000:.1f}",
            f"{slow / fast:.0f}x",
            "yes" if fast_found == slow_found else "NO",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
