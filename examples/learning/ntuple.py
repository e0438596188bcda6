"""An n-tuple network that learns 2048 by TD(0) on afterstates, on ``twofold/2048-v0``.

The method of Szubert and Jaśkowski (2014), "Temporal difference learning of N-tuple
networks for the game 2048": the value of a board is the sum of 17 weights, one for
each straight line of four cells (4 rows, 4 columns) and each 2x2 square (9), looked up
by the exponents in those cells. The agent plays the move whose *afterstate* (the board
after the slide, before the new tile) has the best reward plus value, and after each
move pulls the value of the afterstate it left towards what the next move found:
``V(s') += alpha * (r' + V(s'') - V(s'))``, ``0`` past the end of the game.

It needs numpy and twofold's ``rl`` extra only. The slide it plans with is its own (it
must see afterstates, which the environment does not show); the reward the
environment pays for each move is checked against it.

    python examples/learning/ntuple.py --minutes 4 --out examples/learning/curve.json
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import gymnasium as gym
import numpy as np

import twofold.rl  # noqa: F401 (registers twofold/2048-v0)

ROW = 0xFFFF
LEFT, RIGHT, UP, DOWN = range(4)  # the environment's actions: left, right, up, down
#: the 17 tuples: rows and columns (read off a row of the board or of its transpose), squares
SQUARES = tuple((r, c) for r in range(3) for c in range(3))
SHIFTS = np.array([16 * r + 4 * c for r in range(4) for c in range(4)], dtype=np.uint64)


def _slide_row(cells: list[int]) -> tuple[list[int], int]:
    """One row of exponents pushed to the left: the row after, and the score it makes."""
    tiles = [e for e in cells if e]
    out: list[int] = []
    gain = 0
    while tiles:
        e = tiles.pop(0)
        if tiles and tiles[0] == e and e < 15:
            tiles.pop(0)
            out.append(e + 1)
            gain += 1 << (e + 1)
        else:
            out.append(e)
    return out + [0] * (4 - len(out)), gain


def _tables() -> tuple[list[int], list[int], list[int]]:
    """Every 16-bit row moved left and right, and the score each move makes."""
    left, right, gain = [0] * 65536, [0] * 65536, [0] * 65536
    for row in range(65536):
        cells = [(row >> (4 * c)) & 15 for c in range(4)]
        moved, made = _slide_row(cells)
        back, _made = _slide_row(cells[::-1])
        left[row] = sum(e << (4 * c) for c, e in enumerate(moved))
        right[row] = sum(e << (4 * c) for c, e in enumerate(back[::-1]))
        gain[row] = made
    return left, right, gain


LEFT_ROWS, RIGHT_ROWS, GAIN = _tables()


def transpose(b: int) -> int:
    """Cell (r, c) to (c, r) of a board packed four bits a cell, row r at bit 16 r."""
    a1 = b & 0xF0F00F0FF0F00F0F
    a2 = b & 0x0000F0F00000F0F0
    a3 = b & 0x0F0F00000F0F0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00FF0000FF00FF
    b2 = a & 0x00FF00FF00000000
    b3 = a & 0x00000000FF00FF00
    return b1 | (b2 >> 24) | (b3 << 24)


def pack(observation: np.ndarray) -> int:
    """The environment's board of exponents (4 x 4, uint8) as one integer."""
    return int((np.minimum(observation, 15).astype(np.uint64).ravel() << SHIFTS).sum())


def afterstate(b: int, action: int) -> tuple[int, int]:
    """The board after a move, before the new tile, and the score the move makes."""
    t = action >= UP
    if t:
        b = transpose(b)
    table = RIGHT_ROWS if action in (RIGHT, DOWN) else LEFT_ROWS
    after, gain = 0, 0
    for r in range(4):
        row = (b >> (16 * r)) & ROW
        after |= table[row] << (16 * r)
        gain += GAIN[row if action in (LEFT, UP) else _reverse(row)]
    return (transpose(after) if t else after), gain


def _reverse(row: int) -> int:
    return ((row & 15) << 12) | ((row >> 4 & 15) << 8) | ((row >> 8 & 15) << 4) | (row >> 12)


class NTuple:
    """The 17 tuples' weights, and the value of a board."""

    def __init__(self, alpha: float = 0.005) -> None:
        self.alpha = alpha
        self.weights = [[0.0] * 65536 for _ in range(17)]

    @staticmethod
    def features(b: int) -> list[int]:
        rows = [(b >> (16 * r)) & ROW for r in range(4)]
        t = transpose(b)
        columns = [(t >> (16 * r)) & ROW for r in range(4)]
        squares = [
            ((rows[r] >> (4 * c)) & 0xFF) | (((rows[r + 1] >> (4 * c)) & 0xFF) << 8)
            for r, c in SQUARES
        ]
        return rows + columns + squares

    def value(self, b: int) -> float:
        w = self.weights
        return sum(w[i][f] for i, f in enumerate(self.features(b)))

    def learn(self, b: int, target: float) -> None:
        features = self.features(b)
        w = self.weights
        error = target - sum(w[i][f] for i, f in enumerate(features))
        step = self.alpha * error
        for i, f in enumerate(features):
            w[i][f] += step

    def choose(self, b: int, mask: np.ndarray) -> tuple[int, int, int] | None:
        """The best legal move: its action, afterstate and score; None when none is legal."""
        best: tuple[float, int, int, int] | None = None
        for action in np.flatnonzero(mask):
            after, gain = afterstate(b, int(action))
            worth = gain + self.value(after)
            if best is None or worth > best[0]:
                best = (worth, int(action), after, gain)
        return None if best is None else best[1:]

    def save(self, path: Path) -> None:
        np.save(path, np.array(self.weights, dtype=np.float32))


def play(
    env: gym.Env,
    choose: Callable[[int, np.ndarray], tuple[int, int, int] | None],
    learner: NTuple | None,
    options: dict[str, str] | None = None,
    seed: int | None = None,
) -> tuple[int, int]:
    """One game: its score and its largest tile's exponent. ``learner`` learns from it."""
    observation, info = env.reset(seed=seed, options=options)
    b = pack(observation)
    previous: int | None = None
    score = 0
    while True:
        picked = choose(b, info["action_mask"])
        if picked is None:
            break
        action, after, gain = picked
        if learner is not None and previous is not None:
            learner.learn(previous, gain + learner.value(after))
        observation, reward, over, _cut, info = env.step(action)
        assert reward == gain, f"the agent's slide made {gain}, the environment paid {reward}"
        score += int(reward)
        previous, b = after, pack(observation)
        if over:
            break
    if learner is not None and previous is not None:
        learner.learn(previous, 0.0)
    return score, int(observation.max())


def random_player(seed: int) -> Callable[[int, np.ndarray], tuple[int, int, int] | None]:
    rng = np.random.default_rng(seed)

    def choose(b: int, mask: np.ndarray) -> tuple[int, int, int] | None:
        legal = np.flatnonzero(mask)
        if not len(legal):
            return None
        action = int(legal[rng.integers(len(legal))])
        return (action, *afterstate(b, action))

    return choose


def train(
    seconds: float,
    every: int = 50,
    alpha: float = 0.005,
    seed: int = 0,
    report: Callable[[dict[str, float]], None] | None = None,
) -> tuple[NTuple, list[dict[str, float]]]:
    """Learn for ``seconds`` of CPU time; the curve: per ``every`` games, their mean score
    and the share reaching 2048."""
    env = gym.make("twofold/2048-v0", results=False)  # no proof an episode: faster
    agent = NTuple(alpha)
    curve: list[dict[str, float]] = []
    scores: list[int] = []
    tops: list[int] = []
    start = time.process_time()
    games = 0
    env.reset(seed=seed)
    while time.process_time() - start < seconds:
        score, top = play(env, agent.choose, agent)
        games += 1
        scores.append(score)
        tops.append(top)
        if games % every == 0:
            point = {
                "games": games,
                "mean_score": float(np.mean(scores[-every:])),
                "reached_2048": float(np.mean([t >= 11 for t in tops[-every:]])),
                "cpu_minutes": (time.process_time() - start) / 60,
            }
            curve.append(point)
            if report is not None:
                report(point)
    return agent, curve


def mean_score(env: gym.Env, choose: Callable, codes: Iterable[str]) -> float:
    """The mean score of a player over the games of ``codes`` (it does not learn)."""
    return float(np.mean([play(env, choose, None, {"code": code})[0] for code in codes]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=4.0, help="CPU minutes of learning")
    parser.add_argument("--every", type=int, default=50, help="games per point of the curve")
    parser.add_argument("--alpha", type=float, default=0.005)
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("curve.json"))
    args = parser.parse_args(argv)
    agent, curve = train(
        args.minutes * 60, args.every, args.alpha, report=lambda p: print(json.dumps(p), flush=True)
    )
    env = gym.make("twofold/2048-v0")
    # held-out games: codes from seeds the learning never met
    codes = [env.reset(seed=10_000 + i)[1]["code"] for i in range(50)]
    learned = mean_score(env, agent.choose, codes)
    chance = mean_score(env, random_player(0), codes)
    summary = {
        "curve": curve,
        "held_out": {"codes": len(codes), "agent": learned, "random": chance},
    }
    args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary["held_out"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
