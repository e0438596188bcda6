"""How well and how fast the 2048 solver plays, over every core.

Plays fixed codes (so runs are comparable) until each game ends, in worker processes,
and reports the share of games reaching 2048, 4096, 8192 and 16384, the mean and median
score, moves per CPU second of one game (each game runs on one core) and the wall time
of the whole run (which ``--workers`` divides). Targets: over 50 full 4x4
games, 8192 in at least 85% and 16384 in at least 35%, at 20 moves per second or more.

``--minutes`` stops the run after a time budget (the table says how many games
finished); ``--stop-at 2048`` ends each game when it reaches that tile, and the table
names every game lost before it; ``--depth`` fixes the search depth (adaptive otherwise).

Game n plays the code ``code_from_text("bench-solver:n")``; ``--first`` picks where the
range starts and ``--numbers`` replays chosen games. The benchmark's own games are 0-49.
Which ranges are fresh, which were used to tune the search, and what each measured, is in
``benchmarks/README.md``: take a fresh range from there, and record it there once used.
``replay_solver.py`` shows a game's positions::

    .venv/bin/python benchmarks/bench_solver.py [--games 50] [--first N | --numbers N,M]
        [--workers N] [--depth D] [--stop-at TILE] [--minutes M] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time

from rich.console import Console
from rich.table import Table

from twofold.core.autoplay import PlayedGame, milestones, summarise
from twofold.core.codes import code_from_text
from twofold.core.plugins import registry
from twofold.ui.command.solve import every_core
from twofold.ui.command.solve_runners import in_processes


class OutOfTime(Exception):
    """The time budget is spent: the pool stops (see in_processes)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="2048", help="a mode with an autoplayer")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=every_core(), help="default: every core")
    parser.add_argument("--minutes", type=float, default=600.0, help="stop after this")
    parser.add_argument("--depth", type=int, default=None, help="fixed depth (default adaptive)")
    parser.add_argument("--stop-at", type=int, default=None, help="end each game at this tile")
    parser.add_argument("--first", type=int, default=0, help="number of the first game's code")
    parser.add_argument("--numbers", type=numbers_list, default=None, help="games n,m,...")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = parser.parse_args()

    mode = registry().mode(args.mode)
    console = Console(stderr=True)
    numbers = args.numbers or range(args.first, args.first + args.games)
    codes = [code_from_text(f"bench-solver:{n}") for n in numbers]
    finished: dict[int, PlayedGame] = {}
    started = time.monotonic()
    deadline = started + args.minutes * 60

    def done(index: int, game: PlayedGame) -> None:
        finished[index] = game
        console.print(
            f"game {numbers[index]}: largest {game.largest}, score {game.score}, "
            f"{game.moves} moves, {game.moves / max(game.seconds, 1e-9):.1f} moves/s"
        )
        if time.monotonic() > deadline:
            raise OutOfTime

    with contextlib.suppress(OutOfTime, KeyboardInterrupt):  # a partial table is the point
        in_processes(mode.id, codes, args.depth, args.stop_at, args.workers, done)
    wall = time.monotonic() - started
    played = sorted(finished)
    games = [finished[i] for i in played]
    summary = summarise(games, milestones(mode))
    depth = "adaptive" if args.depth is None else str(args.depth)
    stop = f", each stopped at {args.stop_at}" if args.stop_at else ""
    table = Table(title=f"{mode.id} autoplayer, depth {depth}{stop}, {args.workers} workers")
    table.add_column("games")
    table.add_column(f"{summary['games']} of {len(numbers)} asked", justify="right")
    for tile, share in summary["reached"].items():
        table.add_row(f"reached {tile}", f"{share:.0%}")
    table.add_row("mean score", f"{summary['mean_score']:,.0f}")
    table.add_row("median score", f"{summary['median_score']:,.0f}")
    table.add_row("largest tile", str(summary["largest"]))
    if args.stop_at:
        lost = [
            f"{numbers[i]} ({finished[i].largest})"
            for i in played
            if finished[i].largest < args.stop_at
        ]
        table.add_row(
            f"lost before {args.stop_at}", f"{len(lost)}: {', '.join(lost)}" if lost else "none"
        )
    table.add_row("moves", f"{summary['moves']:,}")
    table.add_row("moves per CPU second, one game", f"{summary['moves_per_second']:,.1f}")
    table.add_row("wall seconds, whole run", f"{wall:,.1f}")
    Console().print(table)
    if args.json:
        summary["wall_seconds"] = wall
        summary["workers"] = args.workers
        summary["results"] = [
            {**finished[i].result(), "seconds": finished[i].seconds, "number": numbers[i]}
            for i in played
        ]
        print(json.dumps(summary))


def numbers_list(text: str) -> list[int]:
    """``--numbers 30075,50012``: the games to play, by number."""
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of game numbers: {text!r}") from None


if __name__ == "__main__":
    main()
