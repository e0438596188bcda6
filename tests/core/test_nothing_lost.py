"""A write that fails is never silent and loses nothing a later write can keep.

One test per case found, with the command that showed it. The tests run as
root here, where ``chmod`` does not stop a write, so a read-only file, a full disk
and a lock past the busy timeout are made with a connection whose COMMIT fails (or,
for the lock, a real second connection holding the write lock with short timeouts).
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.core.toy import TALLY
from tests.core.windows import end, first, send, window
from twofold.core import store as store_module
from twofold.core.session import FinishedGame, SavedGame, Session
from twofold.core.store import (
    APPLICATION_ID,
    DB_NAME,
    MIGRATIONS,
    SCHEMA_VERSION,
    TAIL_FROM,
    SqliteStore,
    encode_save,
    files,
    open_store,
    saves,
    seats,
)
from twofold.ui.lines import JsonFront, PlainFront


class FailingConnection:
    """A real connection whose COMMIT fails with ``error`` while ``failing`` is set."""

    def __init__(self, real: sqlite3.Connection, error: sqlite3.Error) -> None:
        self.real = real
        self.error = error
        self.failing = False

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if self.failing and statement == "COMMIT":
            raise self.error
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def read_only_error() -> sqlite3.Error:
    return sqlite3.OperationalError("attempt to write a readonly database")


def disk_full_error() -> sqlite3.Error:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = sqlite3.SQLITE_FULL  # type: ignore[attr-defined]
    return error


def failing_store(error: sqlite3.Error) -> tuple[SqliteStore, FailingConnection]:
    made: list[FailingConnection] = []

    def connect(path: str) -> sqlite3.Connection:
        made.append(FailingConnection(store_module.connect(path), error))
        return made[-1]  # type: ignore[return-value]

    store = open_store(connect=connect)
    return store, made[-1]


def replies(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def play_to_the_end(front: JsonFront | PlainFront) -> None:
    for _ in range(20):
        if front.session.game.over:
            return
        front.handle("add")
    raise AssertionError("the tally did not end")


# -- 1. a failed write during play ----------------------------------------------------------


def test_a_read_only_file_is_in_every_reply_and_nothing_is_lost() -> None:
    """chmod 0444 twofold.db; twofold play 2048 --json: every reply said changed: true."""
    store, connection = failing_store(read_only_error())
    session = Session(TALLY, store)
    out = io.StringIO()
    front = JsonFront(session, out)
    front.begin()
    front.handle("add")
    connection.failing = True
    front.handle("add")
    front.handle("add")
    play_to_the_end(front)  # the finished game cannot be written either
    failing = replies(out)[2:]
    assert failing and all("readonly" in reply["notice"] for reply in failing)
    assert store.pending
    finished_id = session.game.game_id
    connection.failing = False
    front.handle("new")  # a write that works takes everything that waited
    assert "notice" not in replies(out)[-1]
    assert not store.pending
    session.close()
    store.close()
    with open_store() as again:
        games = again.finished_games("tally")
        assert [g.game_id for g in games] == [finished_id]
        assert again.records("tally").played == 1


def test_a_full_disk_is_told_once_in_plain_and_kept_when_space_returns() -> None:
    """A 400 KB tmpfs: 123 commands acknowledged, the finished game lost."""
    store, connection = failing_store(disk_full_error())
    told: list[str] = []
    session = Session(TALLY, store)
    out = io.StringIO()
    front = PlainFront(session, out)
    front.begin()
    connection.failing = True
    front.handle("add")
    front.handle("add")
    assert out.getvalue().count("disk is full") == 1  # one line when it starts
    play_to_the_end(front)
    moves = list(session.game.log)
    connection.failing = False
    session.on_notice = told.append
    front.handle("undo")
    assert told == ["Progress is saved again."]
    session.close()
    store.close()
    with open_store() as again:
        assert again.records("tally").played == 1
        saved = again.load_save("tally")
        assert saved is not None and list(saved.actions) == [*moves, "undo"]


class TimedConnection:
    """A real connection that keeps the busy timeout each of its writes began under."""

    def __init__(self, real: sqlite3.Connection) -> None:
        self.real = real
        self.timeout_ms = -1
        #: the busy timeout (ms) in force at each ``BEGIN`` of a write, in order
        self.writes: list[int] = []

    def execute(self, statement: str, *args: Any) -> sqlite3.Cursor:
        if statement.startswith("PRAGMA busy_timeout ="):
            self.timeout_ms = int(statement.rsplit("=", 1)[1])
        elif statement.startswith("BEGIN"):
            self.writes.append(self.timeout_ms)
        return self.real.execute(statement, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


def test_a_lock_held_past_the_timeout_is_told_fast_and_kept_after(
    twofold_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the write lock: each reply took 10 s, the game from new lost."""
    monkeypatch.setattr(files, "BUSY_TIMEOUT", 0.3)
    monkeypatch.setattr(files, "BUSY_TIMEOUT_FAILING", 0.01)
    made: list[TimedConnection] = []

    def connect(path: str) -> sqlite3.Connection:
        made.append(TimedConnection(store_module.connect(path)))
        return made[-1]  # type: ignore[return-value]

    store = open_store(connect=connect)
    session = Session(TALLY, store)
    out = io.StringIO()
    front = JsonFront(session, out)
    front.begin()
    holder = sqlite3.connect(twofold_home / DB_NAME, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    front.handle("add")
    assert "locked" in replies(out)[-1]["notice"]
    [connection] = made
    first = len(connection.writes)
    play_to_the_end(front)
    # the waits themselves, not the wall clock of a busy machine: once a write has met the
    # lock, every later write while it stays locked waits 10 ms, not the full busy timeout
    locked_writes = connection.writes[first:]
    assert locked_writes and set(locked_writes) == {10}, locked_writes
    assert all("locked" in reply["notice"] for reply in replies(out)[1:])
    holder.execute("ROLLBACK")
    holder.close()
    front.handle("new")
    assert "notice" not in replies(out)[-1]
    session.close()
    store.close()
    with open_store() as again:
        assert again.records("tally").played == 1


def test_a_start_that_cannot_write_shows_what_it_could_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 0555 folder: played in memory but showed none of the records it could read."""
    with open_store() as store:
        session = Session(TALLY, store)
        for _ in range(20):
            if session.game.over:
                break
            session.act("add")
        session.new_game()
        session.act("add")
        session.close()

    def cannot_write(path: str) -> sqlite3.Connection:
        if path != store_module.MEMORY:
            raise sqlite3.OperationalError("unable to open database file")
        return store_module.connect(path)

    with open_store(connect=cannot_write) as store:
        assert store.in_memory and store.notice and "could not be opened" in store.notice
        assert store.records("tally").played == 1
        session = Session(TALLY, store)
        assert session.game.log == ["add"]  # the save resumed
        assert session.write_problem == store.notice  # in every reply of the line modes


# -- 2. two windows on one mode ------------------------------------------------------------


def test_a_second_window_plays_its_own_game_and_both_are_recorded() -> None:
    """Save with left; start A and B; A: up, new; B: down, new -> played = 1."""
    first = open_store(owner="window-a")
    second = open_store(owner="window-b")
    a = Session(TALLY, first)
    a.act("add")
    saved = first.load_save("tally")
    b = Session(TALLY, second)
    assert not b.seated and b.notice and "open in another window" in b.notice
    assert b.game.game_id != a.game.game_id and b.game.log == []
    b.act("add")
    assert b.write_problem and "another window" in b.write_problem
    with open_store(owner="reader") as reader:
        assert reader.load_save("tally") == saved  # B did not overwrite A's save
    a.new_game()
    b.new_game()
    with open_store(owner="reader") as reader:
        assert reader.records("tally").played == 2
    a.close()
    b.close()
    first.close()
    second.close()


def test_a_seat_whose_process_ended_is_free(twofold_home: Path) -> None:
    with open_store() as store:
        Session(TALLY, store).act("add")
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    pid = int(ended.stdout)
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute(
            "UPDATE seats SET owner = 'gone', pid = ?, started = '1'", (pid,)
        ) if connection.execute("SELECT 1 FROM seats").fetchone() else connection.execute(
            "INSERT INTO seats VALUES ('tally', 'gone', ?, ?, '1', 0)", (pid, seats.HOST)
        )
    with open_store() as store:
        session = Session(TALLY, store)
        assert session.seated and session.game.log == ["add"]


def test_two_processes_on_one_mode_lose_no_finished_game(twofold_home: Path) -> None:
    earlier = window(twofold_home, "--json")
    first(earlier)
    for move in ("left", "up", "right", "down"):
        send(earlier, move)
    end(earlier)
    a = window(twofold_home, "--json")
    start_a = first(a)  # A has the seat before B starts
    b = window(twofold_home, "--json")
    start_b = first(b)
    assert "notice" not in start_a and start_a["moves"] > 0  # A resumed the save
    assert "another window" in start_b["notice"] and start_b["moves"] == 0
    for played, moves in ((a, ("up", "left", "down", "right")), (b, ("down", "right", "up"))):
        for move in moves:
            send(played, move)
        send(played, "new")
        end(played)
    with open_store() as store:
        assert store.records("2048").played == 2


# -- 7, 8, 9: rows, saves and files ---------------------------------------------------------


def _finished(game_id: str, score: int = 10) -> FinishedGame:
    return FinishedGame(
        game_id, "tally", "7K3M9QXP", score, 8, 3, 1.0, True, False, (2, 8), {}, None, 1.0
    )


def test_a_finished_row_that_does_not_read_is_skipped_with_a_notice(twofold_home: Path) -> None:
    """update finished set score='abc' crashed twofold stats --json and the app."""
    with open_store() as store:
        store.record_finished(_finished("good", 10))
        store.record_finished(_finished("bad", 20))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE finished SET score = 'abc' WHERE game_id = 'bad'")
    with open_store() as store:
        assert store.records("tally").played == 1
        assert store.records("tally").best == 10
        assert [g.game_id for g in store.finished_games("tally")] == ["good"]
        assert store.recent_scores("tally") == [10]
        assert store.notice and "could not be read" in store.notice
    result = subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", "stats", "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "TWOFOLD_HOME": str(twofold_home)},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "could not be read" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        pytest.param({"code": "A" * 10_000}, "not a game code", id="code-10000-characters"),
        pytest.param({"format": -5}, "format", id="format-minus-5"),
    ],
)
def test_a_save_that_is_not_valid_is_set_aside(
    twofold_home: Path, change: dict[str, Any], reason: str
) -> None:
    saved = SavedGame("tally", "7K3M9QXP", ("add",), game_id="g")
    data = json.loads(encode_save(saved))
    data.pop("check")
    data.update(change)
    data["check"] = saves.checksum(data)
    with open_store() as store:
        store.write_save(saved)
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE saves SET data = ?", (json.dumps(data),))
    with open_store() as store:
        session = Session(TALLY, store)
        assert session.notice and reason in session.notice
        assert session.game.log == [] and len(session.game.code) == 8


def test_another_programs_database_is_never_written(tmp_path: Path, twofold_home: Path) -> None:
    """twofold.db a link to another program's SQLite file: twofold added its tables, WAL."""
    other = tmp_path / "app.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("INSERT INTO t VALUES (1)")
    connection.close()
    before = other.read_bytes()
    (twofold_home / DB_NAME).symlink_to(other)
    with open_store() as store:
        assert store.in_memory
        assert store.notice and "not a twofold database" in store.notice
        Session(TALLY, store).act("add")
    assert other.read_bytes() == before
    assert not list(tmp_path.glob("app.sqlite-*"))


def test_an_older_twofold_database_is_upgraded_and_marked(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    connection = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        connection.execute(statement)
    connection.execute("PRAGMA user_version = 1")
    saved = SavedGame("tally", "7K3M9QXP", ("add", "add"), game_id="old")
    connection.execute("INSERT INTO saves VALUES ('tally', ?, 0)", (encode_save(saved),))
    connection.close()
    with open_store() as store:
        assert store.notice is None
        assert store.load_save("tally") == saved
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_the_database_and_its_wal_are_the_players_alone(twofold_home: Path) -> None:
    """Files were created 0644 (other users could read a player's data)."""
    os.umask(0o022)
    with open_store() as store:
        Session(TALLY, store).act("add")
        for name in (DB_NAME, DB_NAME + "-wal"):
            assert stat.S_IMODE((twofold_home / name).stat().st_mode) == 0o600, name


def test_crash_log_is_not_followed_through_a_link(tmp_path: Path, twofold_home: Path) -> None:
    """A symlinked crash.log had tracebacks appended to its target."""
    from twofold.ui.command.cli import crash_report

    target = tmp_path / "target.txt"
    target.write_text("original\n")
    (twofold_home / "crash.log").symlink_to(target)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        message = crash_report()
    assert target.read_text() == "original\n"
    assert "no details" in message
    (twofold_home / "crash.log").unlink()
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        crash_report()
    log = twofold_home / "crash.log"
    assert "boom" in log.read_text() and stat.S_IMODE(log.stat().st_mode) == 0o600


# -- saves grow by appending ----------------------------------------------------------------


def test_a_long_game_appends_and_resumes_exactly(twofold_home: Path) -> None:
    """Every save rewrote the whole log: 2248 over --json fell from 1,173/s to 477/s."""
    with open_store() as store:
        session = Session(TALLY, store)
        for number in range(500):
            session.act("add" if number % 2 == 0 else "undo")
        log = list(session.game.log)
        with sqlite3.connect(twofold_home / DB_NAME) as connection:
            base = json.loads(connection.execute("SELECT data FROM saves").fetchone()[0])
            tail = connection.execute("SELECT COUNT(*) FROM save_tail").fetchone()[0]
        assert len(base["actions"]) + tail == 500
        assert 0 < tail <= max(len(base["actions"]), TAIL_FROM)
    with open_store() as store:
        again = Session(TALLY, store)
        assert again.game.log == log


def test_a_damaged_tail_row_resumes_at_the_last_good_action(twofold_home: Path) -> None:
    """One changed save_tail row once threw the whole game away; now it resumes before it."""
    with open_store() as store:
        session = Session(TALLY, store)
        for number in range(6):
            session.act("add" if number % 2 == 0 else "undo")
        log = list(session.game.log)
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("UPDATE save_tail SET action = 'stay' WHERE seq = 3")
    with open_store() as store:
        again = Session(TALLY, store)
        assert again.notice and "3 actions" in again.notice and "damaged" in again.notice
        assert again.game.log == log[:3]
        again.act("add")
        again.close()
    with open_store() as store:
        resumed = Session(TALLY, store)
        assert resumed.notice is None and resumed.game.log == [*log[:3], "add"]


def test_a_missing_tail_row_resumes_before_it(twofold_home: Path) -> None:
    with open_store() as store:
        session = Session(TALLY, store)
        for number in range(6):
            session.act("add" if number % 2 == 0 else "undo")
        log = list(session.game.log)
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        connection.execute("DELETE FROM save_tail WHERE seq = 4")
    with open_store() as store:
        again = Session(TALLY, store)
        assert again.notice and "2 actions" in again.notice
        assert again.game.log == log[:4]
