"""The store on SQLite: one class behind which the package's modules each do one job.

Writes go through :meth:`SqliteStore._flush`: what is to be written waits (a
:class:`.writes.Writes`) until a transaction takes it, so a failed write is retried by
the next one, and nothing of it is lost while the process lives.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from twofold.core._i18n import _
from twofold.core.daily import utc_today
from twofold.core.rows import FinishedGame
from twofold.core.settings import Settings
from twofold.core.store import files, history, salvage, saves, seats, settings_rows
from twofold.core.store.files import (
    Connect,
    DamagedDatabase,
    ForeignDatabase,
    NewerDatabase,
    connect,
    is_damage,
    is_full,
    one_line,
    open_connection,
    roll_back,
)
from twofold.core.store.queries import HistoryReading
from twofold.core.store.readable import Reader
from twofold.core.store.schema import Table
from twofold.core.store.slots import SaveSlots
from twofold.core.store.writes import REOPEN, Writes, code_of, passing

#: while this run cannot write the file, it is opened again every this many writes
RETRY_EVERY = 4


def cut(text: str, limit: int = 200) -> str:
    """A message part no longer than ``limit`` characters (long input is cut, never echoed)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class SqliteStore(SaveSlots, HistoryReading):
    """The :class:`twofold.core.storage.Store` on SQLite (see :mod:`twofold.core.store`)."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        path: Path | None = None,
        today: Callable[[], date] = utc_today,
        owner: str | None = None,
        connect: Connect = connect,
        retry_path: Path | None = None,
        notice: str | None = None,
        unsaved: str | None = None,
        write_reason: str = "",
    ) -> None:
        """``retry_path``: the file this run could not open, tried again every few writes;
        ``notice``, ``unsaved`` and ``write_reason``: how the opening went (see below)."""
        self._connection = connection
        #: the database file, or None when this run keeps everything in memory
        self.path = path
        self.today = today
        #: how connections are made (a test hands in one that fails on cue)
        self.connect = connect
        #: one line for the player about how the database was opened, or None
        self.notice = notice
        #: why nothing of this run is kept (a fallback to memory), for every reply; or None
        self.unsaved = unsaved
        #: why the last write failed (it is retried with the next), or None once one works
        self.write_problem: str | None = None
        #: SQLite's reason for the last failed write (a few words), for a last message
        self.write_reason = write_reason
        #: modes whose save slot is held by another window (their saves are not written)
        self.seat_refused: set[str] = set()
        #: who holds seats for this store: see the module docstring
        self.owner = owner or seats.process_owner()
        seats.LIVE_OWNERS[self.owner] += 1
        self._closed = False
        self._lock = threading.RLock()
        self._slots: dict[str, saves.Slot] = {}
        self._windows: set[str] = set()
        self._pending = Writes()
        self._failing_on_lock = False
        #: the file to open again while this run plays in memory (it could not be opened)
        self._retry_path = retry_path
        #: what this run kept in memory, for that file once it opens
        self._for_file = Writes()
        self._reopen = False
        self._tries = 0
        self._reindexed = False
        if path is not None:
            # until a write works, a lock held elsewhere costs a second, not ten
            self._set_busy_timeout(files.BUSY_TIMEOUT_START)

    @property
    def in_memory(self) -> bool:
        """Whether progress is kept for this run only."""
        return self.path is None

    @property
    def pending(self) -> int:
        """How many writes wait for a write that works (finished games, saves, settings).

        Playing in memory because the file could not be opened, what waits for the file
        counts too: it is lost if the file never opens.
        """
        return len(self._pending) + len(self._for_file)

    def take_notice(self) -> str | None:
        """The notice, cleared (so it is shown once)."""
        notice, self.notice = self.notice, None
        return notice

    # -- plumbing ------------------------------------------------------------------------

    def _guard(self) -> None:
        """Before the file is touched: never through a WAL index that cannot be written.

        SQLite maps ``twofold.db-shm``; once it cannot be written (``chattr +i``), the
        next statement would be SIGBUS. The connection is left unclosed (closing it writes
        the index too) and this run plays in memory, trying the file again as it goes.
        """
        if self.path is None or not files.shared_memory_blocked(self.path):
            return
        files.abandon(self._connection)
        self._connection = open_connection(None)
        self._retry_path, self.path = self.path, None
        self._for_file.add(self._pending)
        self.unsaved = self.notice = _(
            "{path} cannot be written (its shared memory file is read-only); progress is kept "
            "in memory and saved once it can be."
        ).format(path=self._retry_path)
        self.write_reason = _("the shared memory file is read-only")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._guard()
            connection = self._connection
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
                connection.execute("COMMIT")
            except BaseException:
                roll_back(connection)
                raise

    def _flush(self) -> bool:
        """Write everything pending; a failure becomes the write problem (see :mod:`.writes`).

        On a full disk the WAL is checkpointed and the write tried once more: the WAL
        then starts again from its beginning instead of growing.
        """
        with self._lock:
            if self._closed:
                return False
            self._reach_the_file()
            try:
                try:
                    self._write(self._pending)
                except sqlite3.Error as error:
                    if not ((is_full(error) and self._checkpoint()) or self._rebuilt(error)):
                        raise
                    self._write(self._pending)
            except (sqlite3.Error, OverflowError) as error:
                if passing(error) or len(self._pending) < 2:
                    self._failed(error)
                    return False
                # a write no retry can fix must not hold the others back: each alone
                parts = list(self._pending.each())
                failures = [fault for part in parts if (fault := self._try(part))]
                if failures:
                    self._failed(failures[0])
                    return False
            if self._failing_on_lock:
                self._set_busy_timeout(files.BUSY_TIMEOUT)
            self.write_problem = None
            return True

    def _try(self, writes: Writes) -> sqlite3.Error | OverflowError | None:
        try:
            self._write(writes)
        except (sqlite3.Error, OverflowError) as error:
            return error
        return None

    def _write(self, writes: Writes) -> None:
        """Write ``writes`` in one transaction, then forget them; raise if it fails."""
        slots: dict[str, saves.Slot | None] = {}
        refused: set[str] = set()
        with self._transaction() as connection:
            for finished in writes.finished.values():
                connection.execute(history.FINISHED_UPSERT, history.finished_row(finished))
            for mode_id, saved in writes.saves.items():
                written = self._put_save(connection, mode_id, saved)
                if written is False and saved is not None:
                    refused.add(mode_id)
                    self._put_window(connection, saved)
                elif written is not False:
                    slots[mode_id] = written
            if writes.settings:
                connection.executemany(settings_rows.UPSERT, writes.settings)
            for mode_id, last in writes.last.items():
                self._put_last(connection, mode_id, last)
        # a refused save is kept in a slot of its own; the next save tries the mode's slot again
        done = Writes(
            dict(writes.finished),
            dict(writes.saves),
            writes.settings,
            dict(writes.last),
        )
        self._pending.forget(done)
        for mode_id, slot in slots.items():
            if slot is None:
                self._slots.pop(mode_id, None)
            else:
                self._slots[mode_id] = slot
        self.seat_refused = (self.seat_refused - set(writes.saves)) | refused
        if refused:
            self.write_reason = _("the game is open in another window")

    def _failed(self, error: BaseException) -> None:
        reason = one_line(error)
        self.write_reason = cut(reason)
        self.write_problem = _(
            "Progress could not be saved ({reason}); play goes on and is kept at the next save "
            "that works."
        ).format(reason=cut(reason))
        self.notice = self.write_problem
        code = code_of(error)
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in reason.lower():
            self._set_busy_timeout(files.BUSY_TIMEOUT_FAILING)
        if code in REOPEN and self.path is not None:
            self._reopen = True  # a connection opened read-only stays so: open it again

    def _reach_the_file(self, *, now: bool = False) -> None:
        """Every few writes (and at the end), open the file again if this run cannot write it.

        A store playing in memory because the file could not be opened moves everything
        this run kept into it once it opens; a connection that cannot write is replaced.
        """
        target = self._retry_path if self._retry_path is not None else self.path
        if target is None or not (self._retry_path is not None or self._reopen):
            return
        self._tries += 1
        if not now and self._tries % RETRY_EVERY:
            return
        try:
            files.create_private(target)  # a file made only now is the player's alone too
            connection = open_connection(target, self.connect)
        except (OSError, sqlite3.Error, DamagedDatabase, NewerDatabase, ForeignDatabase):
            return
        old, self._connection, self._reopen = self._connection, connection, False
        old.close()
        if self._retry_path is not None:
            self.path, self._retry_path, self.unsaved = target, None, None
            self.write_reason = ""
            self._pending.add(self._for_file)
            self._for_file = Writes()
            # every save this run read or wrote is written whole into the file
            self._slots = {mode_id: saves.Slot("", "", -1, 0, "") for mode_id in self._slots}
            self.seat_refused = set()

    def _queue(self, writes: Writes) -> bool:
        """Take writes in and write everything pending; False if that failed."""
        self._pending.add(writes)
        if self._retry_path is not None:
            self._for_file.add(writes)  # in memory for now: kept for the file once it opens
        return self._flush()

    def _rebuilt(self, error: sqlite3.Error) -> bool:
        """Damage a write meets (the file was whole when opened) is repaired as at opening:
        the indexes rebuilt, or else the file moved aside and what of it reads copied into a
        fresh one, every save this run holds written whole again. True if the write is worth
        a retry."""
        if not is_damage(error) or self.path is None or self._reindexed:
            return False
        self._reindexed = True  # once a run: damage that comes back is told, not chased
        kept = None
        try:
            files.make_whole(self._connection)
            return True
        except DamagedDatabase as damage:
            kept = damage.kept
        except sqlite3.Error:
            pass
        path = self.path
        try:
            self._connection.close()
            connection, broken, copied = salvage.replace_damaged(path, self.connect, kept)
        except (OSError, sqlite3.Error, DamagedDatabase, NewerDatabase, ForeignDatabase):
            # neither the file nor a fresh one: play on in memory, trying the file again
            self._connection = open_connection(None)
            self._retry_path, self.path = path, None
            self._for_file.add(self._pending)
            return False
        self._connection = connection
        self._slots = {mode_id: saves.Slot("", "", -1, 0, "") for mode_id in self._slots}
        self.seat_refused = set()
        self.notice = _(
            "{path} was damaged ({reason}); it was kept as {broken} and a fresh one started."
        ).format(path=path, reason=cut(one_line(error)), broken=broken.name)
        if copied:
            self.notice += " " + _("What could still be read of it was copied into the fresh one.")
        return True

    def _checkpoint(self) -> bool:
        try:
            self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.Error:
            return False
        return self.path is not None

    def _set_busy_timeout(self, seconds: float) -> None:
        try:
            self._connection.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
            self._failing_on_lock = seconds < files.BUSY_TIMEOUT
        except sqlite3.Error:
            pass

    def _read(self, statement: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            self._guard()
            return self._connection.execute(statement, parameters).fetchall()

    def _read_or_empty(
        self, statement: str, parameters: tuple[Any, ...] = ()
    ) -> list[tuple[Any, ...]]:
        try:
            return self._read(statement, parameters)
        except sqlite3.Error as error:
            self.notice = _("Saved data could not be read ({reason}).").format(
                reason=one_line(error)
            )
            return []

    def borrow(self, table: Table, source: sqlite3.Connection) -> None:
        """Copy what reads of a table of another database (a file this run cannot write)."""
        try:
            rows = Reader(source, table).rows()  # past a damaged page, too
            with self._transaction() as connection:
                connection.executemany(table.insert(replace=True), rows)
        except (sqlite3.Error, ValueError, TypeError, OverflowError):
            pass  # this table cannot be read; the others may

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._reach_the_file(now=True)
            if self.pending:
                # the last chance for what earlier writes could not keep: wait the full time
                self._set_busy_timeout(files.BUSY_TIMEOUT)
                self._flush()
            self._closed = True
            seats.LIVE_OWNERS[self.owner] -= 1
            self._connection.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- finished games and records --------------------------------------------------------

    def record_finished(self, finished: FinishedGame) -> None:
        """Add a game to the history, replacing an earlier row with the same game_id."""
        with self._lock:
            self._queue(Writes(finished={finished.game_id: finished}))

    # -- settings ----------------------------------------------------------------------------

    def load_settings(self) -> Settings:
        """The stored settings; anything missing or unreadable takes its default."""
        return settings_rows.from_rows(self._read_or_empty(settings_rows.SELECT))

    def save_settings(self, settings: Settings) -> None:
        with self._lock:
            if not self._queue(Writes(settings=settings_rows.to_rows(settings))):
                self.notice = _("Settings could not be saved ({reason}).").format(
                    reason=self.write_problem
                )
