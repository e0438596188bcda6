"""Train ntuple6.c's n-tuple network on twofold's batched 2048, then play held-out codes.

One command: it builds ``ntuple6.c`` as a library with the machine's C compiler, lets the
network play ``--boards`` games at once on ``gymnasium.make_vec("twofold/2048-v0", ...,
vectorization_mode="vector_entry_point")`` for ``--minutes`` CPU minutes, learning as it
plays (TD(0) on afterstates, online, with temporal coherence: see ntuple6.c), then plays
``--held-out`` codes that no training game had, greedily, each to a result ``twofold
verify`` accepts. In ``--out``:

- ``weights.npy``: the network learned, 4 x 16^6 float32 (268 MB; ``--weights`` starts from
  it, and with ``--minutes 0`` plays the held-out codes only);
- ``curve.json``: a point every ``--every`` finished games (mean score, the share reaching
  2048, 4096, 8192 and 16384, CPU minutes), and the held-out games;
- ``curve.png``: the curve (needs matplotlib: ``pip install -r requirements.txt``);
- ``held-out/NNN-CODE.txt``: each held-out game's result, ``twofold verify FILE`` checks it.

    nice python examples/learning/learn.py --minutes 20 --out run
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import twofold.rl

gym.register_envs(twofold.rl)

SOURCE = Path(__file__).resolve().with_name("ntuple6.c")
WEIGHTS = 4 * 16**6  # four shapes of six cells, 16 exponents each
TILES = (11, 12, 13, 14)  # the curve's shares: 2048, 4096, 8192, 16384
#: the seeds of the held-out codes start here (a code a training game had is skipped)
HELD_OUT_SEED = 1_000_000_000


class Refused(Exception):
    """What the user must change, in one line."""


def build(folder: Path) -> ctypes.CDLL:
    """ntuple6.c as a shared library, compiled by the machine's C compiler."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise Refused("no C compiler here (cc or gcc, or name one in CC): ntuple6.c needs one")
    library = folder / "ntuple6.so"
    flags = ["-O3", "-shared", "-fPIC", "-DNTUPLE6_LIBRARY"]
    done = subprocess.run(
        [compiler, *flags, "-o", str(library), str(SOURCE), "-lm"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        raise Refused(f"{compiler} could not build ntuple6.c: {first}")
    found = ctypes.CDLL(str(library))
    pointer = ctypes.c_void_p
    found.ntuple6_bind.argtypes = [pointer, pointer, pointer]
    found.ntuple6_bind.restype = None
    found.ntuple6_act.argtypes = [ctypes.c_long, pointer, ctypes.c_int] + [pointer] * 4
    found.ntuple6_act.restype = None
    return found


def _at(array: np.ndarray | None) -> int | None:
    return None if array is None else array.ctypes.data


class Network:
    """The weights, bound to the library; ``learning`` keeps coherence's running sums too."""

    def __init__(self, library: ctypes.CDLL, weights: np.ndarray, learning: bool) -> None:
        self.library = library
        self.weights = weights
        # np.zeros asks the system for zeroed pages: untouched weights take no memory
        self.errors = np.zeros(WEIGHTS, np.float32) if learning else None
        self.magnitudes = np.zeros(WEIGHTS, np.float32) if learning else None
        self.learning = learning

    def bind(self) -> None:
        self.library.ntuple6_bind(
            _at(self.weights), _at(self.errors), _at(self.magnitudes)
        )  # the library reads these arrays: they live as long as self


@dataclass
class Games:
    """What the network keeps of each game it plays: the afterstate it left last."""

    count: int
    left: np.ndarray = field(init=False)
    known: np.ndarray = field(init=False)
    moves: np.ndarray = field(init=False)
    scores: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.left = np.zeros(self.count, np.uint64)
        self.known = np.zeros(self.count, np.uint8)
        self.moves = np.zeros(self.count, np.int64)
        self.scores = np.zeros(self.count, np.int64)

    def act(self, network: Network, boards: np.ndarray, learning: bool) -> None:
        """Choose each game's move (``moves``, -1 where none is left; ``scores``: what
        it makes), learning from the move before it if ``learning``."""
        cells = np.ascontiguousarray(boards, dtype=np.uint8)
        assert cells.shape == (self.count, 4, 4), cells.shape
        network.library.ntuple6_act(
            self.count,
            cells.ctypes.data,
            int(learning),
            self.moves.ctypes.data,
            self.scores.ctypes.data,
            self.left.ctypes.data,
            self.known.ctypes.data,
        )


def _point(
    games: int, moves: int, scores: list[int], tops: list[int], started: float
) -> dict[str, Any]:
    reached = np.array(tops)
    return {
        "games": games,
        "moves": moves,
        "mean_score": float(np.mean(scores)),
        **{f"reached_{2**t}": float(np.mean(reached >= t)) for t in TILES},
        "cpu_minutes": (time.process_time() - started) / 60,
        "load": os.getloadavg()[0],  # the machine's: this run shares it
    }


def train(
    network: Network, minutes: float, boards: int, every: int, seed: int
) -> tuple[list[dict[str, Any]], set[str], dict[str, float]]:
    """Learn for ``minutes`` of this process's CPU time (or until Ctrl-C): the curve, the
    codes played, and how many games and moves it took."""
    envs = gym.make_vec("twofold/2048-v0", num_envs=boards, vectorization_mode="vector_entry_point")
    games = Games(boards)
    network.bind()
    observations, info = envs.reset(seed=seed)
    curve: list[dict[str, Any]] = []
    codes: set[str] = set()
    scores: list[int] = []
    tops: list[int] = []
    finished = moves = 0
    stop: list[int] = []  # Ctrl-C ends learning between two steps, and the run goes on
    before = signal.signal(signal.SIGINT, lambda number, _frame: stop.append(number))
    started = time.process_time()
    while not stop and time.process_time() - started < 60 * minutes:
        games.act(network, observations, learning=True)
        playing = games.moves >= 0
        masks = info["action_mask"]
        # the network's slide is its own: hold it to the environment's moves and rewards
        if not masks[playing, games.moves[playing]].all() or masks[~playing].any():
            raise AssertionError("the network's legal moves are not the environment's")
        observations, rewards, terminated, _truncated, info = envs.step(np.maximum(games.moves, 0))
        if not np.array_equal(rewards, games.scores):
            raise AssertionError("the network's slide scored otherwise than the environment")
        moves += int(playing.sum())
        for i in np.flatnonzero(terminated):
            code, _moves, score = envs.finished(int(i))
            codes.add(code)
            scores.append(score)
            tops.append(int(observations[i].max()))
            finished += 1
            if len(scores) >= every:
                curve.append(_point(finished, moves, scores, tops, started))
                scores, tops = [], []
                print(json.dumps(curve[-1]), flush=True)
    seconds = time.process_time() - started
    signal.signal(signal.SIGINT, before)
    if stop:
        print(f"learn.py: stopped by Ctrl-C after {seconds / 60:.2f} CPU minutes", file=sys.stderr)
    envs.close()
    return curve, codes, {"games": finished, "moves": moves, "cpu_seconds": seconds}


def play_held_out(
    network: Network, count: int, avoid: set[str], folder: Path | None
) -> list[dict[str, Any]]:
    """``count`` games of codes not in ``avoid``, greedy; each result written to ``folder``."""
    env = gym.make("twofold/2048-v0")
    games = Games(1)
    network.bind()
    played: list[dict[str, Any]] = []
    seed = HELD_OUT_SEED
    while len(played) < count:
        observation, info = env.reset(seed=seed)
        seed += 1
        if info["code"] in avoid:
            continue
        code = info["code"]
        while True:
            games.act(network, observation[None], learning=False)
            if games.moves[0] < 0:
                raise AssertionError("the network found no move in a game not over")
            observation, _reward, terminated, _truncated, info = env.step(int(games.moves[0]))
            if terminated:
                break
        result = info["result"]
        name = f"{len(played):03d}-{code}.txt"
        if folder is not None:
            (folder / name).write_text(result + "\n", encoding="utf-8")
        played.append(
            {
                "code": code,
                "score": int(info["score"]),
                "top": 2 ** int(observation.max()),
                "verified": verified(result, int(info["score"])),
                "result": name,
            }
        )
    env.close()
    return played


def verified(result: str, score: int) -> bool:
    """Whether ``twofold verify`` accepts the result, replaying it to this score."""
    return twofold.rl.verified_score(result) == score


def summary(played: list[dict[str, Any]]) -> dict[str, Any]:
    scores = np.array([p["score"] for p in played])
    tops = np.array([p["top"] for p in played])
    return {
        "games": len(played),
        "mean_score": float(scores.mean()),
        "median_score": float(np.median(scores)),
        **{f"reached_{2**t}": float(np.mean(tops >= 2**t)) for t in TILES},
        "verified": sum(p["verified"] for p in played),
    }


def draw(report: dict[str, Any], path: Path) -> None:
    """The curve as a PNG: mean score and the shares reaching 2048 and up, against games
    (below) and CPU minutes (above)."""
    import matplotlib

    matplotlib.use("Agg")  # a file, no window
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    curve = report["curve"]
    games = np.array([p["games"] for p in curve], dtype=float)
    minutes = np.array([p["cpu_minutes"] for p in curve])
    figure, (score, shares) = plt.subplots(1, 2, figsize=(10, 4), dpi=100)
    score.plot(games, [p["mean_score"] for p in curve], color="tab:blue")
    score.set_ylabel(f"mean score, each {report['every']:,} games")
    for tile, colour in zip(
        TILES, ("tab:orange", "tab:green", "tab:red", "tab:purple"), strict=True
    ):
        shares.plot(
            games, [100 * p[f"reached_{2**tile}"] for p in curve], color=colour, label=2**tile
        )
    shares.legend(title="reached", loc="upper left")
    shares.set_ylabel("games reaching the tile (%)")
    shares.set_ylim(0, 100)
    for axes in (score, shares):
        axes.set_xlabel("games played")
        axes.grid(alpha=0.3)
        if len(games) > 1:
            above = axes.secondary_xaxis(
                "top",
                functions=(
                    lambda g: np.interp(g, games, minutes),
                    lambda m: np.interp(m, minutes, games),
                ),
            )
            above.set_xlabel("CPU minutes")
            steps = MaxNLocator(6).tick_values(0, minutes[-1])
            above.set_xticks(steps[steps <= minutes[-1]])  # none past the run's end
    held = report["held_out"]
    figure.suptitle(
        f"ntuple6 (TD(0) afterstates, 4 six-tuples) on twofold/2048-v0, batch of "
        f"{report['boards']:,}: {report['training']['games']:,} games in "
        f"{report['training']['cpu_seconds'] / 60:.1f} CPU minutes\nheld out: "
        f"{held['games']} codes, mean score {held['mean_score']:,.0f}, 2048 in "
        f"{100 * held['reached_2048']:.0f}% (untrained: {report['untrained']['mean_score']:,.0f})",
        fontsize=10,
    )
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0, help="CPU minutes of learning")
    parser.add_argument("--out", type=Path, default=Path("ntuple-run"), help="the folder written")
    parser.add_argument("--boards", type=int, default=1024, help="games played at once")
    parser.add_argument("--every", type=int, default=1000, help="finished games a point")
    parser.add_argument("--held-out", type=int, default=100, help="codes played after")
    parser.add_argument("--weights", type=Path, help="start from these weights (weights.npy)")
    parser.add_argument("--seed", type=int, default=0, help="the training games' seed")
    args = parser.parse_args(argv)
    if args.minutes < 0 or args.boards < 1 or args.every < 1 or args.held_out < 1:
        parser.error("--minutes from 0, --boards, --every and --held-out from 1")
    try:
        return run(args)
    except Refused as refused:
        print(f"learn.py: {refused}", file=sys.stderr)
        return 1


def run(args: argparse.Namespace) -> int:
    drawing = _has_matplotlib()
    if not drawing:
        print(
            "learn.py: matplotlib is not installed, so no curve.png "
            "(pip install -r examples/learning/requirements.txt)",
            file=sys.stderr,
        )
    weights = np.zeros(WEIGHTS, np.float32)
    if args.weights is not None:
        try:
            weights = np.load(args.weights)
        except (OSError, ValueError) as error:
            raise Refused(f"{args.weights} cannot be read: {error}") from None
        if weights.shape != (WEIGHTS,) or weights.dtype != np.float32:
            raise Refused(f"{args.weights} is not {WEIGHTS:,} float32 weights")
    try:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "held-out").mkdir(exist_ok=True)
    except OSError as error:
        raise Refused(f"{args.out} cannot be made: {error.strerror}") from None
    with tempfile.TemporaryDirectory() as folder:
        library = build(Path(folder))
    network = Network(library, weights, learning=args.minutes > 0)
    load = os.getloadavg()
    curve, codes, training = train(network, args.minutes, args.boards, args.every, args.seed)
    if args.minutes > 0:
        np.save(args.out / "weights.npy", weights)
    played = play_held_out(network, args.held_out, codes, args.out / "held-out")
    untrained = Network(library, np.zeros(WEIGHTS, np.float32), learning=False)
    baseline = play_held_out(untrained, args.held_out, codes, None)
    report = {
        "boards": args.boards,
        "every": args.every,
        "seed": args.seed,
        "training": training,
        "load_average_before_and_after": [load[0], os.getloadavg()[0]],
        "niceness": os.nice(0),
        "curve": curve,
        "held_out": summary(played),
        "untrained": summary(baseline),
        "held_out_games": played,
    }
    (args.out / "curve.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if drawing and curve:
        draw(report, args.out / "curve.png")
    held = report["held_out"]
    for game in played:
        print(f"{game['code']}: {game['score']:>7,} reached {game['top']}")
    print(
        f"trained {training['games']:,} games ({training['moves']:,} moves) in "
        f"{training['cpu_seconds'] / 60:.2f} CPU minutes; held out, {held['games']} codes: "
        f"mean score {held['mean_score']:,.0f}, 2048 in {100 * held['reached_2048']:.0f}%, "
        f"verified {held['verified']} of {held['games']}; untrained on the same codes: "
        f"{report['untrained']['mean_score']:,.0f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
