"""Where twofold keeps saves, settings and the history of finished games: one SQLite file.

The database is ``twofold.db`` in :func:`data_dir`. It is opened in WAL mode with a
busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so killing the
process at any moment leaves the old or the new state, and two copies of the app can
use the file at once.

The schema has a version (``PRAGMA user_version``) and :data:`MIGRATIONS` takes it
from each version to the next. Opening never fails for a player:

* a file that is not a database, or is damaged, is moved aside
  (``twofold.db.broken-<time>``) and a fresh database starts;
* a database written by a newer twofold is left untouched (it holds the newer app's
  data) and this run plays in memory, with the settings read from it if possible;
* a file that cannot be opened at all (no permission, locked for too long) also
  plays in memory.

In each case ``store.notice`` holds a one-line message for the player. A write that
fails later (disk full, the file taken away) also becomes the notice rather than an
exception: the game in play goes on, it is just not kept.

Two copies of the app playing the same mode both write its one save slot; the last
write wins, and the finished-games history keeps every game of both.

A save is the game's log as JSON text with a format number and a checksum; a save
that cannot be read makes :meth:`SqliteStore.load_save` raise ValueError, and the
Session then discards it and starts a new game.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime
from hashlib import blake2b
from pathlib import Path
from typing import Any

import platformdirs

from twofold.core.daily import utc_today
from twofold.core.i18n import _
from twofold.core.presentation import BUILTIN_STATISTICS, Statistic
from twofold.core.records import Records, assemble, empty_values, settle
from twofold.core.session import FinishedGame, SavedGame
from twofold.core.settings import Settings

HOME_VARIABLE = "TWOFOLD_HOME"
DB_NAME = "twofold.db"
MEMORY = ":memory:"
#: seconds a writer waits for another process to finish its transaction
BUSY_TIMEOUT = 10.0
#: the format of the JSON a save is stored as; a newer one is refused, never guessed at
SAVE_FORMAT = 1

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
)
SCHEMA_VERSION = len(MIGRATIONS)
_TABLES = frozenset({"saves", "finished", "settings"})
#: SQLite's result codes for a file that is damaged or not a database at all
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})


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
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NewerDatabase(version)
        if on_disk:
            _use_wal(connection)
            # In WAL mode NORMAL loses no committed data when the process is killed.
            connection.execute("PRAGMA synchronous = NORMAL")
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


def open_store(path: Path | None = None, *, today: Callable[[], date] = utc_today) -> SqliteStore:
    """Open the player's database (``data_dir() / "twofold.db"`` by default).

    ``path`` is the database file, or a folder to keep ``twofold.db`` in. Never raises
    for a damaged or unusable file: see the module docstring; ``store.notice`` says
    what happened.
    """
    if path is None:
        path = data_dir() / DB_NAME
    elif path.is_dir():
        path = path / DB_NAME
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return SqliteStore(_open(path), path=path, today=today)
    except NewerDatabase:
        notice = _(
            "{path} was written by a newer twofold; progress will not be saved this time."
        ).format(path=path)
    except DamagedDatabase as damage:
        try:
            broken = _move_aside(path)
            store = SqliteStore(_open(path), path=path, today=today)
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
    except (OSError, sqlite3.Error) as error:
        notice = _(
            "{path} could not be opened ({reason}); progress will not be saved this time."
        ).format(path=path, reason=_one_line(error))
    store = memory_store(today=today)
    store.notice = notice
    if path.is_file():
        _borrow_settings(path, store)
    return store


def _borrow_settings(path: Path, store: SqliteStore) -> None:
    """Copy the settings of a file this run cannot use, read-only, so the app still looks right."""
    try:
        source = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=1.0)
        try:
            rows = source.execute("SELECT key, value FROM settings").fetchall()
        finally:
            source.close()
        with store._transaction() as connection:
            connection.executemany(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                [(str(key), str(value)) for key, value in rows],
            )
    except (sqlite3.Error, ValueError, TypeError):
        pass  # the defaults will do


def memory_store(*, today: Callable[[], date] = utc_today) -> SqliteStore:
    """A store that keeps everything in memory for this run only (tests, fallbacks)."""
    return SqliteStore(_open(None), path=None, today=today)


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
    payload["check"] = _checksum(payload)
    return json.dumps(payload, ensure_ascii=False)


def decode_save(text: str | bytes, mode_id: str) -> SavedGame:
    """The save stored for ``mode_id``; raise ValueError with a short reason if unreadable."""
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
    if type(version) is not int:
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
    return SavedGame(
        mode_id=mode_id,
        code=code,
        actions=tuple(actions),
        elapsed=float(elapsed),
        flags=flags,
        position=position,
        day=day,
        game_id=game_id,
    )


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


_FINISHED_COLUMNS = (
    "game_id, mode_id, code, score, largest, moves, elapsed, counted, won, tiles, stats, day,"
    " finished_at"
)


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


_COUNTED = "FROM finished WHERE mode_id = ? AND counted = 1"
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
    " WHERE finished.mode_id = ? AND finished.counted = 1"
)
_DAYS = f"SELECT DISTINCT day {_COUNTED} AND day IS NOT NULL"


class SqliteStore:
    """The Store of :mod:`twofold.core.session`, plus records and settings, on SQLite."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        path: Path | None = None,
        today: Callable[[], date] = utc_today,
    ) -> None:
        self._connection = connection
        #: the database file, or None when this run keeps everything in memory
        self.path = path
        self.today = today
        #: one line for the player about how the database was opened, or None
        self.notice: str | None = None
        self._lock = threading.RLock()

    @property
    def in_memory(self) -> bool:
        """Whether progress is kept for this run only."""
        return self.path is None

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

    def _write(self, statement: str, parameters: tuple[Any, ...] = ()) -> None:
        """Run one write in its own transaction; a failure becomes the notice, not a crash."""
        try:
            with self._transaction() as connection:
                connection.execute(statement, parameters)
        except sqlite3.Error as error:
            self.notice = _("Progress could not be saved ({reason}).").format(
                reason=_one_line(error)
            )

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
            self._connection.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- saves ---------------------------------------------------------------------------

    def load_save(self, mode_id: str) -> SavedGame | None:
        """The saved game of a mode; raise ValueError (a short reason) if it is unreadable."""
        try:
            rows = self._read("SELECT data FROM saves WHERE mode_id = ?", (mode_id,))
        except sqlite3.Error as error:
            raise ValueError(_one_line(error)) from None
        if not rows:
            return None
        return decode_save(rows[0][0], mode_id)

    def write_save(self, saved: SavedGame) -> None:
        self._write(
            "INSERT INTO saves (mode_id, data, saved_at) VALUES (?, ?, ?)"
            " ON CONFLICT (mode_id) DO UPDATE SET data = excluded.data,"
            " saved_at = excluded.saved_at",
            (saved.mode_id, encode_save(saved), time.time()),
        )

    def clear_save(self, mode_id: str) -> None:
        self._write("DELETE FROM saves WHERE mode_id = ?", (mode_id,))

    def has_save(self, mode_id: str) -> bool:
        return bool(self._read_or_empty("SELECT 1 FROM saves WHERE mode_id = ?", (mode_id,)))

    # -- finished games and records --------------------------------------------------------

    def record_finished(self, finished: FinishedGame) -> None:
        """Add a game to the history, replacing an earlier row with the same game_id."""
        updates = ", ".join(
            f"{name} = excluded.{name}" for name in _FINISHED_COLUMNS.split(", ")[1:]
        )
        self._write(
            f"INSERT INTO finished ({_FINISHED_COLUMNS}) VALUES ({', '.join('?' * 13)})"
            f" ON CONFLICT (game_id) DO UPDATE SET {updates}",
            _finished_row(finished),
        )

    def finished_games(self, mode_id: str, *, counted_only: bool = False) -> list[FinishedGame]:
        """The history of a mode, oldest first."""
        condition = " AND counted = 1" if counted_only else ""
        rows = self._read_or_empty(
            f"SELECT {_FINISHED_COLUMNS} FROM finished WHERE mode_id = ?{condition}"
            " ORDER BY finished_at, rowid",
            (mode_id,),
        )
        return [_finished_from_row(row) for row in rows]

    def records(
        self, mode_id: str, statistics: Sequence[Statistic] = (), *, today: date | None = None
    ) -> Records:
        """The records of a mode from its counted games (streaks up to ``today``, UTC).

        ``statistics`` are the mode's own (``Mode.statistics``), aggregated in the same query.

        Summed in SQL, so a long history stays fast; :func:`records.compute` is the same
        arithmetic over a list of games, and a test keeps the two in agreement.
        """
        columns = [_aggregate(statistic, mode_id) for statistic in statistics]
        totals = self._read_or_empty(
            _TOTALS.format(columns="".join(f", {sql}" for sql, _parameters in columns)),
            (*(p for _sql, parameters in columns for p in parameters), mode_id),
        )
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
            "SELECT score FROM finished WHERE mode_id = ? AND counted = 1"
            " ORDER BY finished_at DESC, rowid DESC LIMIT ?",
            (mode_id, max(0, limit)),
        )
        return [int(row[0]) for row in reversed(rows)]

    def modes_with_history(self) -> list[str]:
        """Ids of the modes with at least one counted finished game, sorted."""
        rows = self._read_or_empty(
            "SELECT DISTINCT mode_id FROM finished WHERE counted = 1 ORDER BY mode_id"
        )
        return [row[0] for row in rows]

    # -- settings ----------------------------------------------------------------------------

    def load_settings(self) -> Settings:
        """The stored settings; anything missing or unreadable takes its default."""
        data: dict[str, Any] = {}
        for key, value in self._read_or_empty("SELECT key, value FROM settings"):
            try:
                data[key] = json.loads(value)
            except (TypeError, ValueError):
                continue
        return Settings.from_dict(data)

    def save_settings(self, settings: Settings) -> None:
        try:
            with self._transaction() as connection:
                connection.executemany(
                    "INSERT INTO settings (key, value) VALUES (?, ?)"
                    " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    [(key, json.dumps(value)) for key, value in settings.as_dict().items()],
                )
        except sqlite3.Error as error:
            self.notice = _("Settings could not be saved ({reason}).").format(
                reason=_one_line(error)
            )
