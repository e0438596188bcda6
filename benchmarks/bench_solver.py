"""How well and how fast the 2048 solver plays, on one core.

Plays fixed codes (so runs are comparable) until each game ends, and reports the share
of games reaching 2048, 4096, 8192 and 16384, the mean and median score, and moves per
second. Target (SPEC 8): 2048 in at least 90% of 4x4 games at 20 moves per second or more.

Whole games to 8192 take thousands of moves, so ``--minutes`` stops starting new games
after a time budget; the table says how many games finished. ``--stop-at 2048`` ends each
game when it reaches that tile, to measure the 2048 share over more games in the same time.

    .venv/bin/python benchmarks/bench_solver.py [--games 50] [--minutes 10] [--stop-at TILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time

from rich.console import Console
from rich.table import Table

from twofold.core.codes import code_from_text
from twofold.variants.classic2048.rules import ClassicRules
from twofold.variants.classic2048.solver import (
    MILESTONES,
    SolvedGame,
    Solver,
    summarise,
)


def play(rules: ClassicRules, code: str, solver: Solver, stop_at: int | None) -> SolvedGame:
    state = rules.new_game(code)
    started = time.process_time()  # CPU time: the machine is shared, wall time is not ours
    while stop_at is None or state.largest < stop_at:
        direction = solver.choose(state)
        if direction is None:
            break
        state = rules.apply(state, direction).state
    return SolvedGame(code, state.score, state.largest, state.moves, time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--minutes", type=float, default=10.0, help="start no game after this")
    parser.add_argument("--depth", type=int, default=None, help="fixed depth (default adaptive)")
    parser.add_argument("--stop-at", type=int, default=None, help="end each game at this tile")
    parser.add_argument("--first", type=int, default=0, help="number of the first game's code")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args()

    rules = ClassicRules(args.size)
    solver = Solver(args.size, args.depth)
    console = Console(stderr=True)
    games: list[SolvedGame] = []
    deadline = time.monotonic() + args.minutes * 60
    for number in range(args.first, args.first + args.games):
        if time.monotonic() > deadline:
            break
        game = play(rules, code_from_text(f"bench-solver:{number}"), solver, args.stop_at)
        games.append(game)
        console.print(
            f"game {number}: largest {game.largest}, score {game.score}, {game.moves} moves, "
            f"{game.moves / game.seconds:.1f} moves/s"
        )
    summary = summarise(games)
    depth = "adaptive" if args.depth is None else str(args.depth)
    stop = f", each stopped at {args.stop_at}" if args.stop_at else ""
    table = Table(title=f"2048 solver, {args.size}x{args.size}, depth {depth}{stop}")
    table.add_column("games")
    table.add_column(f"{summary['games']} of {args.games} asked", justify="right")
    for tile in MILESTONES:
        table.add_row(f"reached {tile}", f"{summary['reached'][str(tile)]:.0%}")
    table.add_row("mean score", f"{summary['mean_score']:,.0f}")
    table.add_row("median score", f"{summary['median_score']:,.0f}")
    table.add_row("largest tile", str(summary["largest"]))
    table.add_row("moves", f"{summary['moves']:,}")
    table.add_row("moves per CPU second", f"{summary['moves_per_second']:,.1f}")
    Console().print(table)
    if args.json:
        summary["results"] = [dataclasses.asdict(g) for g in games]
        print(json.dumps(summary))


if __name__ == "__main__":
    main()
