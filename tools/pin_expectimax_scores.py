"""Pin the Python 2048 search's scores on a few deep boards, for tests/classic2048.

    python tools/pin_expectimax_scores.py      # rewrites tests/classic2048/expectimax_scores.json

The test compares the compiled search (_expectimax.c) with these numbers instead of running
the Python search at depth 9 again on every test run (seconds each). Run this again, and
commit the file, whenever the heuristic, the pruning or the search itself changes.
"""

from __future__ import annotations

import json
from pathlib import Path

from twofold.variants.classic2048.slide import engine
from twofold.variants.classic2048.solver import Solver

OUT = Path(__file__).resolve().parent.parent / "tests" / "classic2048" / "expectimax_scores.json"

#: (exponents row by row, depth): crowded boards of many kinds of tile, where the default
#: depth is deepest
BOARDS = [
    ([[2, 4, 8, 3], [11, 10, 9, 5], [12, 0, 1, 0], [13, 0, 0, 1]], 9),
    ([[1, 2, 3, 4], [8, 7, 6, 5], [9, 0, 0, 1], [0, 0, 2, 0]], 7),
    ([[6, 5, 4, 1], [7, 2, 3, 0], [8, 9, 1, 0], [10, 0, 0, 2]], 8),
]


def main() -> None:
    solver = Solver(4, compiled=False)
    pins = []
    for rows, depth in BOARDS:
        packed = engine(4).pack(rows)
        pins.append({"board": rows, "depth": depth, "scores": solver.scores(packed, depth)})
    # one board a line; json writes each float exactly (repr), so it reads back equal
    lines = ",\n".join("  " + json.dumps(pin) for pin in pins)
    text = f'{{"made_by": "tools/pin_expectimax_scores.py", "pins": [\n{lines}\n]}}\n'
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(pins)} boards to {OUT}")


if __name__ == "__main__":
    main()
