"""The store on SQLite: one class behind which the package's modules each do one job.

Writes go through :meth:`SqliteStore._flush`: what is to be written waits (a
:class:`.writes.Writes`) until a transaction takes it, so a failed write is retried by
the next one, and nothing of it is lost while the process lives.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

from twofold.core.daily import utc_today
from twofold.core.i18n import _
from twofold.core.kept import FinishedGame, SavedGame
from twofold.core.settings import Settings
from twofold.core.store import files, history, saves, seats, settings_rows
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
from twofold.core.store.reading import HistoryReading
from twofold.core.store.schema import LIVE, SAVE_TAIL, SAVES, Table
from twofold.core.store.writes import REOPEN, Writes, code_of, passing

#: while this run cannot write the file, it is opened again every this many writes
RETRY_EVERY = 4


def cut(text: str, limit: int = 200) -> str:
    """A message part no longer than ``limit`` characters (long input is cut, never echoed)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class SqliteStore(HistoryReading):
    """The :class:`twofold.core.keeper.Store` on SQLite (see :mod:`twofold.core.store`)."""

    def __init__(
        self,
        connection: sqlite3.Connection,
        *,
        path: Path | None = None,
        today: Callable[[], date] = utc_today,
        owner: str | None = None,
        connect: Connect = connect,
        retry_path: Path | None = None,
    ) -> None:
        """``retry_path``: the file this run could not open, tried again every few writes."""
        self._connection = connection
        #: the database file, or None when this run keeps everything in memory
        self.path = path
        self.today = today
        #: how connections are made (a test hands in one that fails on cue)
        self.connect = connect
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
        self.owner = owner or seats.process_owner()
        seats.LIVE_OWNERS[self.owner] += 1
        self._closed = False
        self._lock = threading.RLock()
        self._slots: dict[str, saves.Slot] = {}
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
                if written is False:
                    refused.add(mode_id)
                else:
                    slots[mode_id] = written
            if writes.settings:
                connection.executemany(settings_rows.UPSERT, writes.settings)
        # a refused save stays pending: it is written once the other window lets the slot go
        done = Writes(dict(writes.finished), {m: writes.saves[m] for m in slots}, writes.settings)
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
        """A damaged index (quick_check does not read indexes against their tables) is built
        again from its table, once; True if that worked and the write is worth a retry."""
        if not is_damage(error) or self._reindexed:
            return False
        self._reindexed = True
        try:
            self._connection.execute("REINDEX")
        except sqlite3.Error:
            return False
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
            rows = source.execute(f"SELECT {table.column_list} FROM {table.name}").fetchall()
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

    # -- seats -----------------------------------------------------------------------------

    def claim_seat(self, mode_id: str) -> bool:
        """Take the seat of a mode's save slot; False if another open window holds it.

        When the database cannot be written the seat cannot be taken either: True, and
        every save checks the seat again.
        """
        try:
            with self._transaction() as connection:
                if seats.taken(connection, mode_id, self.owner):
                    self.seat_refused.add(mode_id)
                    return False
                seats.take(connection, mode_id, self.owner)
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
                    seats.release(connection, mode_id, self.owner)
            except sqlite3.Error:
                pass  # a seat whose process has ended is free anyway

    def _hold_seat(self, connection: sqlite3.Connection, mode_id: str, game_id: str) -> bool:
        """Whether this store may write the slot now (inside the save's transaction)."""
        if seats.beat(connection, mode_id, self.owner):
            return True
        if seats.taken(connection, mode_id, self.owner):
            return False
        # The seat is free: take it only if the slot holds nothing of another game.
        stored = connection.execute(
            f"SELECT data FROM {SAVES.name} WHERE mode_id = ?", (mode_id,)
        ).fetchone()
        if stored is not None and mode_id not in self._slots:
            other = history.json_or(stored[0], {}, dict).get("game_id")
            if other != game_id:
                return False
        seats.take(connection, mode_id, self.owner)
        return True

    # -- saves ---------------------------------------------------------------------------

    def load_save(self, mode_id: str) -> SavedGame | None:
        """The saved game of a mode; raise ValueError (a short reason) if it is unreadable.

        A damaged tail resumes at its last good action: ``SavedGame.lost`` says how many
        actions were lost.
        """
        try:
            rows = self._read(f"SELECT data FROM {SAVES.name} WHERE mode_id = ?", (mode_id,))
            tail = self._read(
                f"SELECT {saves.TAIL_COLUMNS} FROM {SAVE_TAIL.name} WHERE mode_id = ? ORDER BY seq",
                (mode_id,),
            )
        except sqlite3.Error as error:
            raise ValueError(one_line(error)) from None
        if not rows:
            self._slots.pop(mode_id, None)
            return None
        based, base = saves.decode_sealed(rows[0][0], mode_id)
        saved, lost = saves.with_tail(based, base, tail)
        count = len(saved.actions)
        # a damaged tail is written again from a new base at the next save
        written = count if not lost else -1
        self._slots[mode_id] = saves.Slot(
            saved.game_id, saved.code, written, len(based.actions), base
        )
        return replace(saved, lost=lost) if lost else saved

    def write_save(self, saved: SavedGame) -> None:
        """Keep a game's save: its new actions appended, or its base written again."""
        with self._lock:
            self._queue(Writes(saves={saved.mode_id: saved}))

    def clear_save(self, mode_id: str) -> None:
        with self._lock:
            self._queue(Writes(saves={mode_id: None}))

    def set_aside(self, mode_id: str) -> None:
        """Move a mode's save (base and tail) to a slot of its own, ``<mode>#aside-<time>``.

        Nothing reads it again; it is kept, as it was, for a fix or a newer twofold.
        """
        with self._lock:
            if self._closed:
                return
            aside = f"{mode_id}#aside-{time.time():.6f}"
            try:
                with self._transaction() as connection:
                    if not self._hold_seat(connection, mode_id, ""):
                        return  # another window's slot: not this one's to move
                    for table in (SAVES, SAVE_TAIL):
                        connection.execute(
                            f"UPDATE {table.name} SET mode_id = ? WHERE mode_id = ?",
                            (aside, mode_id),
                        )
                    self._put_live(connection, mode_id, None)
            except sqlite3.Error as error:
                self._failed(error)
            self._slots.pop(mode_id, None)

    def _put_save(
        self, connection: sqlite3.Connection, mode_id: str, saved: SavedGame | None
    ) -> saves.Slot | bool | None:
        """Write one pending save; the slot as now stored, None when cleared, False if refused."""
        game_id = saved.game_id if saved is not None else ""
        if not self._hold_seat(connection, mode_id, game_id):
            # another window's game is in the slot: neither written over nor cleared
            return False if saved is not None else None
        self._put_live(connection, mode_id, saved)
        if saved is None:
            connection.execute(f"DELETE FROM {SAVES.name} WHERE mode_id = ?", (mode_id,))
            connection.execute(f"DELETE FROM {SAVE_TAIL.name} WHERE mode_id = ?", (mode_id,))
            return None
        slot = self._slots.get(mode_id)
        count = len(saved.actions)
        flags = saves.flags_text(saved.flags)
        elapsed = float(saved.elapsed)
        if (
            slot is not None
            and slot.game_id == saved.game_id
            and slot.code == saved.code
            and slot.base_length <= slot.written < count
            and count - slot.base_length <= max(slot.base_length, saves.TAIL_FROM)
        ):
            # the new actions only; a save with none new (closing) writes the base again
            connection.executemany(
                saves.TAIL_INSERT,
                [
                    saves.tail_row(mode_id, slot.base, seq, saved.actions[seq], elapsed, flags)
                    for seq in range(slot.written, count)
                ],
            )
            return saves.Slot(slot.game_id, slot.code, count, slot.base_length, slot.base)
        text, base = saves.encode_sealed(saved)
        connection.execute(SAVES.upsert(), (mode_id, text, time.time()))
        connection.execute(f"DELETE FROM {SAVE_TAIL.name} WHERE mode_id = ?", (mode_id,))
        return saves.Slot(saved.game_id, saved.code, count, count, base)

    @staticmethod
    def _put_live(connection: sqlite3.Connection, mode_id: str, saved: SavedGame | None) -> None:
        """Keep the summary of the game in progress beside its save (gone with it)."""
        if saved is None or saved.live is None or not saved.actions:
            connection.execute(f"DELETE FROM {LIVE.name} WHERE mode_id = ?", (mode_id,))
            return
        connection.execute(
            history.LIVE_UPSERT,
            (mode_id, saved.game_id, history.live_data(saved.live), time.time()),
        )

    def has_save(self, mode_id: str) -> bool:
        return bool(
            self._read_or_empty(f"SELECT 1 FROM {SAVES.name} WHERE mode_id = ?", (mode_id,))
        )

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
