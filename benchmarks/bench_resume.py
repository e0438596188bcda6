"""How long a long save takes to resume: from its checkpoint, and by full replay.

One 2048 game of ``--actions`` actions is played by the rules (corner moves; ``undo``
whenever the board is stuck, so the game never ends and the undo history stays full),
and written straight into a real database in a temporary folder: its base of all but
``--tail`` actions (by default the longest tail a save keeps), then those as tail
rows, with the checkpoint a session would have taken (``--since`` actions before the
end). Each resume runs in a fresh process and
reports its seconds (opening the store, reading the save, rebuilding the game) and its
peak memory: from the checkpoint, then by full replay (the mode without its codec, as
every save resumed before checkpoints; ``--before PYTHON`` also times another install,
such as old main's venv, on the same file). The resumed games are compared.
Target: a 1,000,000-action save resumes in under 1 s.

    nice -n 19 .venv/bin/python benchmarks/bench_resume.py [--actions 1000000] [--tail N]
        [--since 500] [--before /work/main/.venv/bin/python]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import replace
from hashlib import blake2b

from twofold.core import checkpoint
from twofold.core._rules import Refused
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.rows import SavedGame
from twofold.core.store import open_store
from twofold.core.store.saves import TAIL_SHARE

MODE = "2048"
CODE = "BENCHRES"
CORNER = ("down", "left", "down", "right")
TARGET = 1.0

#: runs in the fresh process: resume the save, time it, and fingerprint the game
CHILD = r"""
import json, resource, sys, time
from dataclasses import replace
start = time.perf_counter()
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import open_store
from twofold.core.store.saves import TAIL_SHARE
mode = registry().modes[sys.argv[1]]
if sys.argv[2] == "replay" and hasattr(mode, "codec"):
    mode = replace(mode, codec=None)
imported = time.perf_counter()
session = Session(mode, open_store())
done = time.perf_counter()
game = session.game
session.store.release_seat(mode.id)  # the next run resumes the same file as it is
print(json.dumps({
    "seconds": done - imported,
    "with_import": done - start,
    "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "actions": len(game.log),
    "notice": session.notice,
    "game": repr((game.state, list(game.history), sorted(game.reached),
                  [sorted(s) for s in game.reached_history])),
}))
"""


def play(actions: int, since: int) -> tuple[Game, dict[str, object] | None]:
    """The game, and its checkpoint taken ``since`` actions before its end."""
    mode = registry().modes[MODE]
    game = Game.start(mode, CODE)
    taken = None
    turn = 0
    while len(game.log) < actions:
        if len(game.log) == actions - since and taken is None:
            taken = checkpoint.take(game, checkpoint.opening(MODE, CODE, None))
        turn += 1
        with suppress(Refused):  # a move that changes nothing is not logged: the next is tried
            game.act("undo" if game.over else CORNER[turn % 4])
    return game, taken


def write(game: Game, taken: dict[str, object] | None, tail: int) -> None:
    """The save as the store keeps it: a base, ``tail`` tail rows, the checkpoint row."""
    store = open_store()
    saved = SavedGame(MODE, CODE, tuple(game.log[: len(game.log) - tail]), game_id="bench")
    store.write_save(saved)
    store.write_save(replace(saved, actions=tuple(game.log), checkpoint=taken))
    store.release_seat(MODE)
    store.close()
    with sqlite3.connect(store.path) as connection:
        rows = connection.execute("SELECT count(*) FROM save_tail").fetchone()[0]
    connection.close()
    if rows != tail:
        raise SystemExit(f"the save has {rows:,} tail rows, not {tail:,}: --tail is too long")


def resume(python: str, how: str) -> dict[str, object]:
    found = subprocess.run(
        [python, "-c", CHILD, MODE, how],
        capture_output=True,
        text=True,
        check=False,
        cwd=os.environ["TWOFOLD_HOME"],  # each install imports its own twofold, not this folder's
    )
    if found.returncode:
        raise SystemExit(f"{python} could not resume the save: {found.stderr.strip()[-400:]}")
    return json.loads(found.stdout.splitlines()[-1])


def fingerprint(text: object) -> str:
    return blake2b(str(text).encode(), digest_size=8).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1_000_000)
    parser.add_argument(
        "--tail", type=int, help="actions kept as tail rows (default: the most a save keeps)"
    )
    parser.add_argument("--since", type=int, default=500, help="actions after the checkpoint")
    parser.add_argument("--before", help="another install's python to time on the same save")
    args = parser.parse_args()
    if args.tail is None:  # the longest tail before the base is written again
        args.tail = max(args.actions // (TAIL_SHARE + 1), 1)
    os.environ["TWOFOLD_HOME"] = tempfile.mkdtemp(prefix="bench-resume-")
    began = time.perf_counter()
    game, taken = play(args.actions, args.since)
    write(game, taken, args.tail)
    print(
        f"built a {args.actions:,}-action {MODE} save ({args.tail:,} tail rows, checkpoint "
        f"{args.since:,} actions back) in {time.perf_counter() - began:.1f} s"
    )
    runs = [("checkpoint", sys.executable, "checkpoint"), ("full replay", sys.executable, "replay")]
    if args.before:
        runs.append(("--before", args.before, "replay"))
    prints = set()
    for name, python, how in runs:
        found = resume(python, how)
        if found["actions"] != args.actions or found["notice"]:
            raise SystemExit(f"{name}: resumed {found['actions']} actions ({found['notice']})")
        prints.add(fingerprint(found["game"]))
        print(
            f"{name:>12}: {found['seconds']:7.2f} s to resume "
            f"({found['with_import']:.2f} s with imports), peak {found['peak_mb']:.0f} MB"
        )
    print("the resumed games are identical" if len(prints) == 1 else "THE GAMES DIFFER")
    if len(prints) != 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
