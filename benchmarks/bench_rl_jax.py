"""pgx's and jumanji's 2048, jitted and vmapped over a batch of boards: steps a second.

Run by ``bench_rl.py`` with the Python of a separate environment that has jax, pgx and
jumanji (they are no dependency of twofold): ``python -m venv VENV && VENV/bin/pip install
"jax[cpu]" pgx jumanji``. Each call of the jitted function draws a random legal action for
every board (from its mask) and steps them all, as bench_rl.py's batched twofold does; a
board whose game ended is started again in the same call (jumanji's own autoreset
pattern), so every board keeps playing. Prints one JSON line, each batch's steps a second
of wall time and of this process's CPU time: {"pgx": [wall, cpu], "jumanji": [wall, cpu]};
with ``--serve``, one such line for each line of seconds read from stdin (bench_rl.py's
turns, without compiling again).

    VENV/bin/python benchmarks/bench_rl_jax.py --boards 1024 --seconds 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp


def pgx_runner(boards: int) -> Callable[[float], float]:
    import pgx

    env = pgx.make("2048")

    def one(state: Any, key: Any) -> Any:
        act, spawn, again = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(act, logits)
        after = env.step(state, action, spawn)
        fresh = env.init(again)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(after.terminated, b, a), after, fresh)

    step = jax.jit(jax.vmap(one))
    keys = jax.random.split(jax.random.PRNGKey(0), boards)
    state = jax.jit(jax.vmap(env.init))(keys)
    return timed(step, state, boards)


def jumanji_runner(boards: int) -> Callable[[float], float]:
    import jumanji

    env = jumanji.make("Game2048-v1")

    def one(state: Any, key: Any) -> Any:
        act, again = jax.random.split(key)
        logits = jnp.where(state.action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(act, logits)
        after, timestep = env.step(state, action)
        fresh, _first = env.reset(again)
        return jax.tree_util.tree_map(lambda a, b: jnp.where(timestep.last(), b, a), after, fresh)

    step = jax.jit(jax.vmap(one))
    keys = jax.random.split(jax.random.PRNGKey(0), boards)
    state, _timestep = jax.jit(jax.vmap(env.reset))(keys)
    return timed(step, state, boards)


def timed(step: Any, state: Any, boards: int) -> Callable[[float], tuple[float, float]]:
    key = jax.random.PRNGKey(1)
    held = {"state": state, "key": key}

    def call() -> None:
        held["key"], sub = jax.random.split(held["key"])
        held["state"] = step(held["state"], jax.random.split(sub, boards))

    call()  # compile
    jax.block_until_ready(held["state"])

    def run(seconds: float) -> tuple[float, float]:
        calls, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for _ in range(10):
                call()
            jax.block_until_ready(held["state"])
            calls += 10
        steps = calls * boards
        return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--serve", action="store_true", help="a turn for each line of stdin")
    args = parser.parse_args()
    runs = {"pgx": pgx_runner(args.boards), "jumanji": jumanji_runner(args.boards)}
    for run in runs.values():
        run(0.5)
    if not args.serve:
        print(json.dumps({name: run(args.seconds) for name, run in runs.items()}))
        return
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        seconds = float(line)
        print(json.dumps({name: run(seconds) for name, run in runs.items()}), flush=True)


if __name__ == "__main__":
    main()
