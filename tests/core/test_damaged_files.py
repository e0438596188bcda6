"""Damaged files, other programs' files, faults at start, long saves.

One test per case found, each with its reproduction; every one failed before the fix.
``T`` in the docstrings is ``twofold``.
"""

from __future__ import annotations

import io
import json
import os
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.core.toy import TALLY
from twofold.core import store as store_module
from twofold.core.session import FinishedGame, SavedGame, Session
from twofold.core.store import DB_NAME, encode_save, open_store, saves
from twofold.ui.command import cli


def play(session: Session, count: int) -> None:
    for _ in range(count):
        if session.game.over:
            session.new_game()
        session.act("add")


def a_finished_game(store: Any) -> str:
    session = Session(TALLY, store)
    while not session.game.over:
        session.act("add")
    game_id = session.game.game_id
    session.new_game()
    session.close()
    return game_id


def twofold(home: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TWOFOLD_HOME": str(home)},
    )


def a_real_file(home: Path) -> Path:
    """A twofold.db with a save (and its tail), finished games, settings and a seat."""
    result = twofold(home, "play", "2048", "--json", stdin="left\nup\nright\ndown\nnew\nleft\n")
    assert result.returncode == 0, result.stderr
    return home / DB_NAME


# -- 1. another program's database --------------------------------------------------------


def test_another_programs_database_is_never_written(twofold_home: Path, tmp_path: Path) -> None:
    """A settings table and user_version 1, linked as twofold.db: twofold made it its own."""
    other = tmp_path / "o.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT)")
        connection.execute("PRAGMA user_version = 1")
    connection.close()
    before = other.read_bytes()
    (twofold_home / DB_NAME).symlink_to(other)
    result = twofold(twofold_home, "play", "2048", "--json", stdin="left\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "not a twofold database" in result.stdout
    assert other.read_bytes() == before
    assert not Path(f"{other}-wal").exists()


def test_an_older_twofolds_file_is_still_recognised(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    with sqlite3.connect(path) as connection:
        for statement in store_module.MIGRATIONS[0]:
            connection.execute(statement)
        connection.execute("PRAGMA user_version = 1")
        connection.execute("INSERT INTO settings VALUES ('language', '\"de\"')")
    connection.close()
    with open_store() as store:
        assert store.notice is None and not store.in_memory
        assert store.load_settings().language == "de"


# -- 2. one damaged byte ------------------------------------------------------------------


def damage_at(path: Path, marker: bytes, value: bytes) -> None:
    """Overwrite the last byte of ``marker`` (in the file's first page) with ``value``."""
    data = bytearray(path.read_bytes())
    at = data.index(marker, 0, 4096) + len(marker) - 1
    data[at : at + len(value)] = value
    path.write_bytes(bytes(data))


def test_one_damaged_byte_in_the_schema_is_moved_aside(twofold_home: Path) -> None:
    """The table name 'seats' ending in 0xD8: 'utf-8' codec can't decode, on every run."""
    path = a_real_file(twofold_home)
    damage_at(path, b"tableseats", b"\xd8")
    for args in (["play", "2048", "--json"], ["stats", "--json"]):
        result = twofold(twofold_home, *args, stdin="left\n")
        assert result.returncode == 0, result.stderr
        assert "unexpected error" not in result.stderr
    assert list(twofold_home.glob(f"{DB_NAME}.broken-*"))
    with open_store() as store:
        assert store.notice is None and not store.in_memory


# -- 3. a damaged schema; a write no retry can fix -----------------------------------------


def test_a_damaged_column_name_is_damage(twofold_home: Path) -> None:
    """largest -> lbrgest passed quick_check and blocked every later save."""
    path = a_real_file(twofold_home)
    data = path.read_bytes()
    assert b"largest INTEGER NOT NULL" in data
    path.write_bytes(data.replace(b"largest INTEGER NOT NULL", b"lbrgest INTEGER NOT NULL"))
    with open_store() as store:
        assert store.notice and "damaged" in store.notice and "finished" in store.notice
        assert not store.in_memory
        a_finished_game(store)
        assert store.records("tally").played == 1 and not store.pending


class NoFinishedTable:
    """A connection on which every write of a finished game fails as a broken schema does."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if statement.startswith("INSERT INTO finished"):
            raise sqlite3.OperationalError("table finished has no column named largest")
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_write_that_cannot_work_does_not_hold_the_others_back() -> None:
    def connect(path: str) -> sqlite3.Connection:
        return NoFinishedTable(store_module.connect(path))  # type: ignore[return-value]

    store = open_store(connect=connect)
    session = Session(TALLY, store)
    while not session.game.over:
        session.act("add")  # the finished game cannot be written
    session.new_game()
    session.act("add")
    session.act("add")
    assert session.write_problem and "no column named largest" in session.write_problem
    store.close()
    with open_store() as again:
        saved = again.load_save("tally")
        assert saved is not None and saved.actions == ("add", "add")  # the save went in


# -- 4. private files ----------------------------------------------------------------------


def test_the_fresh_file_after_a_damaged_one_is_private(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    path.write_bytes(b"not a database" * 1000)
    path.chmod(0o644)
    with open_store() as store:
        assert store.notice and "damaged" in store.notice
        Session(TALLY, store).act("add")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    wal = path.with_name(DB_NAME + "-wal")
    assert not wal.exists() or stat.S_IMODE(wal.stat().st_mode) == 0o600


def test_a_dangling_link_gets_a_private_target_and_a_notice(
    twofold_home: Path, tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere.db"
    (twofold_home / DB_NAME).symlink_to(target)
    with open_store() as store:
        assert store.notice and str(target) in store.notice
        assert not store.in_memory
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


# -- 6. a newer twofold's save ----------------------------------------------------------------


def test_a_newer_twofolds_save_is_kept_untouched(twofold_home: Path) -> None:
    """A save with a higher format number was reported and then deleted."""
    data = json.loads(encode_save(SavedGame("tally", "7K3M9QXP", ("add",), game_id="g")))
    data.pop("check")
    data["format"] = saves.SAVE_FORMAT + 1
    data["check"] = saves.checksum(data)
    with open_store() as store:
        store.write_save(SavedGame("tally", "7K3M9QXP", ("add",), game_id="g"))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE saves SET data = ?", (json.dumps(data),))
    connection.close()
    with open_store() as store:
        session = Session(TALLY, store)
        assert session.notice and "newer twofold" in session.notice
        session.act("add")
        assert session.write_problem and "newer twofold" in session.write_problem
        session.close()
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        assert json.loads(connection.execute("SELECT data FROM saves").fetchone()[0]) == data
    connection.close()


def test_a_save_that_cannot_be_read_is_set_aside_not_deleted(twofold_home: Path) -> None:
    with open_store() as store:
        Session(TALLY, store).act("add")
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE saves SET data = 'not json' WHERE mode_id = 'tally'")
    connection.close()
    with open_store() as store:
        session = Session(TALLY, store)
        assert session.notice and "could not be read" in session.notice
        session.act("add")
        session.close()
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        kept = connection.execute("SELECT mode_id, data FROM saves ORDER BY mode_id").fetchall()
    connection.close()
    # the save's tip (how long it is) goes aside with it
    aside = [data for mode_id, data in kept if "#aside" in mode_id and "#tip" not in mode_id]
    assert aside == ["not json"]


# -- 7. rows that crash ----------------------------------------------------------------------


HERE = socket.gethostname()


@pytest.mark.parametrize(
    ("pid", "host", "beat"),
    [("abc", HERE, 0), (99_999_999_999, HERE, 0), ("1", HERE, 0), (1, "elsewhere", "soon")],
    ids=["pid-text", "pid-huge", "pid-digits-as-text", "beat-text-elsewhere"],
)
def test_a_seat_row_that_does_not_read_is_free(
    twofold_home: Path, pid: object, host: str, beat: object
) -> None:
    """play 2048 crashed on every start, and the app showed a traceback."""
    with open_store() as store:
        Session(TALLY, store).act("add")
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute(
            "INSERT OR REPLACE INTO seats VALUES ('tally', 'other', ?, ?, '1', ?)",
            (pid, host, beat),
        )
    connection.close()
    with open_store() as store:
        session = Session(TALLY, store)
        assert session.seated and session.game.log == ["add"]


def finished_row(game_id: str, **values: object) -> FinishedGame:
    row = FinishedGame(
        game_id, "tally", "AAAAAAAA", 10, 8, 3, 5.0, True, False, (2, 8), {}, None, 1.0
    )
    return row.__class__(**{**row.__dict__, **values})


def test_a_daily_row_on_the_first_day_there_is_does_not_crash(twofold_home: Path) -> None:
    """day='0001-01-01': stats crashed with an OverflowError, the app at start."""
    with open_store() as store:
        store.record_finished(finished_row("good", day="2026-11-30"))
        store.record_finished(finished_row("old", day="2026-11-29"))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE finished SET day = '0001-01-01' WHERE game_id = 'old'")
    connection.close()
    with open_store() as store:
        records = store.records("tally")
        assert records.played == 1 and records.longest_streak == 1
        assert store.notice and "could not be read: 1" in store.notice


def test_huge_play_times_are_no_infinity_in_json(twofold_home: Path) -> None:
    """Two rows with elapsed=1e308: stats --json printed Infinity."""
    with open_store() as store:
        for name in ("a", "b", "c"):
            store.record_finished(finished_row(name))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE finished SET elapsed = 1e308 WHERE game_id != 'c'")
    connection.close()
    out, err = io.StringIO(), io.StringIO()
    args = cli.build_parser().parse_args(["stats", "--json"])
    assert args.run(args, out=out, err=err) == 0

    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    data = json.loads(out.getvalue(), parse_constant=no_constants)
    assert data["modes"]["tally"]["played"] == 1
    assert "could not be read: 2" in err.getvalue()


# -- 8. a fault at start is retried -----------------------------------------------------------


class FailingAtFirst:
    """Connections that fail like a read-only or full disk until ``healed``."""

    def __init__(self, error: sqlite3.Error, *, on_open: bool) -> None:
        self.error = error
        self.on_open = on_open
        self.healed = False

    def connect(self, path: str) -> sqlite3.Connection:
        if path == store_module.MEMORY:
            return store_module.connect(path)
        if self.on_open and not self.healed:
            raise self.error
        return Refusing(store_module.connect(path), self)  # type: ignore[return-value]


class Refusing:
    def __init__(self, real: sqlite3.Connection, faults: FailingAtFirst) -> None:
        self.real, self.faults = real, faults
        self.broken = not faults.healed  # a read-only open stays read-only, as SQLite's does

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if self.broken and statement == "COMMIT":
            raise self.faults.error
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def read_only() -> sqlite3.Error:
    error = sqlite3.OperationalError("attempt to write a readonly database")
    error.sqlite_errorcode = sqlite3.SQLITE_READONLY  # type: ignore[attr-defined]
    return error


def disk_full() -> sqlite3.Error:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    return error


@pytest.mark.parametrize(
    ("error", "on_open"),
    [(read_only(), False), (disk_full(), True)],
    ids=["read-only-at-start", "full-disk-at-start"],
)
def test_a_fault_at_start_is_retried_and_nothing_is_lost(
    error: sqlite3.Error, on_open: bool
) -> None:
    """Read-only (or a full disk) at start, fixed mid-game: 40 of 40 moves were lost."""
    faults = FailingAtFirst(error, on_open=on_open)
    store = open_store(connect=faults.connect)
    session = Session(TALLY, store)
    play(session, 5)
    assert session.write_problem
    if on_open:  # a full disk: not even the empty file could be made
        (store_module.data_dir() / DB_NAME).unlink()
    faults.healed = True
    play(session, 12)
    assert session.write_problem is None
    log, finished = list(session.game.log), store.pending
    session.close()
    store.close()
    assert finished == 0
    assert stat.S_IMODE((store_module.data_dir() / DB_NAME).stat().st_mode) == 0o600
    with open_store() as again:
        saved = again.load_save("tally")
        assert saved is not None and list(saved.actions) == log
        assert again.records("tally").played >= 1


def test_a_lock_held_at_start_does_not_hold_the_first_reply(twofold_home: Path) -> None:
    """A held lock at start cost 10.3-11.5 s before the first reply."""
    with open_store() as store:
        Session(TALLY, store).act("add")
    holder = sqlite3.connect(twofold_home / DB_NAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        start = time.monotonic()
        with open_store() as store:
            session = Session(TALLY, store)
            assert session.game.log == ["add"]
            assert time.monotonic() - start < 5.0  # it was 10.3-11.5 s
            holder.execute("ROLLBACK")
            session.act("add")
            assert session.write_problem is None
            session.close()
    finally:
        holder.close()
    with open_store() as store:
        saved = store.load_save("tally")
        assert saved is not None and saved.actions == ("add", "add")


# -- 11. small ones ----------------------------------------------------------------------------


def test_a_second_windows_game_is_kept_with_no_exit_line(twofold_home: Path) -> None:
    """It said 'progress could not be saved before the end (?)', then that the game was lost;
    the game is now kept apart for the next window (tests/core/test_second_window_kept.py)."""
    first = subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.command.cli", "play", "2048", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TWOFOLD_HOME": str(twofold_home)},
    )
    assert first.stdin is not None and first.stdout is not None
    json.loads(first.stdout.readline())
    try:
        second = twofold(twofold_home, "play", "2048", "--json", stdin="left\nup\nquit\n")
    finally:
        first.stdin.write("quit\n")
        first.stdin.flush()
        first.wait(timeout=30)
    assert second.stderr == ""
    # the deal is random: a move that changes nothing is no action, so count what moved
    played = json.loads(second.stdout.splitlines()[-1])["moves"]
    assert played > 0
    with open_store(owner="next-window") as store:
        assert [len(saved.actions) for saved in store.waiting_games("2048")] == [played]


# -- 9. SIGBUS -------------------------------------------------------------------------------


def chattr(flag: str, *paths: Path) -> bool:
    try:
        done = subprocess.run(["chattr", flag, *map(str, paths)], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def test_an_unwritable_wal_index_is_no_sigbus(twofold_home: Path) -> None:
    """chattr +i on the db, -wal and -shm mid-game: the next move killed the process (SIGBUS)."""
    window = subprocess.Popen(
        [sys.executable, "-m", "twofold.ui.command.cli", "play", "2048", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TWOFOLD_HOME": str(twofold_home)},
    )
    assert window.stdin is not None and window.stdout is not None

    def send(command: str) -> dict[str, Any]:
        window.stdin.write(command + "\n")  # type: ignore[union-attr]
        window.stdin.flush()  # type: ignore[union-attr]
        line = window.stdout.readline()  # type: ignore[union-attr]
        assert line, f"no reply to {command!r}: exit {window.wait(timeout=30)}"
        reply: dict[str, Any] = json.loads(line)
        return reply

    files = [twofold_home / name for name in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm")]
    try:
        json.loads(window.stdout.readline())
        for move in ("left", "up", "right", "down"):
            send(move)
        if not all(path.exists() for path in files) or not chattr("+i", *files):
            pytest.skip("chattr +i needs root on a file system that has it")
        replies = [send(move) for move in ("left", "up", "right", "down") * 3]
        assert "shared memory" in replies[0]["notice"]
        chattr("-i", *files)
        for move in ("left", "up", "right", "down") * 2:
            moves = send(move)["moves"]
        window.stdin.write("quit\n")
        window.stdin.flush()
        assert window.wait(timeout=30) == 0
    finally:
        chattr("-i", *files)
        if window.poll() is None:
            window.kill()
    with open_store() as store:
        saved = store.load_save("2048")
        assert saved is not None and store.notice is None
        assert len(saved.actions) >= moves  # every counted move of the game is in the save


# -- found by the fuzz --------------------------------------------------------------------------


def set_version(path: Path, version: int) -> None:
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {version}")
    connection.close()


@pytest.mark.parametrize("version", [0, 1, 2], ids=lambda v: f"version-{v}")
def test_a_version_number_damaged_lower_is_damage(twofold_home: Path, version: int) -> None:
    """user_version damaged from 3 down: 'table saves already exists', never saved again."""
    path = a_real_file(twofold_home)
    set_version(path, version)
    with open_store() as store:
        assert store.notice and "damaged" in store.notice and not store.in_memory


@pytest.mark.parametrize("version", [4, 200, 10**6], ids=lambda v: f"version-{v}")
def test_a_version_number_damaged_higher_is_damage(twofold_home: Path, version: int) -> None:
    """Today's very tables under a higher version: no newer twofold wrote that."""
    path = a_real_file(twofold_home)
    set_version(path, version)
    with open_store() as store:
        assert store.notice and "damaged" in store.notice and not store.in_memory
