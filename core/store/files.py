"""The database file: where it lives, how it is opened, checked, migrated and moved aside.

Opening reads the file's header before anything writes, so a newer twofold's file
and another program's file stay exactly as they are; a damaged file is moved aside
(``twofold.db.broken-<time>``). The file, its WAL files and the folder are the
player's alone (0600, 0700).
"""

from __future__ import annotations

import ctypes
import json
import os
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from twofold.core.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    differences,
    extends,
    shape,
)
from twofold.core.store.writes import passing

HOME_VARIABLE = "TWOFOLD_HOME"
DB_NAME = "twofold.db"
MEMORY = ":memory:"
#: seconds a writer waits for another process to finish its transaction
BUSY_TIMEOUT = 10.0
#: the busy timeout while writes are failing on a lock: tell the player soon, not in 10 s
BUSY_TIMEOUT_FAILING = 0.25
#: the busy timeout until a first write works (a lock held at start is told within a second)
BUSY_TIMEOUT_START = 1.0
#: pages of WAL before SQLite copies them into the database (its default is 1000, 4 MB)
WAL_PAGES = 32
#: the most versions a newer twofold may be ahead (a larger number is a damaged header)
NEWER_AT_MOST = 1000
#: SQLite's result codes for a file that is damaged or not a database at all
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})

#: how a store gets a connection to a database file (or ``MEMORY``); tests hand in fakes
Connect = Callable[[str], sqlite3.Connection]


def data_dir() -> Path:
    """The folder of the player's data: ``TWOFOLD_HOME`` if set, else the platform's."""
    home = os.environ.get(HOME_VARIABLE, "").strip()
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir("twofold", appauthor=False))


class DamagedDatabase(Exception):
    """The file is not a usable twofold database (internal: it gets moved aside)."""


class NewerDatabase(Exception):
    """The file was written by a newer twofold (internal: it is left alone)."""


class ForeignDatabase(Exception):
    """The file is another program's database (internal: it is never written)."""


def connect(path: str) -> sqlite3.Connection:
    """SQLite's connection, as the store uses it (the default :data:`Connect`)."""
    # Transactions are explicit (BEGIN IMMEDIATE); the lock lets a UI call from a worker thread.
    return sqlite3.connect(
        path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
    )


def is_damage(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    if "unsupported file format" in text:
        return True  # the header's format bytes, damaged (twofold's file is SQLite 3's)
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _DAMAGE_CODES
    return "not a database" in text or "malformed" in text


def is_full(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code == sqlite3.SQLITE_FULL or "full" in str(error).lower()


def one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def roll_back(connection: sqlite3.Connection) -> None:
    # A failed COMMIT may already have ended the transaction; the first error is the one to tell.
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def _text(data: bytes) -> str:
    # a damaged byte in any text (a table's name, a save) must not stop a start: it reads as
    # U+FFFD, which no name, checksum or schema check accepts
    return data.decode("utf-8", "replace")


def open_connection(path: Path | None, connect: Connect = connect) -> sqlite3.Connection:
    """A connection to ``path`` (None: in memory), checked and brought up to date.

    Raises DamagedDatabase, NewerDatabase, ForeignDatabase, or OSError/sqlite3.Error
    when the file cannot be opened at all.
    """
    connection = connect(MEMORY if path is None else str(path))
    try:
        connection.text_factory = _text
        if path is not None and shared_memory_blocked(path):
            # before the first access: SQLite then keeps the WAL index on its heap, never mapped
            connection.execute("PRAGMA locking_mode = EXCLUSIVE").fetchall()
        prepare(connection, on_disk=path is not None)
    except BaseException:
        connection.close()
        raise
    return connection


def shared_memory_blocked(path: Path) -> bool:
    """Whether the WAL index (``-shm``) exists but cannot be written (e.g. ``chattr +i``).

    SQLite maps that file into memory; writing a mapped page of a file that cannot be
    written kills the process with SIGBUS, so such a file must never be mapped.
    """
    shm = path.with_name(path.name + "-shm")
    return os.path.exists(shm) and not os.access(shm, os.W_OK)


def abandon(connection: sqlite3.Connection) -> None:
    """Never close ``connection``, not even when Python exits.

    Closing the last connection to a WAL file writes its mapped WAL index: with that
    file made unwritable under it, the write is SIGBUS. A reference never given back
    keeps SQLite from closing it; the process's end releases the file.
    """
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(connection))


def prepare(connection: sqlite3.Connection, *, on_disk: bool) -> None:
    """Check the file, bring its schema up to date; raise DamagedDatabase or NewerDatabase."""
    try:
        # Read the version before anything writes: a newer app's file must stay as it is.
        version, application_id, tables = header(connection)
        if version > SCHEMA_VERSION:
            found = shape(connection)
            # a newer twofold keeps today's tables and adds to them; anything else under a
            # higher version (today's very tables, or fewer) is a damaged header
            if version > SCHEMA_VERSION + NEWER_AT_MOST or not extends(found, SCHEMA_VERSION):
                raise DamagedDatabase(f"its schema version {version} is damaged")
            raise NewerDatabase(version)
        check_owner(connection, application_id, version, tables)
        # an older version's file has exactly that version's tables (or none at all)
        older = application_id == APPLICATION_ID and version < SCHEMA_VERSION
        if older and (version or tables) and differences(shape(connection), version):
            raise DamagedDatabase(f"its tables are not those of version {version}")
        if on_disk:
            use_wal(connection)
            # In WAL mode NORMAL loses no committed data when the process is killed.
            connection.execute("PRAGMA synchronous = NORMAL")
            # a small WAL (checkpointed often) keeps playing on a nearly full disk
            connection.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
            connection.execute(f"PRAGMA journal_size_limit = {WAL_PAGES * 4096 * 2}")
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise DamagedDatabase(check)
        if version < SCHEMA_VERSION:
            migrate(connection)
        problems = differences(shape(connection), SCHEMA_VERSION)
        if problems:
            raise DamagedDatabase("; ".join(problems))
    except sqlite3.Error as error:
        # a lock, a full disk or a permission may pass (the file is tried again later);
        # any other error while the file is checked and migrated is the file's damage
        if is_damage(error) or not passing(error):
            raise DamagedDatabase(one_line(error)) from error
        raise
    except (ValueError, TypeError, OverflowError) as error:  # a header that does not read
        raise DamagedDatabase(one_line(error)) from error


def header(connection: sqlite3.Connection) -> tuple[int, int, set[str]]:
    """``(user_version, application_id, tables)`` read at one instant (one statement)."""
    version, application_id, names = connection.execute(
        "SELECT (SELECT user_version FROM pragma_user_version),"
        " (SELECT application_id FROM pragma_application_id),"
        " (SELECT json_group_array(name) FROM sqlite_master WHERE type = 'table')"
    ).fetchone()
    return int(version), int(application_id), set(json.loads(names))


def check_owner(
    connection: sqlite3.Connection, application_id: int, version: int, tables: set[str]
) -> None:
    """Raise ForeignDatabase unless the file is empty or twofold's own."""
    if application_id == APPLICATION_ID:
        return
    if not tables and version == 0 and application_id == 0:
        return  # an empty file: twofold's from now on
    # an older twofold wrote no application_id: its file has exactly that version's tables
    if application_id == 0 and version and not differences(shape(connection), version):
        return
    if twofolds(connection):
        # twofold's tables under another id or version: its header is damaged, not foreign
        raise DamagedDatabase("its header is damaged")
    raise ForeignDatabase(application_id)


def twofolds(connection: sqlite3.Connection) -> bool:
    """Whether the tables are exactly those of some version of twofold's schema."""
    found = shape(connection)
    return any(not differences(found, version) for version in range(1, SCHEMA_VERSION + 1))


def use_wal(connection: sqlite3.Connection) -> None:
    """Switch the file to WAL once; the mode is persistent, so later opens only read it."""
    deadline = time.monotonic() + BUSY_TIMEOUT
    while connection.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            connection.execute("PRAGMA journal_mode = WAL").fetchone()
        except sqlite3.OperationalError as error:
            # the switch needs the file to itself and SQLite's busy timeout does not cover it
            if "locked" not in str(error).lower() or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


def migrate(connection: sqlite3.Connection) -> None:
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the write lock: another copy of the app may have just migrated.
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NewerDatabase(version)
        for step in MIGRATIONS[version:]:
            for statement in step:
                connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        roll_back(connection)
        raise


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL) out of the way; return the new name."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{number}")
    path.replace(target)
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        wal.replace(target.with_name(target.name + "-wal"))
    # The shared-memory index is rebuilt from the WAL; a stale one must not meet the new file.
    path.with_name(path.name + "-shm").unlink(missing_ok=True)
    return target


def create_private(path: Path) -> Path | None:
    """Create a missing database file for the player alone (SQLite gives its WAL the same mode).

    A link whose target is missing gets its target created so, and that target is
    returned (the player is told where their data went); otherwise None.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() and not path.exists() else None
    with suppress(FileExistsError):
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        os.close(os.open(target or path, flags, 0o600))
    return target
