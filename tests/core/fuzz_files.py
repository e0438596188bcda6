"""Damaged twofold.db files, started the three ways a player starts twofold (issue 23).

A real ``twofold.db`` (saves with tails, finished games, settings, a seat) is copied
and random bytes of it are overwritten; each copy is then started with ``play
--json``, ``stats --json`` and the app (Pilot). None may raise or hang, and afterwards
the player can start and save: the data reads, or the file was moved aside with a
notice and a fresh one started. ``python -m tests.core.fuzz_files 500`` is the long run.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from twofold.core import plugins
from twofold.core.codes import code_from_text
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.core.store import DB_NAME, HOME_VARIABLE, open_store
from twofold.ui.app.app import TwofoldApp
from twofold.ui.command import cli

#: the seconds a start may take before it counts as a hang (an app start on a machine
#: shared by many sessions took 20)
HANG = 60.0


def make_real_file(home: Path) -> Path:
    """A twofold.db as a player's looks after a little play on two modes."""
    registry = plugins.registry()
    home.mkdir(mode=0o700, exist_ok=True)
    with open_store(home) as store:
        store.save_settings(Settings(language="de", sound=True, keymap={"undo": "ctrl+z"}))
        for mode_id, moves in (("2048", ("left", "up", "right", "down")), ("2248-daily", ())):
            session = Session(registry.mode(mode_id), store)
            for number in range(3):
                if not registry.mode(mode_id).daily:
                    session.new_game(code_from_text(f"fuzz-{mode_id}-{number}"))
                for move in moves * 3:
                    session.act(move)
                session.new_game()
            for move in moves * 30:  # a save long enough to have a base and a tail
                session.act(move)
            session.close()
    return home / DB_NAME


def damage(data: bytes, rng: random.Random) -> bytes:
    """``data`` with 1 to 64 bytes overwritten at random places (half the time in page 1)."""
    damaged = bytearray(data)
    limit = 4096 if rng.random() < 0.5 else len(data)
    for _ in range(rng.randint(1, 64)):
        damaged[rng.randrange(min(limit, len(data)))] = rng.randrange(256)
    return bytes(damaged)


@contextmanager
def home_at(home: Path) -> Iterator[None]:
    before = os.environ.get(HOME_VARIABLE)
    os.environ[HOME_VARIABLE] = str(home)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(HOME_VARIABLE, None)
        else:
            os.environ[HOME_VARIABLE] = before


def command(*args: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``twofold ARGS`` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    real_stdin = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with redirect_stdout(out), redirect_stderr(err):
            status = cli.main(list(args))
    finally:
        sys.stdin = real_stdin
    return status, out.getvalue(), err.getvalue()


def no_constants(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


async def in_the_app() -> None:
    store = open_store()
    try:
        app = TwofoldApp(plugins.registry(), store, mode_id="2048")
        async with app.run_test(size=(80, 24)) as pilot:
            # keys go to the game once its board is on screen (a key typed ahead of the
            # screen's first compose is the UI's own race, not the file's)
            for _ in range(200):
                await pilot.pause()
                if app.screen.query("#board"):
                    break
            await pilot.press("left", "up")
            await pilot.pause()
            app.close_sessions()
    finally:
        store.close()


def start_three_ways(home: Path, *, app: bool) -> list[str]:
    """Start twofold on ``home`` as a player would; the problems found (empty: none)."""
    problems = []
    with home_at(home):
        began = time.monotonic()
        status, out, err = command("play", "2048", "--json", stdin=b"left\nup\nundo\nquit\n")
        replies = [json.loads(line) for line in out.splitlines()]
        if status != 0 or "unexpected error" in err or len(replies) < 4:
            problems.append(f"play --json: exit {status}, {len(replies)} replies, {err[-200:]!r}")
        status, out, err = command("stats", "--json")
        try:
            json.loads(out, parse_constant=no_constants)
        except ValueError as error:
            problems.append(f"stats --json printed no JSON ({error}): {out[-200:]!r}")
        if status != 0 or "unexpected error" in err:
            problems.append(f"stats --json: exit {status}, {err[-200:]!r}")
        if app:
            try:
                asyncio.run(asyncio.wait_for(in_the_app(), HANG))
            except Exception as error:  # the app must not raise, whatever the file
                problems.append(f"the app raised {type(error).__name__}: {error}")
        if time.monotonic() - began > HANG:
            problems.append(f"starting took {time.monotonic() - began:.1f} s")
        try:
            problems += can_start_and_save()
        except Exception as error:  # a start that raises is the worst outcome: say which
            problems.append(f"a new start raised {type(error).__name__}: {error}")
    return problems


def can_start_and_save() -> list[str]:
    """After a damaged start: a new start is clean and what it plays is kept."""
    mode = plugins.registry().mode("2048")
    with open_store() as store:
        if store.unsaved:
            return [f"cannot save: {store.unsaved}"]
        session = Session(mode, store)
        for move in ("left", "up", "right", "down"):
            session.act(move)
        log, notice = list(session.game.log), session.write_problem
        session.close()
    if notice:
        return [f"cannot save: {notice}"]
    with open_store() as store:
        saved = store.load_save("2048")
        if saved is None or list(saved.actions) != log:
            return [f"the save did not keep the game (notice: {store.notice})"]
    return []


def outcome(home: Path) -> str:
    if list(home.glob(f"{DB_NAME}.broken-*")):
        return "moved aside"
    return "read"


def fuzz(count: int, seed: int, *, app_every: int = 1) -> tuple[Counter[str], list[str]]:
    """Start ``count`` damaged copies; what became of them, and every problem found."""
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="twofold-fuzz-") as folder:
        root = Path(folder)
        real = make_real_file(root / "real").read_bytes()
        for number in range(count):
            home = root / f"home-{number}"
            home.mkdir(mode=0o700)
            (home / DB_NAME).write_bytes(damage(real, rng))
            found = start_three_ways(home, app=number % app_every == 0)
            problems += [f"file {number} (seed {seed}): {problem}" for problem in found]
            outcomes[outcome(home)] += 1
            shutil.rmtree(home)
    return outcomes, problems


if __name__ == "__main__":
    files = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 23
    began = time.monotonic()
    outcomes, problems = fuzz(files, seed)
    print(f"{files} files in {time.monotonic() - began:.0f} s: {dict(outcomes)}")
    print(f"problems: {len(problems)}")
    for problem in problems:
        print(" ", problem)
