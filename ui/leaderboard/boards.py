"""Where a leaderboard keeps its entries: SQLite by default, PostgreSQL to grow past one machine.

One table of entries, one row per game (its ``game_key``: the mode, the code and the log,
so the same game sent again, by any proof of it, is never counted twice), and the keys of
each game's first 16, 32, 64, … actions (``checkpoints``), by which a game that starts
another, or is started by it, is found as the same game. Both stores run the same
parameterised SQL and the same versioned migrations:

* SQLite: a file in the data folder (``leaderboard.db``), created 0600, in WAL mode with
  ``synchronous=FULL`` (an entry the server acknowledged survives kill -9 and power loss),
  marked with its own ``application_id``; a file of anything else is never written.
* PostgreSQL (``postgresql://…``, psycopg 3, the ``postgres`` extra): several servers
  behind one load balancer share one database; the schema's version is in a table.

Every method is blocking; the server calls them in threads, never on its event loop.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from twofold.core._i18n import _
from twofold.core.store.files import create_private, data_dir, use_wal

#: "twlb": a leaderboard's SQLite file, never a player's twofold.db
APPLICATION_ID = 0x74776C62
DB_NAME = "leaderboard.db"
#: each step brings the schema from its index to the next version
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY {serial},
            game_key TEXT NOT NULL UNIQUE,
            mode TEXT NOT NULL,
            code TEXT NOT NULL,
            day TEXT,
            name TEXT NOT NULL,
            score BIGINT NOT NULL,
            largest BIGINT NOT NULL,
            moves BIGINT NOT NULL,
            played TEXT NOT NULL,
            assisted INTEGER NOT NULL,
            proof TEXT NOT NULL,
            submitted DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX entries_unassisted ON entries (mode, code, assisted, score DESC, id)",
        "CREATE INDEX entries_all ON entries (mode, code, score DESC, id)",
    ),
    (
        # -1: not known yet; the store counts it from the proof when it opens
        "ALTER TABLE entries ADD COLUMN actions BIGINT NOT NULL DEFAULT -1",
        """CREATE TABLE checkpoints (
            key TEXT NOT NULL,
            entry_id BIGINT NOT NULL REFERENCES entries (id) ON DELETE CASCADE
        )""",
        "CREATE INDEX checkpoints_key ON checkpoints (key)",
        "CREATE INDEX checkpoints_entry ON checkpoints (entry_id)",
    ),
    (
        # each game's replay, made once when it is accepted (gzipped JSON), never per request
        """CREATE TABLE replays (
            entry_id BIGINT PRIMARY KEY REFERENCES entries (id) ON DELETE CASCADE,
            frames {blob} NOT NULL
        )""",
    ),
    (
        # what a name is compared by (names.name_key): its look-alikes have the same key
        "ALTER TABLE entries ADD COLUMN name_key TEXT",
        "CREATE INDEX entries_name_key ON entries (mode, code, name_key)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)
_COLUMNS = (
    "id, mode, code, day, name, score, largest, moves, played, assisted, proof, submitted, "
    "actions, game_key"
)


class StoreError(Exception):
    """A database the leaderboard cannot use; the message is one line."""


class StoreUnavailable(StoreError):
    """The database cannot be reached just now (stopped, restarting, locked): try again."""


@dataclass(frozen=True)
class Entry:
    """One verified game on a board."""

    id: int
    mode: str
    code: str
    day: str | None
    name: str
    score: int
    largest: int
    moves: int
    played: str
    assisted: bool
    proof: str
    submitted: float
    rank: int = 0
    actions: int = -1
    game_key: str = ""

    def public(self) -> dict[str, Any]:
        """The entry as the API gives it (the proof is fetched on its own)."""
        return {
            "id": self.id,
            "mode": self.mode,
            "code": self.code,
            "day": self.day,
            "name": self.name,
            "score": self.score,
            "largest": self.largest,
            "moves": self.moves,
            "played": self.played,
            "assisted": self.assisted,
            "submitted": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.submitted)),
            "rank": self.rank,
            "actions": self.actions,
        }


@dataclass(frozen=True)
class NewEntry:
    """A verified game to put on its board."""

    game_key: str
    mode: str
    code: str
    day: str | None
    name: str
    score: int
    largest: int
    moves: int
    played: str
    assisted: bool
    proof: str
    actions: int = -1
    checkpoints: tuple[str, ...] = ()
    #: the game's replay, gzipped JSON (``checking.packed_frames``)
    replay: bytes = b""
    name_key: str = ""


class Boards(Protocol):
    def add(self, entry: NewEntry) -> tuple[Entry, bool]:
        """The entry as stored (with its rank) and whether it is new (False: sent before)."""
        ...

    def related(self, checkpoints: Sequence[str]) -> list[Entry]:
        """The entries sharing one of these checkpoints: the games a game may be."""
        ...

    def name_like(self, mode: str, code: str, key: str, name: str) -> str | None:
        """A name other than ``name`` on that board that has its key (looks like it)."""
        ...

    def update(self, entry_id: int, entry: NewEntry) -> Entry:
        """Put a longer version of an entry's game in its place (its id, name and time kept)."""
        ...

    def board(
        self, mode: str, code: str, *, assisted: bool, limit: int, offset: int = 0
    ) -> list[Entry]: ...

    def entry(self, entry_id: int) -> Entry | None: ...

    def replay(self, entry_id: int) -> bytes | None:
        """The entry's replay as made when it was accepted (gzipped JSON)."""
        ...

    def close(self) -> None: ...


class _Sql:
    """The SQL both stores share; ``?`` placeholders, turned to ``%s`` for psycopg."""

    marker = "?"

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        raise NotImplementedError
        yield

    def q(self, sql: str) -> str:
        return sql if self.marker == "?" else sql.replace("?", self.marker)

    def add(self, entry: NewEntry) -> tuple[Entry, bool]:
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    "INSERT INTO entries (game_key, mode, code, day, name, score, largest, "
                    "moves, played, assisted, proof, submitted, actions, name_key) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_key) DO NOTHING"
                ),
                (
                    entry.game_key,
                    entry.mode,
                    entry.code,
                    entry.day,
                    entry.name,
                    entry.score,
                    entry.largest,
                    entry.moves,
                    entry.played,
                    int(entry.assisted),
                    entry.proof,
                    time.time(),
                    entry.actions,
                    entry.name_key or None,
                ),
            )
            created = cursor.rowcount == 1
            cursor.execute(
                self.q(f"SELECT {_COLUMNS} FROM entries WHERE game_key = ?"), (entry.game_key,)
            )
            stored = _entry(cursor.fetchone())
            if created:
                self._checkpoints(cursor, stored.id, entry.checkpoints)
                self._replay(cursor, stored.id, entry.replay)
            return self._ranked(cursor, stored), created

    def _replay(self, cursor: Any, entry_id: int, frames: bytes) -> None:
        if not frames:
            return
        cursor.execute(self.q("DELETE FROM replays WHERE entry_id = ?"), (entry_id,))
        cursor.execute(
            self.q("INSERT INTO replays (entry_id, frames) VALUES (?, ?)"), (entry_id, frames)
        )

    def replay(self, entry_id: int) -> bytes | None:
        with self.transaction() as cursor:
            cursor.execute(self.q("SELECT frames FROM replays WHERE entry_id = ?"), (entry_id,))
            row = cursor.fetchone()
        return None if row is None else bytes(row[0])

    def _checkpoints(self, cursor: Any, entry_id: int, keys: Sequence[str]) -> None:
        cursor.execute(self.q("DELETE FROM checkpoints WHERE entry_id = ?"), (entry_id,))
        if keys:
            cursor.executemany(
                self.q("INSERT INTO checkpoints (key, entry_id) VALUES (?, ?)"),
                [(key, entry_id) for key in keys],
            )

    def name_like(self, mode: str, code: str, key: str, name: str) -> str | None:
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    "SELECT name FROM entries WHERE mode = ? AND code = ? AND name_key = ? "
                    "AND name <> ? ORDER BY id LIMIT 1"
                ),
                (mode, code, key, name),
            )
            row = cursor.fetchone()
        return None if row is None else str(row[0])

    def related(self, checkpoints: Sequence[str]) -> list[Entry]:
        if not checkpoints:
            return []
        marks = ", ".join("?" * len(checkpoints))
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    f"SELECT {_COLUMNS} FROM entries WHERE id IN "
                    f"(SELECT entry_id FROM checkpoints WHERE key IN ({marks})) ORDER BY id"
                ),
                tuple(checkpoints),
            )
            return [_entry(row) for row in cursor.fetchall()]

    def update(self, entry_id: int, entry: NewEntry) -> Entry:
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    "UPDATE entries SET game_key = ?, score = ?, largest = ?, moves = ?, "
                    "played = ?, assisted = ?, proof = ?, actions = ? WHERE id = ?"
                ),
                (
                    entry.game_key, entry.score, entry.largest, entry.moves, entry.played,
                    int(entry.assisted), entry.proof, entry.actions, entry_id,
                ),
            )  # fmt: skip
            self._checkpoints(cursor, entry_id, entry.checkpoints)
            self._replay(cursor, entry_id, entry.replay)
            cursor.execute(self.q(f"SELECT {_COLUMNS} FROM entries WHERE id = ?"), (entry_id,))
            return self._ranked(cursor, _entry(cursor.fetchone()))

    def count_unknown(self) -> None:
        """Count the actions, keep the checkpoints and make the replay of entries stored
        before the store kept them (once: a store that has them all reads one query)."""
        from twofold.core.verify import verify
        from twofold.ui.leaderboard.checking import checkpoints, packed_frames
        from twofold.ui.leaderboard.names import name_key

        with self.transaction() as cursor:
            cursor.execute(self.q("SELECT id, name FROM entries WHERE name_key IS NULL"))
            for entry_id, name in cursor.fetchall():
                cursor.execute(
                    self.q("UPDATE entries SET name_key = ? WHERE id = ?"),
                    (name_key(name), entry_id),
                )
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    "SELECT id, proof FROM entries WHERE actions = -1 "
                    "OR (actions >= 0 AND id NOT IN (SELECT entry_id FROM replays))"
                )
            )
            unknown = cursor.fetchall()
        for entry_id, proof in unknown:
            try:
                replayed = verify(proof).replayed
            except ValueError:
                # a proof this install does not replay (a plugin gone): kept as it is, and
                # marked (-2) so that opening the store does not try it again
                with self.transaction() as cursor:
                    cursor.execute(
                        self.q("UPDATE entries SET actions = -2 WHERE id = ?"), (entry_id,)
                    )
                continue
            with self.transaction() as cursor:
                cursor.execute(
                    self.q("UPDATE entries SET actions = ? WHERE id = ?"),
                    (len(replayed.actions), entry_id),
                )
                self._checkpoints(cursor, entry_id, checkpoints(replayed))
                self._replay(cursor, entry_id, packed_frames(replayed))

    def _ranked(self, cursor: Any, entry: Entry) -> Entry:
        # an unassisted game ranks among the unassisted (the default board), any other among all
        only = "" if entry.assisted else " AND assisted = 0"
        cursor.execute(
            self.q(
                "SELECT COUNT(*) FROM entries WHERE mode = ? AND code = ?"
                + only
                + " AND (score > ? OR (score = ? AND id < ?))"
            ),
            (entry.mode, entry.code, entry.score, entry.score, entry.id),
        )
        better = int(cursor.fetchone()[0])
        return _with_rank(entry, better + 1)

    def board(
        self, mode: str, code: str, *, assisted: bool, limit: int, offset: int = 0
    ) -> list[Entry]:
        only = "" if assisted else " AND assisted = 0"
        with self.transaction() as cursor:
            cursor.execute(
                self.q(
                    f"SELECT {_COLUMNS} FROM entries WHERE mode = ? AND code = ?{only} "
                    "ORDER BY score DESC, id ASC LIMIT ? OFFSET ?"
                ),
                (mode, code, limit, offset),
            )
            rows = cursor.fetchall()
        return [_with_rank(_entry(row), offset + i + 1) for i, row in enumerate(rows)]

    def entry(self, entry_id: int) -> Entry | None:
        with self.transaction() as cursor:
            cursor.execute(self.q(f"SELECT {_COLUMNS} FROM entries WHERE id = ?"), (entry_id,))
            row = cursor.fetchone()
            return None if row is None else self._ranked(cursor, _entry(row))


def _entry(row: Sequence[Any]) -> Entry:
    (
        entry_id,
        mode,
        code,
        day,
        name,
        score,
        largest,
        moves,
        played,
        assisted,
        proof,
        at,
        actions,
        key,
    ) = row
    return Entry(
        int(entry_id), mode, code, day, name, int(score), int(largest), int(moves), played,
        bool(assisted), proof, float(at), actions=int(actions), game_key=key,
    )  # fmt: skip


def _with_rank(entry: Entry, rank: int) -> Entry:
    return replace(entry, rank=rank)


# -- SQLite ----------------------------------------------------------------------------------


class SqliteBoards(_Sql):
    """The boards in one SQLite file; every thread has its own connection."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        create_private(path)
        connection = self._connection()
        application_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if application_id != APPLICATION_ID and (application_id or tables):
            raise StoreError(
                _("{path} is not a twofold leaderboard's database: it is left as it is").format(
                    path=path
                )
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                _("{path} was written by a newer twofold (schema {version})").format(
                    path=path, version=version
                )
            )
        use_wal(connection)
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            for step in MIGRATIONS[version:]:
                for statement in step:
                    connection.execute(statement.format(serial="AUTOINCREMENT", blob="BLOB"))
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.chmod(side, 0o600)
        self.count_unknown()

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(
                self.path, timeout=30, isolation_level=None, check_same_thread=False
            )
            connection.execute("PRAGMA synchronous = FULL")
            connection.execute("PRAGMA busy_timeout = 30000")
            self._local.connection = connection
        return connection

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        connection = self._connection()
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:  # locked past the timeout, or the disk failed
            raise StoreUnavailable(_one_line(error)) from None
        cursor = connection.cursor()
        try:
            yield cursor
            connection.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            raise

    def close(self) -> None:
        connection = getattr(self._local, "connection", None)
        if connection is not None:
            connection.close()
            self._local.connection = None


# -- PostgreSQL ------------------------------------------------------------------------------


class PostgresBoards(_Sql):
    """The boards in a PostgreSQL database (psycopg 3); every thread has its own connection."""

    marker = "%s"

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                _("--database postgresql://… needs psycopg: pip install 'twofold[postgres]'")
            ) from None
        self.psycopg = psycopg
        self.url = url
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        with self.transaction() as cursor:
            # one server migrates at a time, however many start together
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", (APPLICATION_ID,))
            cursor.execute(
                "CREATE TABLE IF NOT EXISTS twofold_leaderboard (version INTEGER NOT NULL)"
            )
            cursor.execute("SELECT version FROM twofold_leaderboard")
            row = cursor.fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise StoreError(
                    _("the database was written by a newer twofold (schema {version})").format(
                        version=version
                    )
                )
            for step in MIGRATIONS[version:]:
                for statement in step:
                    cursor.execute(
                        statement.replace(
                            "INTEGER PRIMARY KEY {serial}", "BIGSERIAL PRIMARY KEY"
                        ).replace("{blob}", "BYTEA")
                    )
            cursor.execute("DELETE FROM twofold_leaderboard")
            cursor.execute("INSERT INTO twofold_leaderboard VALUES (%s)", (SCHEMA_VERSION,))
        self.count_unknown()

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is None or connection.closed:
            try:
                connection = self.psycopg.connect(self.url, connect_timeout=10)
            except self.psycopg.Error as error:
                raise StoreUnavailable(
                    _("cannot reach the database: {error}").format(error=_one_line(error))
                ) from None
            self._local.connection = connection
            with self._lock:
                self._all.append(connection)
        return connection

    def _begin(self) -> tuple[Any, Any]:
        """A connection in a new transaction; one the database dropped is replaced once."""
        lost = (self.psycopg.OperationalError, self.psycopg.InterfaceError)
        for attempt in range(2):
            connection = self._connection()
            begun = connection.transaction()
            try:
                begun.__enter__()
                return connection, begun
            except lost:
                self._drop(connection)
                if attempt:
                    raise
        raise AssertionError  # pragma: no cover

    def _drop(self, connection: Any) -> None:
        self._local.connection = None
        with suppress(self.psycopg.Error):
            connection.close()

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        try:
            connection, begun = self._begin()
            with ExitStack() as stack, connection.cursor() as cursor:
                stack.push(begun)
                yield cursor
        except (self.psycopg.OperationalError, self.psycopg.InterfaceError) as error:
            stale = getattr(self._local, "connection", None)
            if stale is not None:
                self._drop(stale)  # the database went away: the next call connects again
            raise StoreUnavailable(
                _("cannot reach the database: {error}").format(error=_one_line(error))
            ) from None

    def close(self) -> None:
        with self._lock:
            for connection in self._all:
                connection.close()
            self._all.clear()


def _one_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else type(error).__name__


def open_boards(database: str | None) -> Boards:
    """The store ``--database`` names: a PostgreSQL URL, a SQLite file, or the default file."""
    if database and database.startswith(("postgresql://", "postgres://")):
        return PostgresBoards(database)
    path = Path(database) if database else data_dir() / DB_NAME
    try:
        return SqliteBoards(path)
    except sqlite3.DatabaseError as error:
        raise StoreError(
            _("cannot use {path}: {error}").format(path=path, error=str(error))
        ) from None
