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
import shutil
import sqlite3
import stat
import time
from collections.abc import Callable
from contextlib import suppress
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from twofold.core.store.readable import KEPT, readable_rows
from twofold.core.store.schema import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    differences,
    expected_objects,
    extends,
    objects,
    shape,
    strays,
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
#: the files SQLite keeps beside a database, and may create, fold in or delete
COMPANIONS = ("-wal", "-shm", "-journal")
#: the first bytes of every SQLite 3 file, and where its header keeps the application_id
SQLITE_MAGIC = b"SQLite format 3\x00"
APPLICATION_ID_AT = 68
#: the most of a WAL file read to find its first page (twofold's stays far smaller)
WAL_READ_MOST = 64 * 1024 * 1024
#: how many problems integrity_check lists (the first one is told)
INTEGRITY_PROBLEMS = 20

#: how a store gets a connection to a database file (or ``MEMORY``); tests hand in fakes
Connect = Callable[[str], sqlite3.Connection]


def data_dir() -> Path:
    """The folder of the player's data: ``TWOFOLD_HOME`` if set, else the platform's."""
    home = os.environ.get(HOME_VARIABLE, "").strip()
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir("twofold", appauthor=False))


class DamagedDatabase(Exception):
    """The file is not a usable twofold database (internal: it gets moved aside).

    ``kept``: a copy of the file as it was before a repair wrote to it, if one was made.
    """

    def __init__(self, *args: object, kept: Path | None = None) -> None:
        super().__init__(*args)
        self.kept = kept


class NewerDatabase(Exception):
    """The file was written by a newer twofold (internal: it is left alone)."""


class ForeignDatabase(Exception):
    """The file is another program's database (internal: it is never written)."""


class NotAFile(ForeignDatabase):
    """The path (or a file SQLite keeps beside it) is no regular file: a device, a FIFO, a
    folder. SQLite would create or delete files beside it; nothing is opened there."""


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

    Raises DamagedDatabase, NewerDatabase, ForeignDatabase (NotAFile), or
    OSError/sqlite3.Error when the file cannot be opened at all.
    """
    return open_checked(path, connect)[0]


def open_checked(
    path: Path | None, connect: Connect = connect
) -> tuple[sqlite3.Connection, list[str]]:
    """:func:`open_connection`, and what was repaired on the way (for the player's notice)."""
    if path is not None:
        check_file(path)
    if path is not None:
        writable_leftovers(path)
    connection = connect(MEMORY if path is None else str(path))
    try:
        connection.text_factory = _text
        if path is not None and shared_memory_blocked(path):
            # before the first access: SQLite then keeps the WAL index on its heap, never mapped
            connection.execute("PRAGMA locking_mode = EXCLUSIVE").fetchall()
        repairs = prepare(connection, on_disk=path is not None)
    except BaseException:
        connection.close()
        raise
    return connection, repairs


def check_file(path: Path) -> None:
    """Decide what ``path`` is before SQLite opens it (opening may change another's file).

    Raises NotAFile for a path, or a file beside it, that is no regular file, and
    ForeignDatabase for another program's database (told by its header's bytes, then by
    its tables read with the file opened immutable: nothing of it is written, its WAL
    is neither folded in nor deleted). A missing or empty file is twofold's to create.
    """
    real = Path(os.path.realpath(path))
    for base in dict.fromkeys((path, real)):
        for name in (base, *(base.with_name(base.name + end) for end in COMPANIONS)):
            try:
                mode = os.stat(name).st_mode
            except FileNotFoundError:
                continue
            except OSError:
                return  # unreadable: SQLite's own open tells why (the file is tried again)
            if not stat.S_ISREG(mode):
                raise NotAFile(str(name))
    try:
        with open(real, "rb") as file:
            head = file.read(100)
        found = None
        if len(head) == 100 and head[:16] == SQLITE_MAGIC:
            found = int.from_bytes(head[APPLICATION_ID_AT : APPLICATION_ID_AT + 4], "big")
        if found == APPLICATION_ID:
            return  # twofold's (its own WAL is not read)
        pending = wal_application_id(real.with_name(real.name + "-wal"))
    except OSError:
        return
    if pending == APPLICATION_ID:
        return
    if pending is not None and found is None:
        raise ForeignDatabase(pending)  # all of it still in another program's WAL
    if found is None:
        return  # empty (twofold's to fill) or not a database at all (damaged: moved aside)
    try:
        source = sqlite3.connect(f"{real.as_uri()}?immutable=1", uri=True)
    except sqlite3.Error:
        return
    try:
        source.text_factory = _text
        version, application_id, tables = header(source)
        check_owner(source, application_id, version, tables)
        if pending is not None and not tables:
            raise ForeignDatabase(pending)  # an empty file whose WAL holds another's tables
    except (sqlite3.Error, ValueError, TypeError, OverflowError, DamagedDatabase):
        return  # not readable as another's database: the checks of a real open decide
    finally:
        source.close()


def wal_application_id(wal: Path) -> int | None:
    """The application_id of the newest page 1 in a WAL file, or None if it holds none.

    A database whose writer was killed keeps its last writes there, its first page too:
    the main file may not even have a header yet.
    """
    try:
        with open(wal, "rb") as file:
            data = file.read(WAL_READ_MOST)
    except FileNotFoundError:
        return None
    if len(data) < 32 or int.from_bytes(data[:4], "big") not in (0x377F0682, 0x377F0683):
        return None
    size, salts = int.from_bytes(data[8:12], "big"), data[16:24]
    if size < 512 or size & (size - 1):
        return None
    found = None
    for at in range(32, len(data) - 24 - size + 1, 24 + size):
        if data[at + 8 : at + 16] != salts:
            break  # a frame of an earlier generation of the WAL: nothing after it counts
        if int.from_bytes(data[at : at + 4], "big") == 1:
            page = data[at + 24 : at + 24 + 100]
            if page[:16] == SQLITE_MAGIC:
                found = int.from_bytes(page[APPLICATION_ID_AT : APPLICATION_ID_AT + 4], "big")
    return found


def writable_leftovers(path: Path) -> None:
    """Our own ``-wal`` and ``-shm`` left read-only (SQLite gives them the mode of a file
    that was read-only when they were made) become writable once the file is again: a
    leftover of ours is never a reason to hide a save."""
    if not os.access(path, os.W_OK):
        return
    for end in ("-wal", "-shm"):
        side = path.with_name(path.name + end)
        try:
            found = os.stat(side, follow_symlinks=False)
        except OSError:
            continue
        if (
            stat.S_ISREG(found.st_mode)
            and found.st_uid == os.geteuid()
            and not found.st_mode & stat.S_IWUSR
        ):
            with suppress(OSError):  # an immutable file (chattr +i) stays as it is
                os.chmod(side, 0o600)


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


def prepare(connection: sqlite3.Connection, *, on_disk: bool) -> list[str]:
    """Check the file, bring its schema up to date; raise DamagedDatabase or NewerDatabase.

    Returns what was repaired (indexes rebuilt, objects that are not twofold's removed).
    """
    repairs: list[str] = []
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
        # before any statement that writes a row: a trigger stored in the file never runs
        repairs += remove_foreign_objects(connection, version)
        repairs += make_whole(connection)
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
    return repairs


def integrity(connection: sqlite3.Connection) -> list[str]:
    """What ``PRAGMA integrity_check`` finds (empty: nothing); unlike quick_check it also
    reads every index against its table."""
    rows = connection.execute(f"PRAGMA integrity_check({INTEGRITY_PROBLEMS})").fetchall()
    found = [str(row[0]) for row in rows]
    if found == ["ok"]:
        return []
    # one row may hold several problems, one a line, under a heading of no use to a player
    lines = [line.strip() for text in found for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("***")] or ["damaged"]


def make_whole(connection: sqlite3.Connection) -> list[str]:
    """Check the whole file; rebuild what can be rebuilt (indexes from their tables, then the
    file from its tables); raise DamagedDatabase for what cannot."""
    problems = integrity(connection)
    if not problems:
        return []
    # a repair writes to the damaged file (and closing it folds its WAL in): what SQLite can
    # read of it is taken from a copy made before, never from what the repair left
    kept = keep_copy(connection)
    try:
        for repair in ("REINDEX", "VACUUM"):
            try:
                connection.execute(repair)
            except sqlite3.Error as error:
                if passing(error) and not is_damage(error):
                    raise  # a lock or a read-only file: the file is tried again later
                continue
            if not integrity(connection):
                if repair == "VACUUM" and not keeps_every_row(connection, kept):
                    break  # rebuilt from what a scan reads: rows on a bad page were dropped
                forget_copy(kept)
                return [problems[0]]
    except BaseException:
        forget_copy(kept)
        raise
    raise DamagedDatabase(problems[0], kept=kept)


def keeps_every_row(connection: sqlite3.Connection, kept: Path | None) -> bool:
    """Whether the rebuilt file has as many rows of each kept table as SQLite reads of the
    copy made before (no copy: nothing to compare with)."""
    if kept is None:
        return True
    for table in KEPT:
        readable = len(readable_rows(kept, table))
        if connection.execute(f"SELECT count(*) FROM {table.name}").fetchone()[0] < readable:
            return False
    return True


def keep_copy(connection: sqlite3.Connection) -> Path | None:
    """A copy of the connection's file and its WAL as they are now (None: in memory, or
    the copy failed), named as a damaged file is moved aside."""
    try:
        name = connection.execute("PRAGMA database_list").fetchone()[2]
    except sqlite3.Error:
        return None
    if not name:
        return None
    path = Path(name)
    target = broken_name(path)
    try:
        create_private(target)
        shutil.copyfile(path, target)
        wal = path.with_name(path.name + "-wal")
        if wal.exists():
            shutil.copyfile(wal, target.with_name(target.name + "-wal"))
    except OSError:
        forget_copy(target)
        return None
    return target


def forget_copy(kept: Path | None) -> None:
    if kept is not None:
        for end in ("", *COMPANIONS):
            kept.with_name(kept.name + end).unlink(missing_ok=True)


def remove_foreign_objects(connection: sqlite3.Connection, version: int) -> list[str]:
    """Drop every trigger, view and index that twofold's schema of ``version`` does not have
    (they are damage: a trigger would run inside twofold's writes), and create its missing
    indexes; what was changed, named."""
    if strays(expected_objects(version), objects(connection)) == ([], []):
        return []
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Read again under the write lock: another copy of the app may have just migrated (its
        # indexes are its version's, not damage), or a newer twofold (prepare() says so next).
        now = connection.execute("PRAGMA user_version").fetchone()[0]
        expected = expected_objects(now) if now <= SCHEMA_VERSION else objects(connection)
        extra, missing = strays(expected, objects(connection))
        for kind, name in extra:
            quoted = name.replace('"', '""')
            connection.execute(f'DROP {kind.upper()} IF EXISTS "{quoted}"')
        for sql in missing + [expected[key] for key in extra if key in expected]:
            if sql:
                connection.execute(sql)
        connection.execute("COMMIT")
    except BaseException:
        roll_back(connection)
        raise
    return [f"{kind} {name!r}" for kind, name in extra] + ["an index" for _sql in missing]


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


def broken_name(path: Path) -> Path:
    """A name no file has yet beside ``path`` for a damaged copy of it."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.broken-{stamp}")
    number = 1
    while target.exists():
        number += 1
        target = path.with_name(f"{path.name}.broken-{stamp}-{number}")
    return target


def move_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL) out of the way; return the new name."""
    target = broken_name(path)
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
