"""The 2248 autoplayer against the obvious player (always take the hint) on Daily codes.

Both play the same Daily games (30 merges, 1 Hammer and 1 Swap) of consecutive dates
from 2026-01-01; the table gives each player's mean and median score and the
autoplayer's gain. Target: the autoplayer's mean score at least 20% above
the hint player's over 50 codes. Games run over every core by default.

    .venv/bin/python benchmarks/bench_2248_autoplay.py [--games 50] [--workers N] [--depth D]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import date, timedelta

from rich.console import Console
from rich.table import Table

from twofold.core.autoplay import play_out
from twofold.core.daily import daily_code
from twofold.core.plugins import registry
from twofold.ui.command.solve import every_core
from twofold.variants.chain2248.autoplay import chain_action
from twofold.variants.chain2248.hint import best_chain
from twofold.variants.chain2248.state import ChainState

MODE = "2248-daily"
FIRST_DAY = date(2026, 1, 1)


class HintPlayer:
    """The obvious player: the hint's chain every time, and nothing else."""

    def choose(self, state: ChainState) -> str | None:
        rules = registry().mode(MODE).rules
        if rules.is_spent(state):  # type: ignore[attr-defined]
            return None
        chain = best_chain(state.board)
        return chain_action(chain) if chain else None


def play(player: str, code: str, depth: int | None) -> tuple[int, int, float]:
    """One game: (score, largest tile, CPU seconds)."""
    mode = registry().mode(MODE)
    assert mode.autoplayer is not None
    chooser = HintPlayer() if player == "hint" else mode.autoplayer(depth)
    game = play_out(mode, code, chooser)
    return game.score, game.largest, game.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--workers", type=int, default=every_core())
    parser.add_argument("--depth", type=int, default=None, help="the autoplayer's look-ahead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    codes = [daily_code(MODE, FIRST_DAY + timedelta(days=n)) for n in range(args.games)]
    started = time.monotonic()
    results: dict[str, list[tuple[int, int, float]]] = {}
    with ProcessPoolExecutor(args.workers) as pool:
        for player in ("hint", "auto"):
            results[player] = list(
                pool.map(play, [player] * len(codes), codes, [args.depth] * len(codes))
            )
    wall = time.monotonic() - started
    hint = [score for score, _, _ in results["hint"]]
    auto = [score for score, _, _ in results["auto"]]
    table = Table(title=f"2248 Daily, {len(codes)} codes from {FIRST_DAY}")
    table.add_column("")
    table.add_column("hint player", justify="right")
    table.add_column("autoplayer", justify="right")
    table.add_row("mean score", f"{statistics.fmean(hint):,.0f}", f"{statistics.fmean(auto):,.0f}")
    table.add_row(
        "median score", f"{statistics.median(hint):,.0f}", f"{statistics.median(auto):,.0f}"
    )
    table.add_row(
        "largest tile",
        str(max(t for _, t, _ in results["hint"])),
        str(max(t for _, t, _ in results["auto"])),
    )
    table.add_row(
        "CPU seconds a game",
        f"{statistics.fmean(s for _, _, s in results['hint']):.2f}",
        f"{statistics.fmean(s for _, _, s in results['auto']):.2f}",
    )
    wins = sum(a > h for a, h in zip(auto, hint, strict=True))
    gain = statistics.fmean(auto) / statistics.fmean(hint) - 1
    table.add_row("autoplayer better on", "", f"{wins} of {len(codes)}")
    table.add_row("mean gain", "", f"{gain:+.0%}")
    Console().print(table)
    print(f"wall {wall:.0f} s on {args.workers} workers")
    if args.json:
        print(json.dumps({"codes": codes, "hint": hint, "auto": auto, "gain": gain}))


if __name__ == "__main__":
    main()
