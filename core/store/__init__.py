"""Where twofold keeps saves, settings and the history of finished games: one SQLite file.

The database is ``twofold.db`` in :func:`data_dir`. It is opened in WAL mode with a
busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so killing the
process at any moment leaves the old or the new state, and two copies of the app can
use the file at once. The file carries twofold's ``application_id`` and a schema
version (``PRAGMA user_version``); :data:`MIGRATIONS` takes it from each version to
the next.

One module a job, behind one class, :class:`SqliteStore` (the
:class:`twofold.core.storage.Store` on SQLite):

* :mod:`.schema`: the tables, stated once, the migrations, and the schema check;
* :mod:`.files`: where the file is, what it is (twofold's, another's, no regular file)
  before SQLite opens it, opening, checking (``integrity_check``) and repairing it;
* :mod:`.salvage`: a damaged file moved aside, what of it reads copied to a fresh one;
* :mod:`.recovery`: :func:`open_store`, which never fails for a player (it plays in
  memory when the file cannot be used, and says why);
* :mod:`.saves`: a save's JSON and its checksummed tail;
* :mod:`.seats`: which window may write a mode's save slot;
* :mod:`.history`: finished rows, the game in progress, and records in SQL;
* :mod:`.settings_rows`: settings, and the language peek the translations use.

A write that fails (disk full, the file read-only or locked by another program) is
never silent and loses nothing that a later write can still keep: what could not be
written stays pending in memory, ``store.write_problem`` says why, and the next
successful write takes it all. While writes fail because of a lock, the busy timeout
is cut short, so play does not stall for ten seconds a command.

Two windows on one mode: a mode's save slot has a *seat*. The window that opens a
mode first takes the seat and resumes the save; a second window (while the first
one's process lives) gets a fresh game of its own and is told so. Only the seat's
holder writes the slot, checked inside every save's transaction; finished games are
rows keyed by their own game id, so every finished game of every window is recorded
exactly once.
"""

from __future__ import annotations

from twofold.core import _i18n as i18n
from twofold.core.old_paths import old_path
from twofold.core.store.files import (
    BUSY_TIMEOUT,
    BUSY_TIMEOUT_FAILING,
    DB_NAME,
    HOME_VARIABLE,
    MEMORY,
    WAL_PAGES,
    Connect,
    DamagedDatabase,
    ForeignDatabase,
    NewerDatabase,
    connect,
)
from twofold.core.store.files import data_dir as _data_dir
from twofold.core.store.recovery import memory_store, open_store
from twofold.core.store.saves import SAVE_FORMAT, TAIL_FROM, decode_save, encode_save
from twofold.core.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from twofold.core.store.seats import SEAT_STALE, process_owner
from twofold.core.store.settings_rows import peek_language
from twofold.core.store.sqlite_store import SqliteStore

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT",
    "BUSY_TIMEOUT_FAILING",
    "DB_NAME",
    "HOME_VARIABLE",
    "MEMORY",
    "MIGRATIONS",
    "SAVE_FORMAT",
    "SCHEMA_VERSION",
    "SEAT_STALE",
    "TAIL_FROM",
    "WAL_PAGES",
    "Connect",
    "DamagedDatabase",
    "ForeignDatabase",
    "NewerDatabase",
    "SqliteStore",
    "connect",
    "decode_save",
    "encode_save",
    "memory_store",
    "open_store",
    "process_owner",
    "stored_language",
]


def stored_language() -> str:
    """The ``language`` setting in the player's database, or "" (read-only, never raises)."""
    return peek_language(_data_dir() / DB_NAME)


# the translations read the stored language through the store (i18n knows no SQL)
i18n.read_language_with(stored_language)

# data_dir is the contract's (twofold.plugin): importing it from here warns, naming the front
__getattr__, __dir__ = old_path(__name__, frozenset({"data_dir"}))
