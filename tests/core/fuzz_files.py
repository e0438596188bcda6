"""Damaged twofold.db files, started the three ways a player starts twofold.

A real ``twofold.db`` (saves with tails, finished games, settings, a seat) is copied
and damaged in one of :data:`KINDS` of ways: random bytes overwritten (anywhere, or in
an index's pages, which quick_check does not compare with their tables), objects that
are not twofold's stored in it (a trigger that spoils saves, a view, an index), seat
rows that cannot be true, integers past 2**63, or paths that are no regular file (a
FIFO where the WAL goes, a link to a FIFO) and another program's WAL database. Each
copy is then started with ``play --json``, ``stats --json`` and the app (Pilot). None
may raise or hang; the save may not be shortened or lost without a notice; afterwards
the player can start and save (the data reads, or the file was repaired or moved
aside with a notice); and a file that is not twofold's is never written (its bytes,
and its WAL's, stay as they were). ``python -m tests.core.fuzz_files 500`` is the long run.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
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


PAGE = 4096


def index_pages(path: Path) -> list[int]:
    """The root pages of the file's indexes (in a small file, their only pages)."""
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND rootpage > 0"
        ).fetchall()
    finally:
        connection.close()
    return [int(row[0]) for row in rows]


def in_an_index(path: Path, rng: random.Random) -> None:
    """A few bytes of an index page flipped, or one page copied over an index's."""
    data = bytearray(path.read_bytes())
    pages = len(data) // PAGE
    page = rng.choice(index_pages(path))
    start = (page - 1) * PAGE
    if rng.random() < 0.3:
        other = rng.randrange(1, pages + 1)
        data[start : start + PAGE] = data[(other - 1) * PAGE : other * PAGE]
    else:
        for _ in range(rng.randint(1, 4)):
            at = start + rng.randrange(PAGE)
            data[at] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def run_sql(path: Path, *statements: str, parameters: tuple[object, ...] = ()) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement, parameters if "?" in statement else ())
    finally:
        connection.close()


#: things stored in a file that are not twofold's: each is damage, and none may run
FOREIGN_OBJECTS = (
    "CREATE TRIGGER spoil BEFORE UPDATE ON seats BEGIN UPDATE saves SET data = 'x'; END",
    "CREATE TRIGGER spoil AFTER INSERT ON save_tail BEGIN DELETE FROM save_tail; END",
    "CREATE TRIGGER spoil AFTER INSERT ON seats BEGIN DELETE FROM saves; END",
    "CREATE TRIGGER spoil BEFORE INSERT ON finished BEGIN SELECT RAISE(ABORT, 'no'); END",
    "CREATE VIEW spoil AS SELECT * FROM saves",
    "CREATE INDEX spoil ON save_tail (action)",
    "DROP INDEX finished_by_mode",
)


def stored_trigger(path: Path, rng: random.Random) -> None:
    run_sql(path, rng.choice(FOREIGN_OBJECTS))


def odd_seat(path: Path, rng: random.Random) -> None:
    """A seat row that cannot be true holding the 2048 save's seat."""
    from twofold.core.store import seats

    rows = [
        ("2048", "o", 12, "other-host", "", 1e18),
        ("2048", "o", 1, seats.HOST, "", time.time()),
        ("2048", "o", 1, seats.HOST, "", 1e18),
        ("2048", "o", 2**40, seats.HOST, "1", time.time()),
        ("2048", "o", -1, "", "", "soon"),
    ]
    insert = "INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?, ?, ?)"
    run_sql(path, insert, parameters=rng.choice(rows))


def huge_integers(path: Path, rng: random.Random) -> None:
    """Figures past what SQLite's integers hold, as a file may carry them."""
    big = rng.choice([2**63 - 1, 2**64, 10**30, 2**4000])
    digits = str(big).encode()
    choices = [
        ("UPDATE finished SET score = ?", (digits,)),
        ("UPDATE finished SET largest = ?", (digits,)),
        ("UPDATE finished SET score = ?", (2**63 - 1,)),
        ("UPDATE finished SET tiles = ?", (json.dumps([2, big]),)),
        ("UPDATE live SET data = json_set(data, '$.score', ?)", (str(big),)),
        ("UPDATE settings SET value = ? WHERE key = 'language'", (str(big),)),
        ("UPDATE save_tail SET seq = ?", (2**63 - 1,)),
    ]
    statement, parameters = rng.choice(choices)
    run_sql(path, statement, parameters=parameters)


def not_a_file(home: Path, rng: random.Random) -> None:
    """A FIFO or a folder where SQLite keeps a file, or the database a link to a FIFO."""
    path = home / DB_NAME
    choice = rng.randrange(4)
    if choice == 0:
        os.mkfifo(f"{path}-wal")
    elif choice == 1:
        os.mkdir(f"{path}-shm")
    elif choice == 2:
        os.mkfifo(f"{path}-journal")
    else:
        path.unlink()
        os.mkfifo(home / "elsewhere")
        path.symlink_to(home / "elsewhere")


def foreign_wal(home: Path, rng: random.Random) -> None:
    """Another program's WAL database (its writer killed) at the path, or linked to."""
    path = home / DB_NAME
    path.unlink()
    target = path if rng.random() < 0.5 else home / "other.db"
    script = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('PRAGMA journal_mode = WAL')\n"
        "c.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "c.execute(f'PRAGMA application_id = {int(sys.argv[2])}')\n"
        "c.execute('CREATE TABLE notes (text TEXT)')\n"
        "c.execute(\"INSERT INTO notes VALUES ('mine')\")\n"
        "c.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(target), str(rng.choice([0, 1]))], check=True)
    if target != path:
        path.symlink_to(target)


#: how a file is damaged: the share of files each kind gets, and whether the file stays
#: twofold's (then it must start and save) or is another's (then it must not be written)
KINDS: dict[str, tuple[float, bool]] = {
    "bytes": (0.4, True),
    "index": (0.15, True),
    "trigger": (0.1, True),
    "seat": (0.1, True),
    "huge": (0.1, True),
    "not a file": (0.075, False),
    "foreign": (0.075, False),
}
_DAMAGE: dict[str, Callable[[Path, random.Random], None]] = {
    "index": lambda home, rng: in_an_index(home / DB_NAME, rng),
    "trigger": lambda home, rng: stored_trigger(home / DB_NAME, rng),
    "seat": lambda home, rng: odd_seat(home / DB_NAME, rng),
    "huge": lambda home, rng: huge_integers(home / DB_NAME, rng),
    "not a file": not_a_file,
    "foreign": foreign_wal,
}


def damaged_home(home: Path, real: bytes, rng: random.Random) -> str:
    """Fill ``home`` with a damaged copy of ``real``; the kind of damage."""
    kind = rng.choices(list(KINDS), weights=[share for share, _ours in KINDS.values()])[0]
    path = home / DB_NAME
    path.write_bytes(real)
    if kind == "bytes":
        path.write_bytes(damage(real, rng))
    else:
        _DAMAGE[kind](home, rng)
    return kind


def snapshot(home: Path) -> dict[str, bytes | str]:
    """Every file in ``home`` (a FIFO, a folder or a link by what it is, not its bytes)."""
    found: dict[str, bytes | str] = {}
    for entry in sorted(home.iterdir()):
        if entry.is_symlink():
            found[entry.name] = f"link to {os.readlink(entry)}"
        elif entry.is_fifo():
            found[entry.name] = "fifo"
        elif entry.is_dir():
            found[entry.name] = "folder"
        else:
            found[entry.name] = entry.read_bytes()
    return found


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


def lost_silently(log: list[str]) -> list[str]:
    """Whether the 2048 save (``log``) resumes shorter, or not at all, with nothing said."""
    mode = plugins.registry().mode("2048")
    with open_store() as store:
        notice = store.notice
        session = Session(mode, store)
        resumed = list(session.game.log)
        told = notice or session.notice or session.write_problem
        if resumed != log[: len(resumed)] and not told:
            return [f"the save resumed another game ({len(resumed)} actions) with no notice"]
        if len(resumed) < len(log) and not told:
            return [f"the save resumed at {len(resumed)} of {len(log)} actions with no notice"]
    return []


def start_three_ways(
    home: Path, *, app: bool, log: list[str] | None = None, ours: bool = True
) -> list[str]:
    """Start twofold on ``home`` as a player would; the problems found (empty: none).

    ``log``: the 2048 save the file held (a shorter one must be told); ``ours``: whether
    the player must be able to save afterwards (a file not twofold's plays in memory).
    """
    problems = []
    with home_at(home):
        began = time.monotonic()
        if log is not None:
            try:
                problems += lost_silently(log)
            except Exception as error:  # a start that raises is the worst outcome: say which
                problems.append(f"a start raised {type(error).__name__}: {error}")
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
        if ours:
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


def the_real_save(home: Path) -> list[str]:
    with open_store(home) as store:
        saved = store.load_save("2048")
    assert saved is not None
    return list(saved.actions)


def fuzz(
    count: int, seed: int, *, app_every: int = 1, kinds: bool = True
) -> tuple[Counter[str], list[str]]:
    """Start ``count`` damaged copies; what became of them, and every problem found.

    ``kinds``: every kind of damage of :data:`KINDS`; else only random bytes.
    """
    rng = random.Random(seed)
    outcomes: Counter[str] = Counter()
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="twofold-fuzz-") as folder:
        root = Path(folder)
        real = make_real_file(root / "real").read_bytes()
        log = the_real_save(root / "real")
        for number in range(count):
            home = root / f"home-{number}"
            home.mkdir(mode=0o700)
            if kinds:
                kind = damaged_home(home, real, rng)
            else:
                kind = "bytes"
                (home / DB_NAME).write_bytes(damage(real, rng))
            ours = KINDS[kind][1]
            before = snapshot(home)
            # random bytes may make any file: what is known of the save is for the others
            known = log if kind != "bytes" else None
            found = start_three_ways(home, app=number % app_every == 0, log=known, ours=ours)
            if not ours and snapshot(home) != before:
                changed = sorted(
                    set(before) ^ set(snapshot(home))
                    | {n for n, v in snapshot(home).items() if before.get(n, v) != v}
                )
                found.append(f"a file that is not twofold's was written: {changed}")
            problems += [f"file {number} ({kind}, seed {seed}): {problem}" for problem in found]
            outcomes[kind if not ours else outcome(home)] += 1
            outcomes[f"kind {kind}"] += 1
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
