"""Where a leaderboard keeps its entries: SQLite by default, PostgreSQL to grow past one machine.

One table of entries, one row per game (its ``game_key``: the mode, the code and the log,
so the same game sent again, by any proof of it, is never counted twice), and the keys of
each game's first 16, 32, 64, … actions (``checkpoints``), by which a game that starts
another, or is started by it, is found as the same game. Both stores are one SQLAlchemy
Core schema (``tables``) run by the same statements, and migrated by Alembic
(``migrations``, shipped with the package) when the store opens:

* SQLite: a file in the data folder (``leaderboard.db``), created 0600, in WAL mode with
  ``synchronous=FULL`` (an entry the server acknowledged survives kill -9 and power loss),
  marked with its own ``application_id``; a file of anything else is never written.
* PostgreSQL (``postgresql://…``, through psycopg 3: the ``postgres`` extra): several
  servers behind one load balancer share one database, and migrate it one at a time.

Every method is blocking; the server calls them in threads, never on its event loop.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.util import CommandError
from sqlalchemy import (
    Connection,
    Engine,
    Row,
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    inspect,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url

from twofold.core._i18n import _
from twofold.core.store.files import create_private, data_dir, use_wal
from twofold.leaderboard.tables import checkpoints, entries, legacy_version, replays

#: "twlb": a leaderboard's SQLite file, never a player's twofold.db
APPLICATION_ID = 0x74776C62
DB_NAME = "leaderboard.db"
#: Alembic's scripts, shipped inside the package
MIGRATIONS = Path(__file__).with_name("migrations")
#: the newest migration's number: the revisions are "0001", "0002", …
SCHEMA_VERSION = len(list((MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")))
#: an entry's columns, in Entry's order
_COLUMNS = (
    entries.c.id, entries.c.mode, entries.c.code, entries.c.day, entries.c.name,
    entries.c.score, entries.c.largest, entries.c.moves, entries.c.played, entries.c.assisted,
    entries.c.proof, entries.c.submitted, entries.c.actions, entries.c.game_key,
)  # fmt: skip
#: a board's rows leave the proofs (up to 512 KB each) where they are
_BOARD_COLUMNS = tuple(
    literal("").label("proof") if column is entries.c.proof else column for column in _COLUMNS
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
    ) -> list[Entry]:
        """A page of a board, best first, ranked; without the proofs (``entry`` has them)."""
        ...

    def entry(self, entry_id: int) -> Entry | None: ...

    def replay(self, entry_id: int) -> bytes | None:
        """The entry's replay as made when it was accepted (gzipped JSON)."""
        ...

    def close(self) -> None: ...


# Every statement is built once, its values bound at each call: SQLAlchemy then compiles it
# once a dialect and spends no time rebuilding it (a read costs some 20 µs of Python, not 400).
_BY_GAME = select(*_COLUMNS).where(entries.c.game_key == bindparam("game_key"))
_BY_ID = select(*_COLUMNS).where(entries.c.id == bindparam("entry_id"))
_NAME_LIKE = (
    select(entries.c.name)
    .where(
        entries.c.mode == bindparam("mode"),
        entries.c.code == bindparam("code"),
        entries.c.name_key == bindparam("key"),
        entries.c.name != bindparam("name"),
    )
    .order_by(entries.c.id)
    .limit(1)
)
_RELATED = (
    select(*_COLUMNS)
    .where(
        entries.c.id.in_(
            select(checkpoints.c.entry_id).where(
                checkpoints.c.key.in_(bindparam("keys", expanding=True))
            )
        )
    )
    .order_by(entries.c.id)
)
_UPDATE = update(entries).where(entries.c.id == bindparam("entry_id"))
_REPLAY = select(replays.c.frames).where(replays.c.entry_id == bindparam("entry_id"))
_DROP_REPLAY = delete(replays).where(replays.c.entry_id == bindparam("entry_id"))
_DROP_CHECKPOINTS = delete(checkpoints).where(checkpoints.c.entry_id == bindparam("entry_id"))
_BETTER = select(func.count()).where(
    entries.c.mode == bindparam("mode"),
    entries.c.code == bindparam("code"),
    or_(
        entries.c.score > bindparam("score"),
        and_(entries.c.score == bindparam("score"), entries.c.id < bindparam("entry_id")),
    ),
)
_BOARD = (
    select(*_BOARD_COLUMNS)
    .where(entries.c.mode == bindparam("mode"), entries.c.code == bindparam("code"))
    .order_by(entries.c.score.desc(), entries.c.id)
    .limit(bindparam("limit"))
    .offset(bindparam("offset"))
)
#: an unassisted game ranks among the unassisted (the default board), any other among all
_UNASSISTED = entries.c.assisted == 0
_RANKED_AMONG = {False: _BETTER.where(_UNASSISTED), True: _BETTER}
_BOARDS = {False: _BOARD.where(_UNASSISTED), True: _BOARD}


#: what SQLAlchemy raises when the database cannot be reached just now
_UNREACHABLE = (
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    sqlalchemy.exc.TimeoutError,
    sqlalchemy.exc.DisconnectionError,
)
T = TypeVar("T")


def _unavailable(error: BaseException) -> StoreUnavailable:
    return StoreUnavailable(_("cannot reach the database: {error}").format(error=_one_line(error)))


class SqlBoards:
    """The boards in one database, through a SQLAlchemy engine (its pool of connections)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        insert = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}[engine.dialect.name]
        self._insert_new = (
            insert(entries).on_conflict_do_nothing(index_elements=["game_key"]).returning(*_COLUMNS)
        )
        # PostgreSQL: a read of one statement needs no BEGIN and COMMIT, each a round trip to
        # the server (SQLite's are calls in this process, and its reads share a snapshot)
        self._reading: dict[str, Any] = (
            {"isolation_level": "AUTOCOMMIT"} if engine.dialect.name == "postgresql" else {}
        )

    @contextmanager
    def _reached(self) -> Iterator[None]:
        """SQLAlchemy's errors of a database out of reach as StoreUnavailable (a 503)."""
        try:
            yield
        except _UNREACHABLE as error:
            raise _unavailable(error) from None

    @contextmanager
    def transaction(self, *, write: bool = False) -> Iterator[Connection]:
        """A connection in a transaction, committed at the end (``write``: one that writes)."""
        with self._reached(), self.engine.connect() as connection:
            connection.execution_options(twofold_write=write)
            with connection.begin():
                yield connection

    def _run(self, work: Callable[[Connection], T], *, write: bool = False, one: bool = False) -> T:
        """``work`` in a transaction (``one``: a single statement that reads, in none).

        A pooled connection the database dropped (it restarted) fails at its first statement,
        and SQLAlchemy empties the pool: the work runs once more, on a new connection, rather
        than every checkout paying a round trip to ask first (``pool_pre_ping``). Each work
        here may run twice: an add finds its own game, an update writes the same again.
        """
        for attempt in (1, 2):
            try:
                with self.engine.connect() as connection:
                    if one:
                        connection.execution_options(**self._reading)
                        return work(connection)
                    connection.execution_options(twofold_write=write)
                    with connection.begin():
                        return work(connection)
            except sqlalchemy.exc.DBAPIError as error:
                if attempt == 1 and error.connection_invalidated:
                    continue
                if isinstance(error, _UNREACHABLE):
                    raise _unavailable(error) from None
                raise
            except _UNREACHABLE as error:
                raise _unavailable(error) from None
        raise AssertionError  # pragma: no cover

    def add(self, entry: NewEntry) -> tuple[Entry, bool]:
        return self._run(lambda connection: self._add(connection, entry), write=True)

    def _add(self, connection: Connection, entry: NewEntry) -> tuple[Entry, bool]:
        inserted = connection.execute(
            self._insert_new,
            {
                "game_key": entry.game_key,
                "mode": entry.mode,
                "code": entry.code,
                "day": entry.day,
                "name": entry.name,
                "score": entry.score,
                "largest": entry.largest,
                "moves": entry.moves,
                "played": entry.played,
                "assisted": int(entry.assisted),
                "proof": entry.proof,
                "submitted": time.time(),
                "actions": entry.actions,
                "name_key": entry.name_key or None,
            },
        ).first()
        if inserted is None:  # sent before: the entry as it is
            stored = _entry(connection.execute(_BY_GAME, {"game_key": entry.game_key}).one())
            return self._ranked(connection, stored), False
        stored = _entry(inserted)
        # a new entry has none yet: written with no DELETE first (each a round trip)
        self._checkpoints(connection, stored.id, entry.checkpoints, new=True)
        self._replay(connection, stored.id, entry.replay, new=True)
        return self._ranked(connection, stored), True

    def _replay(
        self, connection: Connection, entry_id: int, frames: bytes, *, new: bool = False
    ) -> None:
        if not frames:
            return
        if not new:
            connection.execute(_DROP_REPLAY, {"entry_id": entry_id})
        connection.execute(replays.insert(), {"entry_id": entry_id, "frames": frames})

    def replay(self, entry_id: int) -> bytes | None:
        frames = self._run(
            lambda connection: connection.scalar(_REPLAY, {"entry_id": entry_id}), one=True
        )
        return None if frames is None else bytes(frames)

    def _checkpoints(
        self, connection: Connection, entry_id: int, keys: Sequence[str], *, new: bool = False
    ) -> None:
        if not new:
            connection.execute(_DROP_CHECKPOINTS, {"entry_id": entry_id})
        if keys:
            connection.execute(
                checkpoints.insert(), [{"key": key, "entry_id": entry_id} for key in keys]
            )

    def name_like(self, mode: str, code: str, key: str, name: str) -> str | None:
        values = {"mode": mode, "code": code, "key": key, "name": name}
        found = self._run(lambda connection: connection.scalar(_NAME_LIKE, values), one=True)
        return None if found is None else str(found)

    def related(self, keys: Sequence[str]) -> list[Entry]:
        if not keys:
            return []
        rows = self._run(
            lambda connection: connection.execute(_RELATED, {"keys": list(keys)}).all(), one=True
        )
        return [_entry(row) for row in rows]

    def update(self, entry_id: int, entry: NewEntry) -> Entry:
        return self._run(lambda connection: self._update(connection, entry_id, entry), write=True)

    def _update(self, connection: Connection, entry_id: int, entry: NewEntry) -> Entry:
        connection.execute(
            _UPDATE,
            {
                "entry_id": entry_id,
                "game_key": entry.game_key,
                "score": entry.score,
                "largest": entry.largest,
                "moves": entry.moves,
                "played": entry.played,
                "assisted": int(entry.assisted),
                "proof": entry.proof,
                "actions": entry.actions,
            },
        )
        self._checkpoints(connection, entry_id, entry.checkpoints)
        self._replay(connection, entry_id, entry.replay)
        row = connection.execute(_BY_ID, {"entry_id": entry_id}).one()
        return self._ranked(connection, _entry(row))

    def count_unknown(self) -> None:
        """Count the actions, keep the checkpoints and make the replay of entries stored
        before the store kept them (once: a store that has them all reads one query)."""
        from twofold.core.verify import verify
        from twofold.leaderboard.names import name_key
        from twofold.leaderboard.verifier import checkpoints as checkpoints_of
        from twofold.leaderboard.verifier import packed_frames

        with self.transaction(write=True) as connection:
            unnamed = connection.execute(
                select(entries.c.id, entries.c.name).where(entries.c.name_key.is_(None))
            ).all()
            for entry_id, name in unnamed:
                connection.execute(_UPDATE, {"entry_id": entry_id, "name_key": name_key(name)})
        with self.transaction() as connection:
            unknown = connection.execute(
                select(entries.c.id, entries.c.proof).where(
                    or_(
                        entries.c.actions == -1,
                        and_(
                            entries.c.actions >= 0,
                            entries.c.id.not_in(select(replays.c.entry_id)),
                        ),
                    )
                )
            ).all()
        for entry_id, proof in unknown:
            try:
                replayed = verify(proof).replayed
            except ValueError:
                # a proof this install does not replay (a plugin gone): kept as it is, and
                # marked (-2) so that opening the store does not try it again
                with self.transaction(write=True) as connection:
                    connection.execute(_UPDATE, {"entry_id": entry_id, "actions": -2})
                continue
            with self.transaction(write=True) as connection:
                connection.execute(
                    _UPDATE, {"entry_id": entry_id, "actions": len(replayed.actions)}
                )
                self._checkpoints(connection, entry_id, checkpoints_of(replayed))
                self._replay(connection, entry_id, packed_frames(replayed))

    def _ranked(self, connection: Connection, entry: Entry) -> Entry:
        better = connection.scalar(
            _RANKED_AMONG[entry.assisted],
            {"mode": entry.mode, "code": entry.code, "score": entry.score, "entry_id": entry.id},
        )
        return _with_rank(entry, int(better or 0) + 1)

    def board(
        self, mode: str, code: str, *, assisted: bool, limit: int, offset: int = 0
    ) -> list[Entry]:
        values = {"mode": mode, "code": code, "limit": limit, "offset": offset}
        rows = self._run(
            lambda connection: connection.execute(_BOARDS[assisted], values).all(), one=True
        )
        # each Entry made once, with its rank (a dataclasses.replace each took half the time)
        return [_entry(row, offset + i + 1) for i, row in enumerate(rows)]

    def entry(self, entry_id: int) -> Entry | None:
        def ranked(connection: Connection) -> Entry | None:
            row = connection.execute(_BY_ID, {"entry_id": entry_id}).first()
            return None if row is None else self._ranked(connection, _entry(row))

        return self._run(ranked)

    def close(self) -> None:
        self.engine.dispose()


def _entry(row: Row[Any] | Sequence[Any], rank: int = 0) -> Entry:
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
        bool(assisted), proof, float(at), rank=rank, actions=int(actions), game_key=key,
    )  # fmt: skip


def _with_rank(entry: Entry, rank: int) -> Entry:
    return replace(entry, rank=rank)


# -- migrations --------------------------------------------------------------------------------


def migrate(connection: Connection, legacy: int) -> None:
    """Bring the schema to the newest migration, in the caller's transaction.

    ``legacy``: the version a database written before Alembic says it has (0: none, or
    already Alembic's); its migrations are taken as run, since they are the same steps.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    has_alembic = inspect(connection).has_table("alembic_version")
    if legacy and not has_alembic:
        command.stamp(config, f"{min(legacy, SCHEMA_VERSION):04d}")
    try:
        command.upgrade(config, "head")
    except CommandError as error:  # a revision this twofold does not have: a newer one's
        raise StoreError(
            _("the database's schema is newer than this twofold's: {error}").format(
                error=_one_line(error)
            )
        ) from None


def _newer(version: int, where: str) -> StoreError:
    return StoreError(
        _("{path} was written by a newer twofold (schema {version})").format(
            path=where, version=version
        )
    )


# -- SQLite ----------------------------------------------------------------------------------


def _sqlite_engine(path: Path) -> Engine:
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"timeout": 30, "check_same_thread": False},
        pool_size=8,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # transactions are begun below, so that a writer takes the lock at once
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA synchronous = FULL")
        dbapi_connection.execute("PRAGMA busy_timeout = 30000")

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # a writer locks at BEGIN (a reader turning writer can only fail); readers never wait
        write = connection.get_execution_options().get("twofold_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


class SqliteBoards(SqlBoards):
    """The boards in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        create_private(path)
        engine = _sqlite_engine(path)
        try:
            self._open(engine)
        except BaseException:
            engine.dispose()
            raise
        super().__init__(engine)
        for suffix in ("-wal", "-shm"):
            side = path.with_name(path.name + suffix)
            if side.exists():
                os.chmod(side, 0o600)
        self.count_unknown()

    def _open(self, engine: Engine) -> None:
        path = self.path
        # the checks and the switch to WAL come before any transaction: on the driver's own
        raw = engine.raw_connection()
        try:
            pragma = raw.driver_connection.execute  # type: ignore[union-attr]
            application_id = pragma("PRAGMA application_id").fetchone()[0]
            version = pragma("PRAGMA user_version").fetchone()[0]
            tables = pragma("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if application_id != APPLICATION_ID and (application_id or tables):
                raise StoreError(
                    _("{path} is not a twofold leaderboard's database: it is left as it is").format(
                        path=path
                    )
                )
            if version > SCHEMA_VERSION:
                raise _newer(version, str(path))
            use_wal(raw.driver_connection)  # type: ignore[arg-type]
        finally:
            raw.close()
        with engine.connect() as connection:
            connection.execution_options(twofold_write=True)
            with connection.begin():
                # read again under the write lock: another server may have just migrated
                version = connection.exec_driver_sql("PRAGMA user_version").scalar() or 0
                if version > SCHEMA_VERSION:
                    raise _newer(version, str(path))
                migrate(connection, version)
                # the schema's number where a twofold from before Alembic looks for it, so
                # that it refuses a newer file instead of writing it
                connection.exec_driver_sql(f"PRAGMA application_id = {APPLICATION_ID}")
                connection.exec_driver_sql(f"PRAGMA user_version = {SCHEMA_VERSION}")


# -- PostgreSQL ------------------------------------------------------------------------------


def postgres_url(url: str) -> str:
    """A ``postgresql://`` (or ``postgres://``) URL as SQLAlchemy names psycopg 3's driver."""
    found = make_url(url.replace("postgres://", "postgresql://", 1))
    return found.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


class PostgresBoards(SqlBoards):
    """The boards in a PostgreSQL database, through psycopg 3."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise StoreError(
                _("--database postgresql://… needs psycopg: pip install 'twofold[postgres]'")
            ) from None
        engine = create_engine(
            postgres_url(url),
            pool_size=8,
            connect_args={"connect_timeout": 10},
        )
        super().__init__(engine)
        try:
            self._open()
        except BaseException:
            engine.dispose()
            raise
        self.count_unknown()

    def _open(self) -> None:
        with self.transaction(write=True) as connection:
            # one server migrates at a time, however many start together
            connection.execute(select(func.pg_advisory_xact_lock(APPLICATION_ID)))
            legacy = 0
            if inspect(connection).has_table(legacy_version.name):
                legacy = connection.scalar(select(func.max(legacy_version.c.version))) or 0
            if legacy > SCHEMA_VERSION:
                raise _newer(legacy, _("the database"))
            migrate(connection, legacy)
            # the schema's number where a twofold from before Alembic looks for it
            legacy_version.create(connection, checkfirst=True)
            connection.execute(delete(legacy_version))
            connection.execute(legacy_version.insert().values(version=SCHEMA_VERSION))


def _one_line(error: BaseException) -> str:
    # SQLAlchemy's message adds the statement and a link: the driver's first line says it
    found = getattr(error, "orig", None) or error
    lines = str(found).strip().splitlines()
    return lines[0] if lines else type(found).__name__


def open_boards(database: str | None) -> SqlBoards:
    """The store ``--database`` names: a PostgreSQL URL, a SQLite file, or the default file."""
    if database and database.startswith(("postgresql://", "postgres://", "postgresql+psycopg://")):
        try:
            return PostgresBoards(database)
        except (sqlalchemy.exc.SQLAlchemyError, ValueError) as error:
            raise StoreError(
                _("cannot use the database: {error}").format(error=_one_line(error))
            ) from None
    path = Path(database) if database else data_dir() / DB_NAME
    try:
        return SqliteBoards(path)
    # the driver's own error: raised by the pragmas a new connection runs, not by a statement
    except (sqlalchemy.exc.SQLAlchemyError, sqlite3.DatabaseError) as error:
        raise StoreError(
            _("cannot use {path}: {error}").format(path=path, error=_one_line(error))
        ) from None
