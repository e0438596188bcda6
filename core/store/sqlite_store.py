"""The store on SQLite: one class behind which the package's modules each do one job.

Writes go through :meth:`SqliteStore._flush`: what is to be written waits in
``_pending_*`` until a transaction takes it, so a failed write is retried by the
next one, and nothing of it is lost while the process lives.
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
    connect,
    is_full,
    one_line,
    roll_back,
)
from twofold.core.store.reading import HistoryReading
from twofold.core.store.schema import LIVE, SAVE_TAIL, SAVES, Table


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
    ) -> None:
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

    def take_notice(self) -> str | None:
        """The notice, cleared (so it is shown once)."""
        notice, self.notice = self.notice, None
        return notice

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
                roll_back(connection)
                raise

    def _flush(self, *, retry: bool = True) -> bool:
        """Write everything pending in one transaction; a failure becomes the write problem.

        On a full disk the WAL is checkpointed and the write tried once more: the WAL
        then starts again from its beginning instead of growing.
        """
        with self._lock:
            if self._closed:
                return False
            slots: dict[str, saves.Slot | None] = {}
            refused: set[str] = set()
            try:
                with self._transaction() as connection:
                    for finished in self._pending_finished.values():
                        connection.execute(history.FINISHED_UPSERT, history.finished_row(finished))
                    for mode_id, saved in self._pending_saves.items():
                        written = self._put_save(connection, mode_id, saved)
                        if written is False:
                            refused.add(mode_id)
                        else:
                            slots[mode_id] = written
                    if self._pending_settings:
                        connection.executemany(settings_rows.UPSERT, self._pending_settings)
            except sqlite3.Error as error:
                if not (retry and is_full(error) and self._checkpoint()):
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
                self._set_busy_timeout(files.BUSY_TIMEOUT)
            self.write_problem = None
            return True

    def _failed(self, error: sqlite3.Error) -> None:
        reason = one_line(error)
        self.write_reason = cut(reason)
        self.write_problem = _(
            "Progress could not be saved ({reason}); play goes on and is kept at the next save "
            "that works."
        ).format(reason=cut(reason))
        self.notice = self.write_problem
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in reason.lower():
            self._set_busy_timeout(files.BUSY_TIMEOUT_FAILING)

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
            self._pending_saves[saved.mode_id] = saved
            self._flush()

    def clear_save(self, mode_id: str) -> None:
        with self._lock:
            self._pending_saves[mode_id] = None
            self._flush()

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
            self._pending_finished[finished.game_id] = finished
            self._flush()

    # -- settings ----------------------------------------------------------------------------

    def load_settings(self) -> Settings:
        """The stored settings; anything missing or unreadable takes its default."""
        return settings_rows.from_rows(self._read_or_empty(settings_rows.SELECT))

    def save_settings(self, settings: Settings) -> None:
        with self._lock:
            self._pending_settings = settings_rows.to_rows(settings)
            if not self._flush():
                self.notice = _("Settings could not be saved ({reason}).").format(
                    reason=self.write_problem
                )
