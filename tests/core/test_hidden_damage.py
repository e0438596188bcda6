"""The store: damage quick_check cannot see, stored triggers, files not ours.

One test per case found, each with its reproduction; every one failed before the fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tests.core.fuzz_files import command
from tests.core.test_store import finished
from tests.core.toy import TALLY
from twofold.core.session import Session
from twofold.core.store import DB_NAME, open_store, saves, seats
from twofold.core.store.schema import SAVES

PAGE = 4096


def a_long_tally(store: object, actions: int, *, close: bool = True) -> list[str]:
    """A tally game of ``actions`` actions (add and undo in turn), saved; its log.

    Not closed, the save keeps its tail rows (a closing save writes its base again).
    """
    session = Session(TALLY, store)  # type: ignore[arg-type]
    for number in range(actions):
        session.act("undo" if number % 2 else "add")
    log = list(session.game.log)
    if close:
        session.close()
    return log


def a_file_with_a_save(home: Path, actions: int = 41) -> tuple[Path, list[str]]:
    """twofold.db with a tally save of ``actions`` actions: a base and a tail."""
    with open_store() as store:
        log = a_long_tally(store, actions, close=False)
    path = home / DB_NAME
    assert not Path(f"{path}-wal").exists()  # the last close folded it in
    return path, log


def root_page(path: Path, name: str) -> int:
    connection = sqlite3.connect(path)
    try:
        return int(
            connection.execute(
                "SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)
            ).fetchone()[0]
        )
    finally:
        connection.close()


def flip_in_page(path: Path, page: int, old: bytes, new: bytes, *, count: int = -1) -> None:
    """Overwrite ``old`` with ``new`` inside one page (every time, or the first ``count``)."""
    data = bytearray(path.read_bytes())
    start, end = (page - 1) * PAGE, page * PAGE
    chunk = bytes(data[start:end])
    assert old in chunk
    data[start:end] = chunk.replace(old, new, count)
    path.write_bytes(bytes(data))


# -- 1. damage that quick_check passes ------------------------------------------------------


def test_a_damaged_key_index_hides_no_save(twofold_home: Path) -> None:
    """'tally' read 'tallz' in the saves' key index: quick_check passed, the save was
    not found, a fresh game started and a second row was written beside the hidden one."""
    path, log = a_file_with_a_save(twofold_home)
    flip_in_page(path, root_page(path, "sqlite_autoindex_saves_1"), b"tally", b"tallz")
    with open_store() as store:
        assert store.notice is not None and "repaired" in store.notice
        saved = store.load_save("tally")
        assert saved is not None and list(saved.actions) == log and not saved.lost


def test_a_damaged_tail_index_shortens_no_save(twofold_home: Path) -> None:
    """Every entry of save_tail's key index damaged: the save resumed at its base, silently."""
    path, log = a_file_with_a_save(twofold_home)
    flip_in_page(path, root_page(path, "sqlite_autoindex_save_tail_1"), b"tally", b"tallz")
    with open_store() as store:
        saved = store.load_save("tally")
        assert saved is not None and list(saved.actions) == log


def test_a_tail_row_lost_to_a_damaged_base_is_told(twofold_home: Path) -> None:
    """One byte of the last tail row's ``base`` column: the row was skipped, silently."""
    path, log = a_file_with_a_save(twofold_home)
    with open_store() as store:
        base = store._read("SELECT base FROM save_tail ORDER BY seq DESC LIMIT 1")[0][0]
    # the rows of a leaf page are written from its end: the last row's base comes first
    flip_in_page(path, root_page(path, "save_tail"), base.encode(), b"0" * len(base), count=1)
    with open_store() as store:
        saved = store.load_save("tally")
    assert saved is not None
    assert saved.lost >= 1 and list(saved.actions) == log[: len(saved.actions)]
    assert len(saved.actions) + saved.lost == len(log)


def test_a_page_copied_over_another_is_moved_aside_and_what_reads_is_kept(
    twofold_home: Path,
) -> None:
    """One page copied over another: "malformed" on every save of every start, for ever."""
    path, log = a_file_with_a_save(twofold_home)
    data = bytearray(path.read_bytes())
    source, victim = root_page(path, "saves"), root_page(path, "sqlite_autoindex_saves_1")
    data[(victim - 1) * PAGE : victim * PAGE] = data[(source - 1) * PAGE : source * PAGE]
    path.write_bytes(bytes(data))
    with open_store() as store:
        assert store.notice is not None and not store.in_memory
        session = Session(TALLY, store)
        assert list(session.game.log) == log
        session.act("add")
        assert session.write_problem is None
        session.close()
    with open_store() as store:
        assert store.notice is None
        saved = store.load_save("tally")
        assert saved is not None and len(saved.actions) == len(log) + 1


def test_damage_a_write_meets_moves_the_file_aside(twofold_home: Path) -> None:
    """A file whole when opened, damaged under the running store: every write failed."""
    with open_store() as store:
        log = a_long_tally(store, 9)
        store._connection.close()
        path = twofold_home / DB_NAME
        data = bytearray(path.read_bytes())
        at = (root_page(path, "save_tail") - 1) * PAGE
        data[at : at + 8] = b"\xff" * 8  # the page header: not a b-tree page at all
        path.write_bytes(bytes(data))
        Path(f"{path}-wal").unlink(missing_ok=True)
        Path(f"{path}-shm").unlink(missing_ok=True)
        store._connection = store.connect(str(path))
        session = Session(TALLY, store)
        session.act("add")
        assert session.write_problem is None, session.write_problem
        session.close()
    assert list(twofold_home.glob(f"{DB_NAME}.broken-*"))
    with open_store() as store:
        saved = store.load_save("tally")
        assert saved is not None and list(saved.actions) == [*log, "add"]


# -- 2. objects in the file that are not twofold's --------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE TRIGGER spoil BEFORE UPDATE ON seats BEGIN UPDATE saves SET data = 'x'; END",
        "CREATE TRIGGER drop_tail AFTER INSERT ON save_tail BEGIN DELETE FROM save_tail; END",
        "CREATE VIEW peek AS SELECT * FROM saves",
        "CREATE INDEX extra ON save_tail (action)",
    ],
)
def test_a_stored_trigger_never_runs(twofold_home: Path, statement: str) -> None:
    path, log = a_file_with_a_save(twofold_home)
    connection = sqlite3.connect(path)
    connection.execute(statement)
    connection.commit()
    connection.close()
    with open_store() as store:
        assert store.notice is not None and "repaired" in store.notice
        session = Session(TALLY, store)
        session.act("add")
        session.close()
    with open_store() as store:
        assert store.notice is None
        saved = store.load_save("tally")
        assert saved is not None and list(saved.actions)[: len(log)] == log
        names = store._read("SELECT name FROM sqlite_master WHERE type IN ('trigger', 'view')")
        assert names == []


# -- 4. a file that cannot be opened -----------------------------------------------------------


def test_an_unreadable_file_plays_in_memory_with_a_notice(twofold_home: Path) -> None:
    """chmod 000 as a user who is not root: every start ended "unexpected error: unable to
    open database file". Root reads any file, so as root the test runs as nobody."""
    path, _log = a_file_with_a_save(twofold_home)
    path.chmod(0)
    command = [sys.executable, "-m", "twofold.ui.command.cli"]
    env = {**os.environ, "TWOFOLD_HOME": str(twofold_home)}
    with contextlib.ExitStack() as cleanup:
        if os.geteuid() == 0:
            setpriv = "/usr/bin/setpriv"
            if not os.path.exists(setpriv):
                pytest.skip("no setpriv to run as another user")
            # not under pytest's own temporary folder: any other pytest starting meanwhile
            # makes that folder private again (0700), and nobody could no longer reach the file
            outside = Path(tempfile.mkdtemp(prefix="twofold-nobody-"))
            cleanup.callback(shutil.rmtree, outside)
            outside.chmod(0o711)
            home = outside / "home"
            home.mkdir()
            path = Path(shutil.move(path, home / DB_NAME))
            os.chown(home, 65534, 65534)
            os.chown(path, 65534, 65534)
            env["TWOFOLD_HOME"] = str(home)
            command = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", *command]
            env["PYTHONDONTWRITEBYTECODE"] = "1"
            probe = subprocess.run([*command[:-2], "-c", "import twofold"], capture_output=True)
            if probe.returncode != 0:
                pytest.skip("the user nobody cannot import twofold here")
        for args, stdin in (
            (["play", "2048", "--json"], "left\nquit\n"),
            (["stats", "--json"], ""),
        ):
            result = subprocess.run(
                [*command, *args], input=stdin, capture_output=True, text=True, timeout=60, env=env
            )
            assert result.returncode == 0, result.stderr
            assert "unexpected error" not in result.stderr
            assert "could not be opened" in result.stdout + result.stderr


# -- 5. files that are not twofold's ----------------------------------------------------------


def a_foreign_wal_database(path: Path) -> dict[str, bytes]:
    """Another program's WAL database whose writer was killed: its -wal still pending."""
    script = (
        "import os, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('PRAGMA journal_mode = WAL')\n"
        "c.execute('PRAGMA wal_autocheckpoint = 0')\n"
        "c.execute('CREATE TABLE notes (text TEXT)')\n"
        "c.execute(\"INSERT INTO notes VALUES ('mine')\")\n"
        "c.commit()\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", script, str(path)], check=True)
    files = {name: Path(f"{path}{name}") for name in ("", "-wal", "-shm")}
    assert files["-wal"].stat().st_size > 0
    return {name: file.read_bytes() for name, file in files.items()}


@pytest.mark.parametrize("linked", [False, True])
def test_another_programs_wal_database_is_not_touched(
    twofold_home: Path, tmp_path: Path, linked: bool
) -> None:
    other = tmp_path / "other.db" if linked else twofold_home / DB_NAME
    before = a_foreign_wal_database(other)
    if linked:
        (twofold_home / DB_NAME).symlink_to(other)
    with open_store() as store:
        assert store.in_memory and store.notice and "not a twofold database" in store.notice
        a_long_tally(store, 3)
    after = {name: Path(f"{other}{name}").read_bytes() for name in before}
    assert after == before


def test_a_link_to_a_device_makes_nothing_beside_it(twofold_home: Path, tmp_path: Path) -> None:
    """twofold.db -> /dev/null: SQLite made /dev/null-journal."""
    target = tmp_path / "fifo"
    os.mkfifo(target)  # a device of our own: /dev/null's folder is not the test's to write
    (twofold_home / DB_NAME).symlink_to(target)
    with open_store() as store:
        assert store.in_memory and store.notice and "not a regular file" in store.notice
        a_long_tally(store, 3)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("fifo")) == ["fifo"]
    assert sorted(p.name for p in twofold_home.iterdir()) == [DB_NAME]


def test_a_fifo_where_the_wal_goes_is_not_deleted(twofold_home: Path) -> None:
    path, _log = a_file_with_a_save(twofold_home)
    wal = Path(f"{path}-wal")
    os.mkfifo(wal)
    began = time.monotonic()
    with open_store() as store:
        assert store.in_memory and store.notice and "not a regular file" in store.notice
        assert store.load_save("tally") is not None  # what it holds still shows
    assert time.monotonic() - began < 30
    assert wal.is_fifo()


# -- 6. seat rows that cannot be true -----------------------------------------------------------


@pytest.mark.parametrize(
    "row",
    [
        ("tally", "o", 12, "other-host", "", 1e18),  # a beat in the far future
        ("tally", "o", 1, "HOST", "", 0.0),  # pid 1 on this host, with no start time
    ],
)
def test_a_seat_row_that_cannot_be_true_is_stale(twofold_home: Path, row: tuple) -> None:
    _path, log = a_file_with_a_save(twofold_home)
    row = tuple(seats.HOST if value == "HOST" else value for value in row)
    with open_store() as store:
        store._read(f"INSERT OR REPLACE INTO seats VALUES ({', '.join('?' * 6)})", row)
    with open_store() as store:
        assert store.claim_seat("tally")
        session = Session(TALLY, store)
        assert list(session.game.log) == log
        session.act("add")
        session.close()
    with open_store() as store:
        saved = store.load_save("tally")
        assert saved is not None and len(saved.actions) == len(log) + 1


def test_the_tip_row_follows_a_save_aside_and_away(twofold_home: Path) -> None:
    _path, _log = a_file_with_a_save(twofold_home)
    with open_store() as store:
        store.set_aside("tally")
        names = sorted(row[0] for row in store._read(f"SELECT mode_id FROM {SAVES.name}"))
    assert not any(name.startswith("tally#") and "aside" not in name for name in names)
    assert saves.tip_slot("tally") not in names


# -- 3. scores past 2**63 -----------------------------------------------------------------------


def test_scores_past_two_to_the_63_are_kept_and_summed_exactly(twofold_home: Path) -> None:
    """A 2248 game past 9,223,372,036,854,775,807: "Python int too large to convert to
    SQLite INTEGER", and the game was never recorded."""
    huge = 2**64 + 12_345
    games = [
        finished("a", mode_id="2248", score=huge, largest=2**66, tiles=(2, 2**66), finished_at=1.0),
        finished("b", mode_id="2248", score=2**62, largest=2**40, finished_at=2.0),
        finished("c", mode_id="2248", score=3, largest=4, finished_at=3.0),
    ]
    with open_store() as store:
        for game in games:
            store.record_finished(game)
        assert store.write_problem is None and not store.pending
        store.record_finished(replace(games[0], game_id="d", counted=False))
    with open_store() as store:
        kept = {game.game_id: game for game in store.finished_games("2248")}
        assert kept["a"].score == huge and kept["a"].largest == 2**66
        assert kept["a"].tiles == (2, 2**66)
        records = store.records("2248")
        assert records.best == huge and records.largest == 2**66 and records.played == 3
        total = huge + 2**62 + 3
        assert records.average == (2 * total + 3) // 6
        assert 2**66 in records.tiles
        assert store.recent_scores("2248") == [huge, 2**62, 3]
        assert store.notice is None
    status, out, _err = command("stats", "2248", "--json")
    assert status == 0
    shown = json.loads(out)["modes"]["2248"]
    assert shown["best"] == huge and shown["largest"] == 2**66
    status, out, _err = command("stats", "2248")
    assert status == 0 and f"{huge:,}" in out
