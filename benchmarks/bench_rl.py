"""Steps per second of twofold's learning environments, beside gymnasium-2048's, pgx's and
jumanji's.

Every environment is made through ``gymnasium.make`` (its wrappers included) and played
by random legal actions: an action drawn from ``info["action_mask"]`` (gymnasium-2048
has no mask: a random action of its four, an illegal move counted in its ``info``),
resetting when an episode ends. The rows take turns, ``--rounds`` times (each round
starting one row later), so a busy machine slows each alike; the table gives each row's
median, of wall time and of the CPU time its process used (the second moves less with the
machine's load: a row waiting for a core spends none), with the load average. Targets:
twofold's 2048 at least twice gymnasium-2048's steps a second, with masks on; the batched
2048 (``vectorization_mode="vector_entry_point"``, 1,024 boards, a random legal move of
each drawn in numpy every step) at least ten times pgx's 2048 jitted and vmapped over
1,024 boards (a random legal move drawn in the jitted call).

gymnasium-2048 is installed for this benchmark only (``pip install gymnasium-2048``), and
pgx and jumanji in an environment of their own (they need jax): ``--jax-python`` (or
``TWOFOLD_BENCH_JAX_PYTHON``) names its Python, which runs ``bench_rl_jax.py`` beside
these rows, turn by turn. None is a dependency of twofold; without them the table has no
side-by-side ratio.

    .venv/bin/python benchmarks/bench_rl.py [--seconds 3] [--rounds 3] [--jax-python P]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import gymnasium as gym
import numpy as np
from rich.console import Console
from rich.table import Table

import twofold.rl

TARGET = 2.0
#: the batched 2048 beside pgx's jitted vmap batch
BATCH_TARGET = 10.0
BOARDS = 1024
JAX_BENCH = Path(__file__).resolve().parent / "bench_rl_jax.py"
#: PICK[mask bits, r]: the legal move number r % (legal moves) of a mask (0 where none is)
PICK = np.array(
    [
        [
            ([d for d in range(4) if bits >> d & 1] or [0])[r % max(1, bin(bits).count("1"))]
            for r in range(12)
        ]
        for bits in range(16)
    ],
    dtype=np.int64,
)
#: times a mask's four bytes (0 or 1, little-endian) as a uint32: bit d of the mask at bit 24 + d
MASK_BITS = np.uint32(1 << 24 | 1 << 17 | 1 << 10 | 1 << 3)
#: steps of random numbers the batch rows draw at once
BLOCK = 64
DROP = Path(__file__).resolve().parents[1] / "examples" / "twofold-drop"
GYMNASIUM_2048 = "gymnasium_2048/TwentyFortyEight-v0"


class Rate(NamedTuple):
    """Steps a second of wall time, and of the CPU time its process used."""

    wall: float
    cpu: float


def timed_turn(run: Callable[[float], float | Rate], seconds: float) -> Rate:
    """One turn of a row, with the CPU time this process spent in it (a row run in another
    process counts its own)."""
    wall, cpu = time.perf_counter(), time.process_time()
    found = run(seconds)
    if isinstance(found, Rate):
        return found
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return Rate(found, found * wall / cpu if cpu > 0 else float("nan"))


def single(
    env_id: str, masked: bool, onehot: bool = False, **kwargs: Any
) -> Callable[[float], float]:
    """Steps a second of one environment over ``seconds`` of wall time."""
    env: gym.Env[Any, Any] = gym.make(env_id, **kwargs)
    if onehot:
        env = twofold.rl.OneHot(env, planes=16)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    actions = env.action_space.n  # type: ignore[attr-defined]

    def run(seconds: float) -> float:
        nonlocal info
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(100):
                if masked:
                    legal = np.flatnonzero(info["action_mask"])
                    action = legal[rng.integers(len(legal))]
                else:
                    action = int(rng.integers(actions))
                _obs, _reward, over, cut, info = env.step(action)
                if over or cut:
                    _obs, info = env.reset()
            steps += 100
        return steps / (time.perf_counter() - start)

    return run


def vector(env_id: str, count: int) -> Callable[[float], float]:
    """Steps a second (over all ``count`` environments) of an async vector environment."""
    envs = gym.make_vec(env_id, num_envs=count, vectorization_mode="async")
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=0)

    def run(seconds: float) -> float:
        nonlocal info
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            # an ended game's row has no legal action: the vector resets it on this step
            legal = [np.flatnonzero(row) for row in info["action_mask"]]
            actions = np.array([rng.choice(row) if len(row) else 0 for row in legal])
            _obs, _rewards, _over, _cut, info = envs.step(actions)
            steps += count
        return steps / (time.perf_counter() - start)

    return run


def batch(env_id: str, count: int, threads: int) -> Callable[[float], float]:
    """Steps a second (over all ``count`` boards) of the batched 2048, random legal moves."""
    envs = gym.make_vec(
        env_id, num_envs=count, vectorization_mode="vector_entry_point", threads=threads
    )
    rng = np.random.default_rng(0)
    _obs, info = envs.reset(seed=0)
    picks = PICK.reshape(-1)
    # random numbers below 12 for BLOCK steps at a time (drawn in the timed loop)
    numbers = np.empty((0, count), np.uint16)

    def run(seconds: float) -> float:
        nonlocal info, numbers
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            if not len(numbers):
                numbers = rng.integers(0, 12, (BLOCK, count), dtype=np.uint16)
            # a random legal move of every board (a board with none is started again): the
            # mask's four bytes as four bits, and a number below 12 (a multiple of 1, 2, 3
            # and 4) pick one
            bits = mask_bits(info["action_mask"])
            actions = picks.take(bits * 12 + numbers[0])
            numbers = numbers[1:]
            _obs, _rewards, _over, _cut, info = envs.step(actions)
            steps += count
        return steps / (time.perf_counter() - start)

    return run


def mask_bits(masks: np.ndarray) -> np.ndarray:
    """Each row of four 0-or-1 bytes as a number of four bits (bit d: move d is legal)."""
    if sys.byteorder == "little":  # the row's bytes as one uint32, its bits gathered at 24
        return (masks.view(np.uint32).reshape(-1) * MASK_BITS) >> 24
    return np.packbits(masks, axis=1, bitorder="little")[:, 0]


class JaxRows:
    """pgx's and jumanji's batches, run by ``bench_rl_jax.py`` in the jax environment."""

    def __init__(self, python: str, boards: int) -> None:
        self.process = subprocess.Popen(
            [python, str(JAX_BENCH), "--serve", "--boards", str(boards)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "JAX_PLATFORMS": "cpu"},
        )
        assert self.process.stdout is not None
        json.loads(self.process.stdout.readline())  # compiled and warmed
        self.last: dict[str, list[float]] = {}

    def run(self, seconds: float) -> dict[str, list[float]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(f"{seconds}\n")
        self.process.stdin.flush()
        self.last = json.loads(self.process.stdout.readline())
        return self.last

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=60)


def drop_env_id() -> str:
    """The drop example registered from the checkout (it is not installed here)."""
    sys.path.insert(0, str(DROP))
    import twofold_drop

    env_id = "twofold/drop-v0"
    if env_id not in gym.registry:
        mode = twofold_drop.modes()[0]
        gym.register(env_id, entry_point=lambda **kwargs: twofold.rl.TwofoldEnv(mode, **kwargs))
    return env_id


def add_single_rows(rows: dict[str, Callable[[float], float]]) -> None:
    try:
        import gymnasium_2048  # noqa: F401

        rows["gymnasium-2048 (4x4, random actions, no mask)"] = single(GYMNASIUM_2048, False)
    except ImportError:
        print("gymnasium-2048 is not installed: no side-by-side ratio", file=sys.stderr)
    rows["twofold/2048-v0 (masks on)"] = single("twofold/2048-v0", True)
    rows["twofold/2048-v0 (masks on, results=False: no proof an episode)"] = single(
        "twofold/2048-v0", True, results=False
    )
    rows["twofold/2048-v0 + OneHot, 4x4x16 (gymnasium-2048's observation)"] = single(
        "twofold/2048-v0", True, onehot=True
    )
    rows["twofold/2248-v0 (taps)"] = single("twofold/2248-v0", True)
    rows["twofold/drop-v0 (the drop example)"] = single(drop_env_id(), True)
    rows["twofold/2048-v0, async vector of 8 (all 8 counted)"] = vector("twofold/2048-v0", 8)


def jax_row(rows: JaxRows, name: str) -> Callable[[float], Rate]:
    """One of the jax environment's two figures: pgx's turn runs both, jumanji's reads it."""

    def run(seconds: float) -> Rate:
        if name == "pgx" or name not in rows.last:
            return Rate(*rows.run(seconds)[name])
        return Rate(*rows.last.pop(name))

    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="each row's turn")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--jax-python",
        default=os.environ.get("TWOFOLD_BENCH_JAX_PYTHON"),
        help="the Python of an environment with jax, pgx and jumanji",
    )
    parser.add_argument("--batch-only", action="store_true", help="the batch rows alone")
    args = parser.parse_args(argv)
    load = os.getloadavg()[0]
    rows: dict[str, Callable[[float], Any]] = {}
    if not args.batch_only:
        add_single_rows(rows)
    made = gym.make_vec("twofold/2048-v0", 1, vectorization_mode="vector_entry_point")
    kind = "compiled" if made.compiled else "in Python: not compiled here"
    # one core, two, and all of them (the batch's parts stepped by as many threads)
    for threads in sorted({1, 2, os.cpu_count() or 1}):
        name = f"twofold/2048-v0 batch of {BOARDS:,} ({kind}, {threads} thread"
        rows[name + ("s)" if threads > 1 else ")")] = batch("twofold/2048-v0", BOARDS, threads)
    jax_rows = None
    if args.jax_python and Path(args.jax_python).exists():
        jax_rows = JaxRows(args.jax_python, BOARDS)
        for name in ("pgx", "jumanji"):
            rows[f"{name} 2048, jit(vmap) over {BOARDS:,} boards"] = jax_row(jax_rows, name)
    else:
        print("no --jax-python: no pgx or jumanji beside the batch", file=sys.stderr)
    for run in rows.values():
        run(0.5)  # warm: the move tables and memoised lines fill as boards are met
    found: dict[str, list[Rate]] = {name: [] for name in rows}
    names = list(rows)
    for turn in range(args.rounds):
        # each round starts one row later: no row is always first after the others' turns
        start = turn % len(names)
        for name in names[start:] + names[:start]:
            found[name].append(timed_turn(rows[name], args.seconds))
    walls = {name: statistics.median(r.wall for r in rates) for name, rates in found.items()}
    cpus = {name: statistics.median(r.cpu for r in rates) for name, rates in found.items()}
    load = f"load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end"
    table = Table(
        title=f"random legal steps a second (median of {args.rounds} turns)", caption=load
    )
    table.add_column("environment")
    table.add_column("steps/s", justify="right")
    table.add_column("per CPU second", justify="right")
    for name, value in walls.items():
        table.add_row(name, f"{value:,.0f}", f"{cpus[name]:,.0f}")
    Console().print(table)
    base = next((v for k, v in walls.items() if k.startswith("gymnasium-2048")), None)
    for name in [n for n in walls if n.startswith("twofold/2048-v0 (masks on")] if base else []:
        ratio = walls[name] / base
        verdict = "meets" if ratio >= TARGET else "misses"
        print(f"{name} / gymnasium-2048: {ratio:.2f}x ({verdict} the {TARGET:g}x target)")
    pgx = next((k for k in walls if k.startswith("pgx")), None)
    for name in [n for n in walls if " batch of " in n] if pgx else []:
        ratio = walls[name] / walls[pgx]
        verdict = "meets" if ratio >= BATCH_TARGET else "misses"
        print(
            f"{name} / pgx: {ratio:.2f}x ({verdict} the {BATCH_TARGET:g}x target); "
            f"per CPU second {cpus[name] / cpus[pgx]:.2f}x"
        )
    if jax_rows is not None:
        jax_rows.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
