"""Write ``variants/classic2048/sample.json``: the solver's first 240 moves on fixed codes.

Run once; the file is data, so later solver changes do not alter the Sample. Running it
again after a solver change rewrites the Sample: do that only on purpose.

    .venv/bin/python benchmarks/make_2048_sample.py
"""

from __future__ import annotations

import json
from pathlib import Path

from twofold.core.codes import code_from_text
from twofold.variants.classic2048.rules import ClassicRules
from twofold.variants.classic2048.solver import Solver

MOVES = 240
TARGET = Path(__file__).resolve().parent.parent / "variants" / "classic2048" / "sample.json"


def sample(size: int) -> dict[str, object]:
    rules = ClassicRules(size)
    solver = Solver(size)
    code = code_from_text(f"twofold sample 2048 {size}x{size}")
    state = rules.new_game(code)
    moves: list[str] = []
    while len(moves) < MOVES:
        direction = solver.choose(state)
        if direction is None:
            raise SystemExit(f"the {size}x{size} sample game ended after {len(moves)} moves")
        state = rules.apply(state, direction).state
        moves.append(direction)
    return {
        "code": code,
        "moves": moves,
        "board": [list(row) for row in state.board],
        "score": state.score,
    }


def main() -> None:
    # One sample a line: readable, and a change shows as a one-line diff.
    entries = [f'  "{size}": {json.dumps(sample(size))}' for size in (4, 5, 6)]
    text = '{"samples": {\n' + ",\n".join(entries) + "\n}}\n"
    json.loads(text)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")


if __name__ == "__main__":
    main()
