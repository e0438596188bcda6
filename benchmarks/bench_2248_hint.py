"""How fast the exact 2248 hint is: boards from real play, then adversarial boards.

Real play: games of Classic 2248 played greedily with the hint itself (the chain it
suggests is merged; a stuck board uses a rescue power-up if one is held). Every
board met on the way is timed. Adversarial: all tiles equal, checkerboards,
stripes, ladders, random boards of two or three values, opening boards. Ragged:
random boards of 60 to 90% 2s (fixed seed), the family where the search is slowest.

Slow: the slowest boards an adversarial search found (pinned with their answers,
checked on every run), timed warm and then each in a fresh process, before any cache
fills; and with ``--search N`` a new search: N random boards over 2, 4 and 8 (and
sometimes 16) with random weights, then hill-climbing on the time from the slowest three.

Targets: median under 5 ms and 99th percentile under 50 ms over
boards from real play; no board over 200 ms.

    python benchmarks/bench_2248_hint.py [--games N] [--moves N] [--ragged N] [--search N]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from twofold.core.codes import code_from_text
from twofold.variants.chain2248.board import COLS, ROWS
from twofold.variants.chain2248.hint import best_chain, chain_key
from twofold.variants.chain2248.modes import CLASSIC
from twofold.variants.chain2248.state import ChainState

Grid = list[list[int]]


def played_boards(games: int, moves: int) -> Iterator[Grid]:
    """Every board met while the hint plays ``games`` games of up to ``moves`` actions."""
    rules = CLASSIC
    for number in range(games):
        state: ChainState = rules.new_game(code_from_text(f"bench-2248-{number}"))
        for _ in range(moves):
            yield [list(row) for row in state.board]
            chain = rules.hint(state)
            if chain is None:
                rescues = rules.rescues(state)
                if "shuffle" in rescues:
                    state = rules.apply(state, "shuffle").state
                    continue
                break
            action = "chain " + " ".join(f"{r},{c}" for r, c in chain)
            state = rules.apply(state, action).state


def adversarial_boards() -> Iterator[tuple[str, Grid]]:
    def grid(f: object) -> Grid:
        return [[f(r, c) for c in range(COLS)] for r in range(ROWS)]  # type: ignore[operator]

    for v in (2, 64, 1024):
        yield f"all {v}", grid(lambda r, c, v=v: v)
    yield "checkerboard 2/4", grid(lambda r, c: 2 if (r + c) % 2 else 4)
    yield "checkerboard 4/2", grid(lambda r, c: 4 if (r + c) % 2 else 2)
    yield "row stripes 2/4", grid(lambda r, c: 2 if r % 2 else 4)
    yield "column stripes 2/4", grid(lambda r, c: 2 if c % 2 else 4)
    yield "2x2 blocks 2/4", grid(lambda r, c: 2 if (r // 2 + c // 2) % 2 else 4)
    yield "ladder rows", grid(lambda r, c: 2 ** (ROWS - r))
    yield "ladder rows (pairs)", grid(lambda r, c: 2 ** ((ROWS - r + 1) // 2))
    yield "ladder columns", grid(lambda r, c: 2 ** (c + 1))
    yield (
        "ladder snake",
        grid(lambda r, c: 2 ** (1 + (r * COLS + (c if r % 2 else COLS - 1 - c)) // 4)),
    )
    yield "diagonal ladder", grid(lambda r, c: 2 ** (1 + (r + c) // 2))
    yield "checkerboard ladder", grid(lambda r, c: 2 ** (1 + r // 2 + (r + c) % 2))
    yield "2s with a 4 in the middle", grid(lambda r, c: 4 if (r, c) == (4, 2) else 2)
    yield "2s around a wall of 8s", grid(lambda r, c: 8 if r == 4 and c != 2 else 2)
    yield "2s, three arms", grid(lambda r, c: 2 if c == 2 or r in (0, 7) else 8 * (1 + (r + c) % 2))
    rng = random.Random(2248)
    for k in (2, 3, 4):
        for n in range(20):
            yield f"random of {k} values #{n}", grid(lambda r, c, k=k: 2 ** rng.randint(1, k))
    for n in range(30):
        # mostly 2s in ragged shapes: the hardest family found for the exact search
        share = (0.6, 0.7, 0.8)[n % 3]
        yield (
            f"dense 2s {share:.0%} #{n}",
            grid(lambda r, c, share=share: 2 if rng.random() < share else 2 ** rng.randint(2, 3)),
        )
    for n in range(40):
        yield (
            f"opening #{n}",
            [list(row) for row in CLASSIC.new_game(code_from_text(f"open-{n}")).board],
        )


def ragged_boards(count: int, seed: int = 2248) -> Iterator[Grid]:
    """Random boards of 60 to 90% 2s, the rest 4s and 8s: ragged regions of many 2s.

    The family where the exact search is slowest (a big region whose longest path
    falls just short of every bound).
    """
    rng = random.Random(seed)
    for _ in range(count):
        share = rng.uniform(0.6, 0.9)
        yield [
            [2 if rng.random() < share else 2 ** rng.randint(2, 3) for _ in range(COLS)]
            for _ in range(ROWS)
        ]


#: the slowest boards found, with their answers (see the file's "about")
SLOW_PINS = [
    tuple(pin)
    for pin in json.loads((Path(__file__).parent / "slow_hint_boards.json").read_text())["pins"]
]


def pinned(exponents: str) -> Grid:
    return [[2 ** int(exponents[r * COLS + c]) for c in range(COLS)] for r in range(ROWS)]


def search(count: int, climbs: int, seed: int = 16) -> list[tuple[float, Grid]]:
    """Random boards of few values with random weights, then hill-climbing on the time."""
    rng = random.Random(seed)
    found: list[tuple[float, Grid]] = []
    for _ in range(count):
        values = rng.choice([(2, 4), (2, 4, 8), (4, 8), (2, 4, 8, 16)])
        weights = [rng.random() ** 2 for _ in values]
        board = [rng.choices(values, weights, k=COLS) for _ in range(ROWS)]
        found.append((timed(board), board))
    found.sort(key=lambda item: -item[0])
    climbed = []
    for ms, board in found[:3]:
        for _ in range(climbs):
            trial = [row[:] for row in board]
            for _ in range(rng.randint(1, 3)):
                trial[rng.randrange(ROWS)][rng.randrange(COLS)] = rng.choice((2, 4, 8))
            took = timed(trial)
            if took > ms:
                ms, board = took, trial
        climbed.append((ms, board))
    return sorted(found[3:] + climbed, key=lambda item: -item[0])


def summary(times: list[float]) -> str:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return (
        f"  median {statistics.median(times):.2f} ms   p99 {p99:.2f} ms   max {times[-1]:.2f} ms"
        f"   over 200 ms: {sum(t > 200 for t in times)}"
    )


def timed(board: Grid) -> float:
    start = time.perf_counter()
    best_chain(board)
    return (time.perf_counter() - start) * 1000


def cold(exponents: str) -> float:
    """Milliseconds of the hint's first call in a fresh process (nothing cached yet)."""
    script = (
        "import sys, time\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from bench_2248_hint import best_chain, pinned\n"
        "board = pinned(sys.argv[2])\n"
        "start = time.perf_counter()\n"
        "best_chain(board)\n"
        "print((time.perf_counter() - start) * 1000)\n"
    )
    here = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", script, here, exponents], capture_output=True, text=True, check=True
    )
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--ragged", type=int, default=3000, help="ragged mostly-2 boards")
    parser.add_argument("--search", type=int, default=0, help="adversarial boards to try")
    parser.add_argument("--climbs", type=int, default=150, help="hill-climbing steps each")
    args = parser.parse_args()

    times = [timed(board) for board in played_boards(args.games, args.moves)]
    print(f"real play: {len(times)} boards from {args.games} games")
    print(summary(times))

    worst: list[tuple[float, str]] = []
    for name, board in adversarial_boards():
        worst.append((timed(board), name))
    worst.sort(reverse=True)
    print(f"adversarial: {len(worst)} boards")
    print(summary([t for t, _ in worst]))
    for ms, name in worst[:8]:
        print(f"    {ms:8.2f} ms  {name}")

    times = []
    for exponents, tile, length in SLOW_PINS:
        board = pinned(exponents)
        times.append(timed(board))
        answer = chain_key(board, best_chain(board))
        if answer != (tile, length):
            raise SystemExit(f"wrong hint on {exponents}: {answer}, pinned {(tile, length)}")
    print(f"slowest found: {len(times)} pinned boards (answers checked)")
    print(summary(times))
    print("   " + " ".join(f"{t:.0f}" for t in times) + " ms")
    times = [cold(exponents) for exponents, _tile, _length in SLOW_PINS]
    print("the same, each the first call of a fresh process")
    print(summary(times))
    print("   " + " ".join(f"{t:.0f}" for t in times) + " ms")

    if args.search:
        found = search(args.search, args.climbs)
        print(f"adversarial search: {args.search} boards, then hill-climbing")
        print(summary([t for t, _ in found]))
        for ms, board in found[:3]:
            exponents = "".join(str(v.bit_length() - 1) for row in board for v in row)
            print(f"    {ms:8.2f} ms  {exponents}")

    if args.ragged:
        times = [timed(board) for board in ragged_boards(args.ragged)]
        print(f"ragged mostly-2: {len(times)} boards")
        print(summary(times))


if __name__ == "__main__":
    main()
