"""Where twofold keeps saves, settings and the history of finished games: one SQLite file.

The database is ``twofold.db`` in :func:`data_dir`. It is opened in WAL mode with a
busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so killing the
process at any moment leaves the old or the new state, and two copies of the app can
use the file at once. The file, its WAL files and the folder are created for the
player alone (0600, 0700), and the file carries twofold's ``application_id``.

The schema has a version (``PRAGMA user_version``) and :data:`MIGRATIONS` takes it
from each version to the next. Opening never fails for a player:

* a file that is not a database, or is damaged, is moved aside
  (``twofold.db.broken-<time>``) and a fresh database starts;
* a database written by a newer twofold is left untouched (it holds the newer app's
  data) and this run plays in memory, with the settings read from it if possible;
* a database that is not twofold's (another ``application_id``, or another program's
  tables, e.g. ``twofold.db`` a link to some other file) is never written: this run
  plays in memory;
* a file that cannot be opened for writing (no permission, a read-only disk, locked
  for too long) also plays in memory, with everything that could be read from it:
  settings, records and saves.

In each case ``store.notice`` holds a one-line message for the player, and
``store.unsaved`` says (for every reply of the line modes) that nothing is kept.

A write that fails later (disk full, the file read-only or locked by another
program) is never silent and loses nothing that a later write can still keep: what
could not be written (finished games, the save's new actions) stays pending in
memory, ``store.write_problem`` says why, and the next successful write takes it
all. While writes fail because of a lock, the busy timeout is cut short, so play
does not stall for ten seconds a command.

Saves grow by appending: a save is the game's log as JSON text with a format number
and a checksum (the *base*), plus the actions taken since, one row each in
``save_tail`` (each row sealed with a checksum that chains it to its base). The base
is written again only when the tail has grown as long as the base, so a save costs
O(1) per action however long the game. A save that cannot be read makes
:meth:`SqliteStore.load_save` raise ValueError, and the Session then discards it and
starts a new game. Beside each save, a row in ``live`` sums up the game in progress
(score, largest tile, tiles, the mode's stats), so records include it without a replay.

Two windows on one mode: a mode's save slot has a *seat*, a row in ``seats`` with the
owner's process id, host and process start time. The window that opens a mode first
takes the seat and resumes the save; a second window (while the first one's process
lives) gets a fresh game of its own and is told so. Only the seat's holder writes the
slot, checked inside every save's transaction, so no window overwrites another's
save; finished games are rows keyed by their own game id, so every finished game of
every window is recorded exactly once. A seat whose process has died is free again.
"""

from __future__ import annotations

import json
import math
import os
import re
import socket
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, date, datetime
from hashlib import blake2b
from pathlib import Path
from typing import Any

import platformdirs

from twofold.core.daily import utc_today
from twofold.core.i18n import _
from twofold.core.presentation import BUILTIN_STATISTICS, Statistic
from twofold.core.records import Records, assemble, empty_values, settle, with_live
from twofold.core.session import FinishedGame, SavedGame
from twofold.core.settings import Settings

HOME_VARIABLE = "TWOFOLD_HOME"
DB_NAME = "twofold.db"
MEMORY = ":memory:"
#: seconds a writer waits for another process to finish its transaction
BUSY_TIMEOUT = 10.0
#: the busy timeout while writes are failing on a lock: tell the player soon, not in 10 s
BUSY_TIMEOUT_FAILING = 0.25
#: pages of WAL before SQLite copies them into the database (its default is 1000, 4 MB)
WAL_PAGES = 32
#: the format of the JSON a save is stored as; a newer one is refused, never guessed at
SAVE_FORMAT = 1
#: SQLite's application_id of a twofold database ("twof"); another value is never written
APPLICATION_ID = 0x74776F66
#: a save's base is rewritten once its tail is this long and as long as the base itself
TAIL_FROM = 64
#: a seat held from another host is free when its holder has not written for this long
SEAT_STALE = 6 * 3600.0
_CODE = re.compile(r"[0-9A-Z]{8}")

#: MIGRATIONS[n] takes the schema from version n to n + 1 (version 0 is an empty file)
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE saves (
            mode_id TEXT PRIMARY KEY,
            data TEXT NOT NULL,
            saved_at REAL NOT NULL
        )""",
        """CREATE TABLE finished (
            game_id TEXT PRIMARY KEY,
            mode_id TEXT NOT NULL,
            code TEXT NOT NULL,
            score INTEGER NOT NULL,
            largest INTEGER NOT NULL,
            moves INTEGER NOT NULL,
            elapsed REAL NOT NULL,
            counted INTEGER NOT NULL,
            won INTEGER NOT NULL,
            tiles TEXT NOT NULL,
            stats TEXT NOT NULL,
            day TEXT,
            finished_at REAL NOT NULL
        )""",
        "CREATE INDEX finished_by_mode ON finished (mode_id, counted, finished_at)",
        """CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        )""",
    ),
    (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE save_tail (
            mode_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            elapsed REAL NOT NULL,
            flags TEXT NOT NULL,
            base TEXT NOT NULL,
            seal TEXT NOT NULL,
            PRIMARY KEY (mode_id, seq)
        )""",
        """CREATE TABLE seats (
            mode_id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            started TEXT NOT NULL,
            beat REAL NOT NULL
        )""",
    ),
    (
        # the game in progress of each mode, summed up for records (its save is its log)
        """CREATE TABLE live (
            mode_id TEXT PRIMARY KEY,
            game_id TEXT NOT NULL,
            data TEXT NOT NULL,
            saved_at REAL NOT NULL
        )""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
_TABLES = frozenset({"saves", "finished", "settings", "save_tail", "seats", "live"})
#: the tables of every twofold database since version 1 (an older twofold's file has them)
_FIRST_TABLES = frozenset({"saves", "finished", "settings"})
#: SQLite's result codes for a file that is damaged or not a database at all
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


_FINISHED_COLUMNS_TEXT = (
    "game_id, mode_id, code, score, largest, moves, elapsed, counted, won, tiles, stats, day,"
    " finished_at"
)


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


def _is_damage(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in _DAMAGE_CODES
    text = str(error).lower()
    return "not a database" in text or "malformed" in text


def _connect(path: str) -> sqlite3.Connection:
    # Transactions are explicit (BEGIN IMMEDIATE); the lock lets a UI call from a worker thread.
    return sqlite3.connect(
        path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
    )


def _prepare(connection: sqlite3.Connection, *, on_disk: bool) -> None:
    """Check the file, bring its schema up to date; raise DamagedDatabase or NewerDatabase."""
    try:
        # Read the version before anything writes: a newer app's file must stay as it is.
        version, application_id, tables = _header(connection)
        if version > SCHEMA_VERSION:
            raise NewerDatabase(version)
        _check_owner(application_id, version, tables)
        if on_disk:
            _use_wal(connection)
            # In WAL mode NORMAL loses no committed data when the process is killed.
            connection.execute("PRAGMA synchronous = NORMAL")
            # a small WAL (checkpointed often) keeps playing on a nearly full disk
            connection.execute(f"PRAGMA wal_autocheckpoint = {WAL_PAGES}")
            connection.execute(f"PRAGMA journal_size_limit = {WAL_PAGES * 4096 * 2}")
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise DamagedDatabase(check)
        if version < SCHEMA_VERSION:
            _migrate(connection)
        tables = {
            row[0]
            for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        missing = _TABLES - tables
        if missing:
            raise DamagedDatabase("tables are missing: " + ", ".join(sorted(missing)))
    except sqlite3.Error as error:
        if _is_damage(error):
            raise DamagedDatabase(str(error)) from error
        raise


def _header(connection: sqlite3.Connection) -> tuple[int, int, set[str]]:
    """``(user_version, application_id, tables)`` read at one instant (one statement)."""
    version, application_id, names = connection.execute(
        "SELECT (SELECT user_version FROM pragma_user_version),"
        " (SELECT application_id FROM pragma_application_id),"
        " (SELECT json_group_array(name) FROM sqlite_master WHERE type = 'table')"
    ).fetchone()
    return int(version), int(application_id), set(json.loads(names))


def _check_owner(application_id: int, version: int, tables: set[str]) -> None:
    """Raise ForeignDatabase unless the file is empty or twofold's own."""
    if application_id == APPLICATION_ID:
        return
    if application_id != 0:
        raise ForeignDatabase(application_id)
    # an older twofold wrote no application_id, but its tables say whose file it is
    if tables and (version == 0 or not tables & _FIRST_TABLES):
        raise ForeignDatabase(0)


def _use_wal(connection: sqlite3.Connection) -> None:
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


def _migrate(connection: sqlite3.Connection) -> None:
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
        _roll_back(connection)
        raise


def _is_full(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF
    return code == sqlite3.SQLITE_FULL or "full" in str(error).lower()


def _roll_back(connection: sqlite3.Connection) -> None:
    # A failed COMMIT may already have ended the transaction; the first error is the one to tell.
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def _move_aside(path: Path) -> Path:
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


def open_store(
    path: Path | None = None,
    *,
    today: Callable[[], date] = utc_today,
    owner: str | None = None,
) -> SqliteStore:
    """Open the player's database (``data_dir() / "twofold.db"`` by default).

    ``path`` is the database file, or a folder to keep ``twofold.db`` in; ``owner``
    names the window for seats (default: this process). Never raises
    for a damaged or unusable file: see the module docstring; ``store.notice`` says
    what happened.
    """
    if path is None:
        path = data_dir() / DB_NAME
    elif path.is_dir():
        path = path / DB_NAME
    borrow = _FIRST_TABLES
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        _create_private(path)
        return SqliteStore(_open(path), path=path, today=today, owner=owner)
    except NewerDatabase:
        notice = _(
            "{path} was written by a newer twofold; progress will not be saved this time."
        ).format(path=path)
        borrow = frozenset({"settings"})
    except ForeignDatabase:
        notice = _(
            "{path} is not a twofold database; it is left untouched and progress "
            "will not be saved this time."
        ).format(path=path)
        borrow = frozenset()
    except DamagedDatabase as damage:
        try:
            broken = _move_aside(path)
            store = SqliteStore(_open(path), path=path, today=today, owner=owner)
        except (OSError, sqlite3.Error, DamagedDatabase, NewerDatabase) as error:
            notice = _(
                "{path} is damaged and could not be replaced ({reason}); "
                "progress will not be saved this time."
            ).format(path=path, reason=_one_line(error))
        else:
            store.notice = _(
                "{path} was damaged ({reason}); it was kept as {broken} and a fresh one started."
            ).format(path=path, reason=_one_line(damage), broken=broken.name)
            return store
        borrow = frozenset()
    except (OSError, sqlite3.Error) as error:
        notice = _(
            "{path} could not be opened ({reason}); progress will not be saved this time."
        ).format(path=path, reason=_one_line(error))
    store = memory_store(today=today, owner=owner)
    store.notice = store.unsaved = notice
    if borrow and path.is_file():
        _borrow(path, store, borrow)
    return store


def _create_private(path: Path) -> None:
    """Create a missing database file for the player alone (SQLite gives its WAL the same mode)."""
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600))


#: what is copied from a file this run cannot write: table -> its columns
_BORROWED = {
    "settings": "key, value",
    "finished": _FINISHED_COLUMNS_TEXT,
    "saves": "mode_id, data, saved_at",
    "save_tail": "mode_id, seq, action, elapsed, flags, base, seal",
    "live": "mode_id, game_id, data, saved_at",
}


def _borrow(path: Path, store: SqliteStore, tables: frozenset[str]) -> None:
    """Copy what can be read of a file this run cannot write, so records and saves still show."""
    uri = path.resolve().as_uri()
    for query in ("?mode=ro", "?immutable=1"):  # immutable: a read-only disk with no WAL index
        source = sqlite3.connect(uri + query, uri=True, timeout=1.0)
        try:
            version, application_id, names = _header(source)
            _check_owner(application_id, version, names)
        except sqlite3.Error:
            source.close()
            continue  # the next way to read it
        except ForeignDatabase:
            source.close()
            return  # not ours to read
        try:
            if version > SCHEMA_VERSION:
                tables = tables & {"settings"}  # a newer app's tables may mean other things
            for table, columns in _BORROWED.items():
                if table not in tables and not (table == "save_tail" and "saves" in tables):
                    continue
                try:
                    rows = source.execute(f"SELECT {columns} FROM {table}").fetchall()
                    with store._transaction() as connection:
                        connection.executemany(
                            f"INSERT OR REPLACE INTO {table} ({columns})"
                            f" VALUES ({', '.join('?' * len(columns.split(',')))})",
                            rows,
                        )
                except (sqlite3.Error, ValueError, TypeError):
                    continue  # this table cannot be read; the others may
            return
        finally:
            source.close()


def memory_store(*, today: Callable[[], date] = utc_today, owner: str | None = None) -> SqliteStore:
    """A store that keeps everything in memory for this run only (tests, fallbacks)."""
    return SqliteStore(_open(None), path=None, today=today, owner=owner)


def _open(path: Path | None) -> sqlite3.Connection:
    connection = _connect(MEMORY if path is None else str(path))
    try:
        _prepare(connection, on_disk=path is not None)
    except BaseException:
        connection.close()
        raise
    return connection


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


# -- saves as JSON text --------------------------------------------------------------------


def _checksum(payload: Mapping[str, Any]) -> str:
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


def encode_save(saved: SavedGame) -> str:
    """A save as the JSON text stored in the database."""
    return _encode_sealed(saved)[0]


def _encode_sealed(saved: SavedGame) -> tuple[str, str]:
    """The JSON text of a save and its checksum (which seals the save's tail rows)."""
    payload: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "mode_id": saved.mode_id,
        "code": saved.code,
        "actions": list(saved.actions),
        "elapsed": float(saved.elapsed),
        "flags": dict(saved.flags) if saved.flags is not None else None,
        "position": saved.position,
        "day": saved.day,
        "game_id": saved.game_id,
    }
    # Checksum what a reader will see (tuples become lists, keys become strings).
    payload = json.loads(json.dumps(payload))
    payload["check"] = check = _checksum(payload)
    return json.dumps(payload, ensure_ascii=False), check


def decode_save(text: str | bytes, mode_id: str) -> SavedGame:
    """The save stored for ``mode_id``; raise ValueError with a short reason if unreadable."""
    return _decode_sealed(text, mode_id)[0]


def _decode_sealed(text: str | bytes, mode_id: str) -> tuple[SavedGame, str]:
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(_("it is not valid JSON")) from None
    except RecursionError:
        raise ValueError(_("it is nested too deeply")) from None
    if not isinstance(data, dict):
        raise ValueError(_("it is not a saved game"))
    version = data.get("format")
    if type(version) is not int or version < 1:
        raise ValueError(_("it has no format number"))
    if version > SAVE_FORMAT:
        raise ValueError(
            _("it was written by a newer twofold (save format {version})").format(version=version)
        )
    check = data.pop("check", None)
    if check != _checksum(data):
        raise ValueError(_("its checksum does not match"))
    saved_mode = data.get("mode_id")
    if saved_mode != mode_id:
        raise ValueError(_("it belongs to mode {mode}").format(mode=repr(saved_mode)))
    code = data.get("code")
    actions = data.get("actions")
    elapsed = data.get("elapsed")
    flags = data.get("flags")
    position = data.get("position")
    day = data.get("day")
    game_id = data.get("game_id", "")
    if not isinstance(code, str) or not code:
        raise ValueError(_("its game code is missing"))
    if not _CODE.fullmatch(code):
        raise ValueError(_("its game code is not a game code"))
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise ValueError(_("its list of actions is damaged"))
    if (
        not isinstance(elapsed, int | float)
        or isinstance(elapsed, bool)
        or not math.isfinite(elapsed)
        or elapsed < 0
    ):
        raise ValueError(_("its play time is damaged"))
    if flags is not None and not (
        isinstance(flags, dict) and all(isinstance(v, bool) for v in flags.values())
    ):
        raise ValueError(_("its flags are damaged"))
    if position is not None and not isinstance(position, dict):
        raise ValueError(_("its starting position is damaged"))
    if day is not None and not isinstance(day, str):
        raise ValueError(_("its day is damaged"))
    if not isinstance(game_id, str):
        raise ValueError(_("its game id is damaged"))
    saved = SavedGame(
        mode_id=mode_id,
        code=code,
        actions=tuple(actions),
        elapsed=float(elapsed),
        flags=flags,
        position=position,
        day=day,
        game_id=game_id,
    )
    return saved, check


def _tail_seal(base: str, seq: int, action: str, elapsed: float, flags: str) -> str:
    canonical = json.dumps([base, seq, action, elapsed, flags], ensure_ascii=True)
    return blake2b(canonical.encode("utf-8"), digest_size=8).hexdigest()


def _tail_row(
    mode_id: str, base: str, seq: int, action: str, elapsed: float, flags: str
) -> tuple[Any, ...]:
    return (
        mode_id,
        seq,
        action,
        elapsed,
        flags,
        base,
        _tail_seal(base, seq, action, elapsed, flags),
    )


@dataclass(frozen=True)
class _Slot:
    """What this store last wrote (or read) in a mode's save slot, so a save appends."""

    game_id: str
    code: str
    written: int
    base_length: int
    base: str


# -- seats -------------------------------------------------------------------------------------


def _start_time(pid: int) -> str:
    """When process ``pid`` started (Linux clock ticks), "" where that cannot be told."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat_file:
            fields = stat_file.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return ""
    if fields and fields[0] in (b"Z", b"X"):
        return "dead"  # a zombie has ended; only its parent has not read its status yet
    return fields[19].decode("ascii", "replace") if len(fields) > 19 else ""


def _process_alive(pid: int, started: str) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # it lives, as another user
    except OSError:
        return False
    now = _start_time(pid)
    # the same pid with another start time is a new process that took the old number
    return now != "dead" and (not started or not now or now == started)


_HOST = socket.gethostname()
#: the owners of this process's open stores (a test may give two stores two owners)
_LIVE_OWNERS: Counter[str] = Counter()


def process_owner() -> str:
    """The seat owner of this process: host, pid and start time."""
    pid = os.getpid()
    return f"{_HOST}/{pid}/{_start_time(pid)}"


def _seat_taken(row: tuple[Any, ...], owner: str) -> bool:
    """Whether a seat row belongs to another window that is still open."""
    holder, pid, host, started, beat = row
    if holder == owner:
        return False
    if host != _HOST:
        return time.time() - float(beat) < SEAT_STALE
    if pid == os.getpid():
        return _LIVE_OWNERS[holder] > 0
    return _process_alive(int(pid), str(started))


def _live_game(mode_id: str, game_id: str, text: str, saved_at: float) -> FinishedGame | None:
    """The game in progress as records read it (a ``live`` row); None if it cannot be used."""
    live = _json_or(text, None, dict)
    if not live:
        return None
    try:
        tiles = tuple(int(t) for t in live.get("tiles", ()) if isinstance(t, int))
        stats = live.get("stats", {})
        return FinishedGame(
            game_id=str(game_id),
            mode_id=mode_id,
            code=str(live.get("code", "")),
            score=int(live["score"]),
            largest=int(live["largest"]),
            moves=int(live.get("moves", 0)),
            elapsed=max(0.0, float(live.get("elapsed", 0.0))),
            counted=live.get("counted") is True,
            won=live.get("won") is True,
            tiles=tiles,
            stats=_whole_numbers(stats) if isinstance(stats, dict) else {},
            day=None,
            finished_at=float(saved_at),
        )
    except (KeyError, TypeError, ValueError, OverflowError):
        return None  # a summary the records cannot use leaves them as they were


def _whole_numbers(stats: Mapping[str, Any]) -> dict[str, int]:
    # A plugin's odd stats value is dropped rather than losing the player's finished game.
    return {
        str(k): int(v) for k, v in stats.items() if isinstance(v, int | float) and math.isfinite(v)
    }


def _finished_row(finished: FinishedGame) -> tuple[Any, ...]:
    return (
        finished.game_id,
        finished.mode_id,
        finished.code,
        int(finished.score),
        int(finished.largest),
        int(finished.moves),
        float(finished.elapsed),
        int(bool(finished.counted)),
        int(bool(finished.won)),
        json.dumps([int(t) for t in finished.tiles]),
        json.dumps(_whole_numbers(finished.stats), sort_keys=True),
        finished.day,
        float(finished.finished_at),
    )


_FINISHED_COLUMNS = _FINISHED_COLUMNS_TEXT


def _json_or(text: Any, default: Any, kind: type) -> Any:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return default
    return value if isinstance(value, kind) else default


def _finished_from_row(row: tuple[Any, ...]) -> FinishedGame:
    tiles = _json_or(row[9], [], list)
    stats = _json_or(row[10], {}, dict)
    return FinishedGame(
        game_id=row[0],
        mode_id=row[1],
        code=row[2],
        score=int(row[3]),
        largest=int(row[4]),
        moves=int(row[5]),
        elapsed=float(row[6]),
        counted=bool(row[7]),
        won=bool(row[8]),
        tiles=tuple(int(t) for t in tiles if isinstance(t, int)),
        stats={str(k): int(v) for k, v in stats.items() if isinstance(v, int)},
        day=row[11],
        finished_at=float(row[12]),
    )


def _value(key: str) -> tuple[str, tuple[Any, ...]]:
    """A game's value of a statistic's key as SQL, with its parameters (NULL when it has none)."""
    if key in BUILTIN_STATISTICS:
        return key, ()
    # A damaged stats text, or a value that is not a whole number, counts as none.
    return (
        "(SELECT value FROM json_each(CASE WHEN json_valid(stats) THEN stats ELSE '{}' END)"
        " WHERE key = ? AND type = 'integer')",
        (key,),
    )


#: a finished row whose numbers are numbers (one edited by hand or damaged is skipped)
_READABLE = (
    "typeof(score) = 'integer' AND typeof(largest) = 'integer' AND typeof(moves) = 'integer'"
    " AND typeof(counted) = 'integer' AND typeof(won) = 'integer'"
    " AND typeof(elapsed) IN ('integer', 'real') AND typeof(finished_at) IN ('integer', 'real')"
    " AND typeof(game_id) = 'text' AND typeof(code) = 'text'"
    " AND (day IS NULL OR typeof(day) = 'text')"
)
_COUNTED = f"FROM finished WHERE mode_id = ? AND counted = 1 AND {_READABLE}"
_LATEST = "ORDER BY finished_at DESC, rowid DESC LIMIT 1"


def _aggregate(statistic: Statistic, mode_id: str) -> tuple[str, tuple[Any, ...]]:
    """A statistic aggregated over a mode's counted games, as one column of :data:`_TOTALS`."""
    value, parameters = _value(statistic.key)
    if statistic.aggregate == "latest":
        sql = f"(SELECT {value} {_COUNTED} AND {value} IS NOT NULL {_LATEST})"
        return sql, (*parameters, mode_id, *parameters)
    if statistic.aggregate == "reached":
        return f"SUM({value} >= ?)", (*parameters, statistic.threshold)
    function = {"best": "MAX", "total": "SUM", "average": "AVG"}[statistic.aggregate]
    return f"{function}({value})", parameters


_TOTALS = (
    "SELECT COUNT(*), MAX(score), SUM(score), MAX(largest), TOTAL(MAX(elapsed, 0)){columns}"
    f" {_COUNTED}"
)
_TILES = (
    "SELECT DISTINCT tile.value FROM finished,"
    " json_each(CASE WHEN json_valid(finished.tiles) THEN finished.tiles ELSE '[]' END) AS tile"
    f" WHERE finished.mode_id = ? AND finished.counted = 1 AND {_READABLE}"
)
_DAYS = f"SELECT DISTINCT day {_COUNTED} AND day IS NOT NULL"
_UNREADABLE = f"SELECT COUNT(*) FROM finished WHERE mode_id = ? AND NOT ({_READABLE})"
_SAVE_UPSERT = (
    "INSERT INTO saves (mode_id, data, saved_at) VALUES (?, ?, ?)"
    " ON CONFLICT (mode_id) DO UPDATE SET data = excluded.data, saved_at = excluded.saved_at"
)
_TAIL_INSERT = (
    "INSERT OR REPLACE INTO save_tail (mode_id, seq, action, elapsed, flags, base, seal)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_FINISHED_UPSERT = (
    f"INSERT INTO finished ({_FINISHED_COLUMNS}) VALUES ({', '.join('?' * 13)})"
    " ON CONFLICT (game_id) DO UPDATE SET "
    + ", ".join(f"{name} = excluded.{name}" for name in _FINISHED_COLUMNS.split(", ")[1:])
)
#: a pending clear of a save slot
_CLEAR = None


def _put_live(connection: sqlite3.Connection, mode_id: str, saved: SavedGame | None) -> None:
    """Keep the summary of the game in progress beside its save (gone with it)."""
    if saved is None or saved.live is None or not saved.actions:
        connection.execute("DELETE FROM live WHERE mode_id = ?", (mode_id,))
        return
    connection.execute(
        "INSERT OR REPLACE INTO live (mode_id, game_id, data, saved_at) VALUES (?, ?, ?, ?)",
        (mode_id, saved.game_id, json.dumps(dict(saved.live)), time.time()),
    )


class SqliteStore:
    """The Store of :mod:`twofold.core.session`, plus records and settings, on SQLite.

    Writes go through :meth:`_flush`: what is to be written waits in ``_pending_*``
    until a transaction takes it, so a failed write is retried by the next one.
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        path: Path | None = None,
        today: Callable[[], date] = utc_today,
        owner: str | None = None,
    ) -> None:
        self._connection = connection
        #: the database file, or None when this run keeps everything in memory
        self.path = path
        self.today = today
        #: one line for the player about how the database was opened, or None
        self.notice: str | None = None
        #: why nothing of this run is kept (a fallback to memory), for every reply; or None
        self.unsaved: str | None = None
        #: why the last write failed (it is retried with the next), or None once one works
        self.write_problem: str | None = None
        #: SQLite's reason for the last failed write (a few words), for a last message
        self.write_reason = ""
        #: modes whose save slot is held by another window (their saves are not written)
        self.seat_refused: set[str] = set()
        #: who holds seats for this store: see the module docstring
        self.owner = owner or process_owner()
        _LIVE_OWNERS[self.owner] += 1
        self._closed = False
        self._lock = threading.RLock()
        self._slots: dict[str, _Slot] = {}
        self._pending_saves: dict[str, SavedGame | None] = {}
        self._pending_finished: dict[str, FinishedGame] = {}
        self._pending_settings: list[tuple[str, str]] = []
        self._failing_on_lock = False

    @property
    def in_memory(self) -> bool:
        """Whether progress is kept for this run only."""
        return self.path is None

    @property
    def pending(self) -> int:
        """How many writes wait for a write that works (finished games and saves)."""
        return len(self._pending_finished) + len(self._pending_saves) + bool(self._pending_settings)

    # -- plumbing ------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            connection = self._connection
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                _roll_back(connection)
                raise

    def _flush(self, *, retry: bool = True) -> bool:
        """Write everything pending in one transaction; a failure becomes the write problem.

        On a full disk the WAL is checkpointed and the write tried once more: the WAL
        then starts again from its beginning instead of growing.
        """
        with self._lock:
            if self._closed:
                return False
            slots: dict[str, _Slot | None] = {}
            refused: set[str] = set()
            try:
                with self._transaction() as connection:
                    for finished in self._pending_finished.values():
                        connection.execute(_FINISHED_UPSERT, _finished_row(finished))
                    for mode_id, saved in self._pending_saves.items():
                        written = self._put_save(connection, mode_id, saved)
                        if written is False:
                            refused.add(mode_id)
                        else:
                            slots[mode_id] = written
                    if self._pending_settings:
                        connection.executemany(
                            "INSERT INTO settings (key, value) VALUES (?, ?)"
                            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                            self._pending_settings,
                        )
            except sqlite3.Error as error:
                if not (retry and _is_full(error) and self._checkpoint()):
                    self._failed(error)
                    return False
                return self._flush(retry=False)
            self._pending_finished.clear()
            self._pending_settings.clear()
            for mode_id, slot in slots.items():
                del self._pending_saves[mode_id]
                if slot is None:
                    self._slots.pop(mode_id, None)
                else:
                    self._slots[mode_id] = slot
            self.seat_refused = refused
            if self._failing_on_lock:
                self._set_busy_timeout(BUSY_TIMEOUT)
            self.write_problem = None
            return True

    def _failed(self, error: sqlite3.Error) -> None:
        reason = _one_line(error)
        self.write_reason = _cut(reason)
        self.write_problem = _(
            "Progress could not be saved ({reason}); play goes on and is kept at the next save "
            "that works."
        ).format(reason=_cut(reason))
        self.notice = self.write_problem
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in reason.lower():
            self._set_busy_timeout(BUSY_TIMEOUT_FAILING)

    def _checkpoint(self) -> bool:
        try:
            self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            return False
        return self.path is not None

    def _set_busy_timeout(self, seconds: float) -> None:
        try:
            self._connection.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
            self._failing_on_lock = seconds < BUSY_TIMEOUT
        except sqlite3.Error:
            pass

    def _read(self, statement: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._connection.execute(statement, parameters).fetchall()

    def _read_or_empty(
        self, statement: str, parameters: tuple[Any, ...] = ()
    ) -> list[tuple[Any, ...]]:
        try:
            return self._read(statement, parameters)
        except sqlite3.Error as error:
            self.notice = _("Saved data could not be read ({reason}).").format(
                reason=_one_line(error)
            )
            return []

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            if self.pending:
                # the last chance for what earlier writes could not keep: wait the full time
                self._set_busy_timeout(BUSY_TIMEOUT)
                self._flush()
            self._closed = True
            _LIVE_OWNERS[self.owner] -= 1
            self._connection.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- seats -----------------------------------------------------------------------------

    def claim_seat(self, mode_id: str) -> bool:
        """Take the seat of a mode's save slot; False if another open window holds it.

        When the database cannot be written the seat cannot be taken either: True, and
        every save checks the seat again.
        """
        try:
            with self._transaction() as connection:
                row = connection.execute(
                    "SELECT owner, pid, host, started, beat FROM seats WHERE mode_id = ?",
                    (mode_id,),
                ).fetchone()
                if row is not None and _seat_taken(row, self.owner):
                    self.seat_refused.add(mode_id)
                    return False
                self._take_seat(connection, mode_id)
        except sqlite3.Error as error:
            self._failed(error)
            return True
        self.seat_refused.discard(mode_id)
        return True

    def release_seat(self, mode_id: str) -> None:
        """Give the seat back (the window closes); its save stays for the next window."""
        with self._lock:
            if self._closed:
                return
            try:
                with self._transaction() as connection:
                    connection.execute(
                        "DELETE FROM seats WHERE mode_id = ? AND owner = ?", (mode_id, self.owner)
                    )
            except sqlite3.Error:
                pass  # a seat whose process has ended is free anyway

    def _take_seat(self, connection: sqlite3.Connection, mode_id: str) -> None:
        pid = os.getpid()
        connection.execute(
            "INSERT OR REPLACE INTO seats (mode_id, owner, pid, host, started, beat)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (mode_id, self.owner, pid, _HOST, _start_time(pid), time.time()),
        )

    def _hold_seat(self, connection: sqlite3.Connection, mode_id: str, game_id: str) -> bool:
        """Whether this store may write the slot now (inside the save's transaction)."""
        held = connection.execute(
            "UPDATE seats SET beat = ? WHERE mode_id = ? AND owner = ?",
            (time.time(), mode_id, self.owner),
        )
        if held.rowcount:
            return True
        row = connection.execute(
            "SELECT owner, pid, host, started, beat FROM seats WHERE mode_id = ?", (mode_id,)
        ).fetchone()
        if row is not None and _seat_taken(row, self.owner):
            return False
        # The seat is free: take it only if the slot holds nothing of another game.
        current = connection.execute("SELECT data FROM saves WHERE mode_id = ?", (mode_id,))
        stored = current.fetchone()
        if stored is not None and mode_id not in self._slots:
            try:
                other = json.loads(stored[0]).get("game_id")
            except (TypeError, ValueError, AttributeError):
                other = None
            if other != game_id:
                return False
        self._take_seat(connection, mode_id)
        return True

    # -- saves ---------------------------------------------------------------------------

    def load_save(self, mode_id: str) -> SavedGame | None:
        """The saved game of a mode; raise ValueError (a short reason) if it is unreadable."""
        try:
            rows = self._read("SELECT data FROM saves WHERE mode_id = ?", (mode_id,))
            tail = self._read(
                "SELECT seq, action, elapsed, flags, base, seal FROM save_tail"
                " WHERE mode_id = ? ORDER BY seq",
                (mode_id,),
            )
        except sqlite3.Error as error:
            raise ValueError(_one_line(error)) from None
        if not rows:
            self._slots.pop(mode_id, None)
            return None
        saved, base = _decode_sealed(rows[0][0], mode_id)
        actions = list(saved.actions)
        elapsed, flags = saved.elapsed, saved.flags
        for seq, action, row_elapsed, row_flags, row_base, seal in tail:
            if row_base != base:
                continue  # left by a base that was written again since (never read)
            if (
                seq != len(actions)
                or not isinstance(action, str)
                or not isinstance(row_flags, str)
                or not isinstance(row_elapsed, int | float)
                or seal != _tail_seal(base, seq, action, row_elapsed, row_flags)
            ):
                raise ValueError(_("its later actions are damaged"))
            actions.append(action)
            elapsed = float(row_elapsed)
            flags = _json_or(row_flags, None, dict)
        self._slots[mode_id] = _Slot(
            saved.game_id, saved.code, len(actions), len(saved.actions), base
        )
        return SavedGame(
            mode_id=mode_id,
            code=saved.code,
            actions=tuple(actions),
            elapsed=elapsed,
            flags=flags,
            position=saved.position,
            day=saved.day,
            game_id=saved.game_id,
        )

    def write_save(self, saved: SavedGame) -> None:
        """Keep a game's save: its new actions appended, or its base written again."""
        with self._lock:
            self._pending_saves[saved.mode_id] = saved
            self._flush()

    def clear_save(self, mode_id: str) -> None:
        with self._lock:
            self._pending_saves[mode_id] = _CLEAR
            self._flush()

    def _put_save(
        self, connection: sqlite3.Connection, mode_id: str, saved: SavedGame | None
    ) -> _Slot | bool | None:
        """Write one pending save; the slot as now stored, None when cleared, False if refused."""
        game_id = saved.game_id if saved is not None else ""
        if not self._hold_seat(connection, mode_id, game_id):
            # another window's game is in the slot: neither written over nor cleared
            return False if saved is not None else None
        _put_live(connection, mode_id, saved)
        if saved is None:
            connection.execute("DELETE FROM saves WHERE mode_id = ?", (mode_id,))
            connection.execute("DELETE FROM save_tail WHERE mode_id = ?", (mode_id,))
            return None
        slot = self._slots.get(mode_id)
        count = len(saved.actions)
        flags = json.dumps(dict(saved.flags) if saved.flags is not None else None, sort_keys=True)
        elapsed = float(saved.elapsed)
        if (
            slot is not None
            and slot.game_id == saved.game_id
            and slot.code == saved.code
            and slot.base_length <= slot.written < count
            and count - slot.base_length <= max(slot.base_length, TAIL_FROM)
        ):
            # the new actions only; a save with none new (closing) writes the base again
            connection.executemany(
                _TAIL_INSERT,
                [
                    _tail_row(mode_id, slot.base, seq, saved.actions[seq], elapsed, flags)
                    for seq in range(slot.written, count)
                ],
            )
            return _Slot(slot.game_id, slot.code, count, slot.base_length, slot.base)
        text, base = _encode_sealed(saved)
        connection.execute(_SAVE_UPSERT, (mode_id, text, time.time()))
        connection.execute("DELETE FROM save_tail WHERE mode_id = ?", (mode_id,))
        return _Slot(saved.game_id, saved.code, count, count, base)

    def live_game(self, mode_id: str) -> FinishedGame | None:
        """The counted game in progress of a mode (records include it), or None."""
        rows = self._read_or_empty(
            "SELECT game_id, data, saved_at FROM live WHERE mode_id = ?", (mode_id,)
        )
        if not rows:
            return None
        live = _live_game(mode_id, *rows[0])
        return live if live is not None and live.counted else None

    def has_save(self, mode_id: str) -> bool:
        return bool(self._read_or_empty("SELECT 1 FROM saves WHERE mode_id = ?", (mode_id,)))

    # -- finished games and records --------------------------------------------------------

    def record_finished(self, finished: FinishedGame) -> None:
        """Add a game to the history, replacing an earlier row with the same game_id."""
        with self._lock:
            self._pending_finished[finished.game_id] = finished
            self._flush()

    def finished_games(self, mode_id: str, *, counted_only: bool = False) -> list[FinishedGame]:
        """The history of a mode, oldest first (rows that do not read are skipped)."""
        condition = " AND counted = 1" if counted_only else ""
        rows = self._read_or_empty(
            f"SELECT {_FINISHED_COLUMNS} FROM finished WHERE mode_id = ?{condition}"
            f" AND {_READABLE} ORDER BY finished_at, rowid",
            (mode_id,),
        )
        games = []
        for row in rows:
            try:
                games.append(_finished_from_row(row))
            except (TypeError, ValueError, OverflowError):
                continue
        self._tell_unreadable(mode_id)
        return games

    def _tell_unreadable(self, mode_id: str | None = None) -> None:
        if mode_id is None:
            rows = self._read_or_empty(_UNREADABLE.replace("mode_id = ? AND ", ""))
        else:
            rows = self._read_or_empty(_UNREADABLE, (mode_id,))
        if rows and rows[0][0]:
            self.notice = _(
                "Finished games left out of the records because they could not be read: {count}."
            ).format(count=rows[0][0])

    def records(
        self, mode_id: str, statistics: Sequence[Statistic] = (), *, today: date | None = None
    ) -> Records:
        """The records of a mode from its counted games (streaks up to ``today``, UTC).

        ``statistics`` are the mode's own (``Mode.statistics``), aggregated in the same query.

        Summed in SQL, so a long history stays fast; :func:`records.compute` is the same
        arithmetic over a list of games, and a test keeps the two in agreement. Rows
        whose numbers do not read are left out, with a notice.
        """
        columns = [_aggregate(statistic, mode_id) for statistic in statistics]
        totals = self._read_or_empty(
            _TOTALS.format(columns="".join(f", {sql}" for sql, _parameters in columns)),
            (*(p for _sql, parameters in columns for p in parameters), mode_id),
        )
        self._tell_unreadable(mode_id)
        records = self._finished_records(mode_id, statistics, totals, today)
        live = self.live_game(mode_id)
        if live is None:
            return records
        # a game brought back by Last game has a finished row already: its totals are in
        recorded = bool(
            self._read_or_empty("SELECT 1 FROM finished WHERE game_id = ?", (live.game_id,))
        )
        return with_live(records, live, statistics, recorded=recorded)

    def _finished_records(
        self,
        mode_id: str,
        statistics: Sequence[Statistic],
        totals: Sequence[tuple[Any, ...]],
        today: date | None,
    ) -> Records:
        if not totals or not totals[0][0]:
            return Records(mode_id, values=empty_values(statistics))
        played, best, score_total, largest, play_time, *aggregates = totals[0]
        tiles = self._read_or_empty(_TILES, (mode_id,))
        days = self._read_or_empty(_DAYS, (mode_id,))
        return assemble(
            mode_id,
            played=int(played),
            best=int(best),
            score_total=int(score_total),
            largest=int(largest),
            play_time=float(play_time),
            tiles=(int(row[0]) for row in tiles if isinstance(row[0], int)),
            days=(row[0] for row in days),
            today=today or self.today(),
            values={s.field: settle(s, raw) for s, raw in zip(statistics, aggregates, strict=True)},
        )

    def recent_scores(self, mode_id: str, limit: int = 30) -> list[int]:
        """Scores of the last ``limit`` counted games, oldest first."""
        rows = self._read_or_empty(
            f"SELECT score {_COUNTED} ORDER BY finished_at DESC, rowid DESC LIMIT ?",
            (mode_id, max(0, limit)),
        )
        return [int(row[0]) for row in reversed(rows)]

    def modes_with_history(self) -> list[str]:
        """Ids of the modes with a counted finished game or a counted game in progress, sorted."""
        rows = self._read_or_empty(
            f"SELECT DISTINCT mode_id FROM finished WHERE counted = 1 AND {_READABLE}"
            " AND typeof(mode_id) = 'text'"
        )
        self._tell_unreadable()
        modes = {row[0] for row in rows}
        for (mode_id,) in self._read_or_empty("SELECT mode_id FROM live"):
            if isinstance(mode_id, str) and self.live_game(mode_id) is not None:
                modes.add(mode_id)
        return sorted(modes)

    # -- settings ----------------------------------------------------------------------------

    def load_settings(self) -> Settings:
        """The stored settings; anything missing or unreadable takes its default."""
        data: dict[str, Any] = {}
        for key, value in self._read_or_empty("SELECT key, value FROM settings"):
            try:
                data[key] = json.loads(value)
            except (TypeError, ValueError, RecursionError):
                continue
        return Settings.from_dict(data)

    def save_settings(self, settings: Settings) -> None:
        with self._lock:
            self._pending_settings = [
                (key, json.dumps(value)) for key, value in settings.as_dict().items()
            ]
            if not self._flush():
                self.notice = _("Settings could not be saved ({reason}).").format(
                    reason=self.write_problem
                )


def _cut(text: str, limit: int = 200) -> str:
    """A message part no longer than ``limit`` characters (long input is cut, never echoed)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
