"""Opening the player's store: never failing, whatever the file is.

* A file that is not a database, or is damaged (its schema included), is moved aside
  (``twofold.db.broken-<time>``) and a fresh database starts.
* A database written by a newer twofold is left untouched (it holds the newer app's
  data) and this run plays in memory, with the settings read from it if possible.
* A database that is not twofold's (another ``application_id``, or a schema that is
  no twofold's, e.g. ``twofold.db`` a link to some other file) is never written: this
  run plays in memory. Nor is a path that is no regular file (a link to ``/dev/null``,
  a FIFO where SQLite keeps its WAL): nothing is opened or created beside it.
* A file whose indexes are damaged, or that holds a trigger, view or index that is
  not twofold's, is repaired (the indexes rebuilt from their tables, the rest removed
  before it can run) and says so; a damaged file that cannot be repaired is moved
  aside and what of it still reads is copied into the fresh one.
* A file that cannot be opened for writing (no permission, a read-only disk, locked
  for too long) also plays in memory, with everything that could be read from it:
  settings, records and saves.

In each case ``store.notice`` holds a one-line message for the player, and
``store.unsaved`` says (for every reply of the line modes) that nothing is kept.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import date
from pathlib import Path

from twofold.core._i18n import _
from twofold.core.daily import utc_today
from twofold.core.store.files import (
    DB_NAME,
    Connect,
    DamagedDatabase,
    ForeignDatabase,
    NewerDatabase,
    NotAFile,
    check_owner,
    connect,
    create_private,
    data_dir,
    header,
    one_line,
    open_checked,
    open_connection,
)
from twofold.core.store.salvage import replace_damaged
from twofold.core.store.schema import FINISHED, LIVE, SAVE_TAIL, SAVES, SCHEMA_VERSION, SETTINGS
from twofold.core.store.sqlite_store import SqliteStore, cut

#: the tables of every twofold database since version 1 (an older twofold's file has them)
_FIRST_TABLES = frozenset({SAVES.name, FINISHED.name, SETTINGS.name})
#: what is copied from a file this run cannot write, in this order
_BORROWED = (SETTINGS, FINISHED, SAVES, SAVE_TAIL, LIVE)


def open_store(
    path: Path | None = None,
    *,
    today: Callable[[], date] = utc_today,
    owner: str | None = None,
    connect: Connect = connect,
) -> SqliteStore:
    """Open the player's database (``data_dir() / "twofold.db"`` by default).

    ``path`` is the database file, or a folder to keep ``twofold.db`` in; ``owner``
    names the window for seats (default: this process); ``connect`` makes the
    connections (tests hand in one that fails). Never raises for a damaged or
    unusable file: see the module docstring; ``store.notice`` says what happened.
    """
    if path is None:
        path = data_dir() / DB_NAME
    elif path.is_dir():
        path = path / DB_NAME

    def store_at(
        where: Path, notice: str | None = None, connection: sqlite3.Connection | None = None
    ) -> SqliteStore:
        if connection is None:
            connection, repairs = open_checked(where, connect)
            if repairs:
                repaired = _(
                    "{path} was damaged ({reason}); it was repaired and nothing of it was lost."
                ).format(path=where, reason=cut(", ".join(repairs)))
                notice = repaired if notice is None else f"{notice} {repaired}"
        return SqliteStore(
            connection, path=where, today=today, owner=owner, connect=connect, notice=notice
        )

    borrow = _FIRST_TABLES
    immutable = False
    retry: Path | None = None
    reason = ""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        through = create_private(path)
        linked = _("{path} is a link to {target}, which did not exist; it was created there.")
        return store_at(path, None if through is None else linked.format(path=path, target=through))
    except NewerDatabase:
        notice = _(
            "{path} was written by a newer twofold; progress will not be saved this time."
        ).format(path=path)
        borrow = frozenset({SETTINGS.name})
    except NotAFile as odd:
        notice = _(
            "{path} is not a regular file; it is left untouched and progress "
            "will not be saved this time."
        ).format(path=odd)
        # a FIFO or device beside a file of ours: the file is read as it is, its WAL never
        borrow = _FIRST_TABLES if str(odd) != str(path) else frozenset()
        immutable = True
    except ForeignDatabase:
        notice = _(
            "{path} is not a twofold database; it is left untouched and progress "
            "will not be saved this time."
        ).format(path=path)
        borrow = frozenset()
    except DamagedDatabase as damage:
        try:
            connection, broken, copied = replace_damaged(path, connect, damage.kept)
            damaged = _(
                "{path} was damaged ({reason}); it was kept as {broken} and a fresh one started."
            ).format(path=path, reason=cut(one_line(damage)), broken=broken.name)
            if copied:
                damaged += " " + _("What could still be read of it was copied into the fresh one.")
            return store_at(path, damaged, connection)
        except (OSError, sqlite3.Error, DamagedDatabase, NewerDatabase, ForeignDatabase) as error:
            notice = _(
                "{path} is damaged and could not be replaced ({reason}); "
                "progress will not be saved this time."
            ).format(path=path, reason=one_line(error))
        borrow = frozenset()
    except (OSError, sqlite3.Error) as failure:
        notice = _(
            "{path} could not be opened ({reason}); progress is kept in memory and saved "
            "once it opens."
        ).format(path=path, reason=one_line(failure))
        # a lock, a full disk or a permission may pass: the file is tried again during play
        retry, reason = path, cut(one_line(failure))
    store = SqliteStore(
        open_connection(None, connect),
        path=None,
        today=today,
        owner=owner,
        connect=connect,
        retry_path=retry,
        notice=notice,
        unsaved=notice,
        write_reason=reason,  # what the exit line says if the file never opens
    )
    if borrow and path.is_file():
        _borrow(path, store, borrow, immutable=immutable)
    return store


def memory_store(*, today: Callable[[], date] = utc_today, owner: str | None = None) -> SqliteStore:
    """A store that keeps everything in memory for this run only (tests, fallbacks)."""
    return SqliteStore(open_connection(None), path=None, today=today, owner=owner)


def _borrow(
    path: Path, store: SqliteStore, tables: frozenset[str], *, immutable: bool = False
) -> None:
    """Copy what can be read of a file this run cannot write, so records and saves still show."""
    uri = path.resolve().as_uri()
    # immutable: a read-only disk with no WAL index, or no WAL that may be opened
    for query in ("?immutable=1",) if immutable else ("?mode=ro", "?immutable=1"):
        try:
            source = sqlite3.connect(uri + query, uri=True, timeout=1.0)
        except sqlite3.Error:
            continue  # a file this process may not read (chmod 000): nothing to borrow
        source.text_factory = lambda data: data.decode("utf-8", "replace")
        try:
            version, application_id, names = header(source)
            check_owner(source, application_id, min(version, SCHEMA_VERSION), names)
        except (sqlite3.Error, ValueError):
            source.close()
            continue  # the next way to read it
        except (ForeignDatabase, DamagedDatabase):
            source.close()
            return  # not ours to read
        try:
            if version > SCHEMA_VERSION:
                tables = tables & {SETTINGS.name}  # a newer app's tables may mean other things
            for table in _BORROWED:
                wanted = table.name in tables or (table is SAVE_TAIL and SAVES.name in tables)
                if wanted:
                    store.borrow(table, source)
            return
        finally:
            source.close()
