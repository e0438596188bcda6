"""Replay one of bench_solver.py's 2048 games and show its last positions, move by move.

Game n is the code of ``bench-solver:n``, as in bench_solver.py, so a game that table names
as lost before its tile can be read here: each line is the move number, the depth the
search chose, the empty cells, the move, and the board (rows top first, "." empty)::

    .venv/bin/python benchmarks/replay_solver.py 60007 [--last 80] [--every 2] [--stop-at 4096]
"""

from __future__ import annotations

import argparse

from twofold.core._rules import largest_tile
from twofold.core.codes import code_from_text
from twofold.core.plugins import registry
from twofold.variants.classic2048.solver import Solver


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("number", type=int, help="the game: code bench-solver:NUMBER")
    parser.add_argument("--last", type=int, default=60, help="how many positions to show")
    parser.add_argument("--every", type=int, default=1, help="show one position in so many")
    parser.add_argument("--stop-at", type=int, default=None, help="end the game at this tile")
    args = parser.parse_args()

    rules = registry().mode("2048").rules
    solver = Solver(4)
    state = rules.new_game(code_from_text(f"bench-solver:{args.number}"))
    lines: list[str] = []
    while args.stop_at is None or largest_tile(state.board) < args.stop_at:
        move = solver.choose(state)
        empty = sum(1 for row in state.board for value in row if not value)
        rows = " | ".join(" ".join(f"{v or '.':>5}" for v in row) for row in state.board)
        depth = solver.depth_for(state.packed)
        lines.append(f"{state.moves:6} d{depth} e{empty:<2} {move or '-':5} | {rows}")
        if move is None:
            break
        state = rules.apply(state, move).state
    print("\n".join(lines[-args.last :: args.every]))
    print(
        f"game {args.number}: largest {largest_tile(state.board)}, score {state.score}, "
        f"{state.moves} moves"
    )


if __name__ == "__main__":
    main()
