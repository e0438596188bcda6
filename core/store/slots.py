"""Seats and save slots: which window writes a mode's save, and the save read and written.

A mode's save slot holds one game's save (see :mod:`.saves`); only the window with
the mode's seat (see :mod:`.seats`) writes it, checked inside every save's transaction.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any

from twofold.core.rows import OVER, SavedGame
from twofold.core.store import history, saves, seats
from twofold.core.store.files import one_line
from twofold.core.store.schema import LIVE, SAVE_TAIL, SAVES, SEATS
from twofold.core.store.writes import Writes


class SaveSlots:
    """The seats and saves of :class:`SqliteStore` (its plumbing is the store's own)."""

    owner: str
    seat_refused: set[str]
    _closed: bool
    _lock: threading.RLock
    _slots: dict[str, saves.Slot]
    #: the window slots (see :meth:`_put_window`) whose seats this store holds
    _windows: set[str]
    #: the store's: one write transaction; a failed write told; reads; writes queued
    _transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _failed: Callable[[BaseException], None]
    _read: Callable[..., list[tuple[Any, ...]]]
    _read_or_empty: Callable[..., list[tuple[Any, ...]]]
    _queue: Callable[[Writes], bool]

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
            mine = [key for key in self._windows if key.startswith(saves.window_slot(mode_id, ""))]
            try:
                with self._transaction() as connection:
                    for key in (mode_id, *mine):
                        seats.release(connection, key, self.owner)
                self._windows.difference_update(mine)
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
        # a tail row no check sees is gone (hidden, skipped) still shortens the tip's count
        lost = max(lost, self._tip(mode_id, base) - len(saved.actions))
        saved = replace(saved, checkpoint=self._load_checkpoint(saved))
        count = len(saved.actions)
        # a damaged tail is written again from a new base at the next save
        written = count if not lost else -1
        self._slots[mode_id] = saves.Slot(
            saved.game_id, saved.code, written, len(based.actions), base
        )
        return replace(saved, lost=lost) if lost else saved

    def _tip(self, mode_id: str, base: str) -> int:
        """How many actions the save's tip says it has (0 when there is no tip that reads)."""
        try:
            rows = self._read(
                f"SELECT data FROM {SAVES.name} WHERE mode_id = ?", (saves.tip_slot(mode_id),)
            )
        except sqlite3.Error:
            return 0
        return (saves.decode_tip(rows[0][0], base) or 0) if rows else 0

    def _load_checkpoint(self, saved: SavedGame) -> Mapping[str, Any] | None:
        """The checkpoint kept beside a save, or None (a checkpoint is only ever a shortcut)."""
        try:
            rows = self._read(
                f"SELECT data FROM {SAVES.name} WHERE mode_id = ?",
                (saves.checkpoint_slot(saved.mode_id),),
            )
        except sqlite3.Error:
            return None
        return saves.decode_checkpoint(rows[0][0], saved) if rows else None

    def write_save(self, saved: SavedGame) -> None:
        """Keep a game's save: its new actions appended, or its base written again."""
        with self._lock:
            self._queue(Writes(saves={saved.mode_id: saved}))

    def clear_save(self, mode_id: str) -> None:
        with self._lock:
            self._queue(Writes(saves={mode_id: None}))

    # -- the game one step back --------------------------------------------------------------

    def load_last(self, mode_id: str) -> SavedGame | None:
        """The mode's game one step back, with its checkpoint; ValueError if unreadable."""
        slot = saves.last_slot(mode_id)
        try:
            rows = self._read(f"SELECT data FROM {SAVES.name} WHERE mode_id = ?", (slot,))
            kept = self._read(
                f"SELECT data FROM {SAVES.name} WHERE mode_id = ?", (saves.checkpoint_slot(slot),)
            )
        except sqlite3.Error as error:
            raise ValueError(one_line(error)) from None
        if not rows:
            return None
        saved = saves.decode_save(rows[0][0], mode_id)
        return replace(
            saved, checkpoint=saves.decode_checkpoint(kept[0][0], saved) if kept else None
        )

    def write_last(self, mode_id: str, saved: SavedGame | None) -> None:
        with self._lock:
            self._queue(Writes(last={mode_id: saved}))

    def _put_last(
        self, connection: sqlite3.Connection, mode_id: str, saved: SavedGame | None
    ) -> None:
        """Write the game one step back (whole: it changes only when a game is replaced)."""
        if seats.taken(connection, mode_id, self.owner):
            return  # another window's mode: its own last game is its own
        slot = saves.last_slot(mode_id)
        where = saves.checkpoint_slot(slot)
        if saved is None:
            connection.execute(f"DELETE FROM {SAVES.name} WHERE mode_id IN (?, ?)", (slot, where))
            return
        connection.execute(SAVES.upsert(), (slot, saves.encode_save(saved), time.time()))
        if saved.checkpoint is None:
            connection.execute(f"DELETE FROM {SAVES.name} WHERE mode_id = ?", (where,))
        else:
            connection.execute(SAVES.upsert(), (where, saves.encode_checkpoint(saved), time.time()))

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
                    for slot_of in (saves.checkpoint_slot, saves.tip_slot):
                        connection.execute(
                            f"UPDATE {SAVES.name} SET mode_id = ? WHERE mode_id = ?",
                            (slot_of(aside), slot_of(mode_id)),
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
            connection.execute(
                f"DELETE FROM {SAVES.name} WHERE mode_id IN (?, ?, ?)",
                (mode_id, saves.checkpoint_slot(mode_id), saves.tip_slot(mode_id)),
            )
            connection.execute(f"DELETE FROM {SAVE_TAIL.name} WHERE mode_id = ?", (mode_id,))
            return None
        slot = self._slots.get(mode_id)
        self._put_checkpoint(connection, mode_id, saved, slot)
        count = len(saved.actions)
        flags = saves.flags_text(saved.flags)
        elapsed = float(saved.elapsed)
        if (
            slot is not None
            and slot.game_id == saved.game_id
            and slot.code == saved.code
            and slot.base_length <= slot.written < count
            and count - slot.base_length
            <= max(slot.base_length // saves.TAIL_SHARE, saves.TAIL_FROM)
        ):
            # the new actions only; a save with none new (closing) writes the base again
            connection.executemany(
                saves.TAIL_INSERT,
                [
                    saves.tail_row(mode_id, slot.base, seq, saved.actions[seq], elapsed, flags)
                    for seq in range(slot.written, count)
                ],
            )
            self._put_tip(connection, saved, slot.base)
            return saves.Slot(slot.game_id, slot.code, count, slot.base_length, slot.base)
        text, base = saves.encode_sealed(saved)
        connection.execute(SAVES.upsert(), (mode_id, text, time.time()))
        # a game a second window kept is in the mode's slot now: kept once, not offered again
        self._drop_window(connection, saves.window_slot(mode_id, saved.game_id))
        connection.execute(f"DELETE FROM {SAVE_TAIL.name} WHERE mode_id = ?", (mode_id,))
        self._put_tip(connection, saved, base)
        return saves.Slot(saved.game_id, saved.code, count, count, base)

    def _put_window(self, connection: sqlite3.Connection, saved: SavedGame) -> None:
        """Keep a game whose mode's slot another window holds in a slot of its own.

        The window holds that slot's seat while it lives; once it has closed (or died),
        the next window to open the mode offers the game (:meth:`waiting_games`). A game
        with no action yet is nothing to keep.
        """
        key = saves.window_slot(saved.mode_id, saved.game_id)
        if not saved.actions:
            self._drop_window(connection, key)
            return
        seats.take(connection, key, self.owner)
        connection.execute(SAVES.upsert(), (key, saves.encode_save(saved), time.time()))
        self._windows.add(key)

    def _drop_window(self, connection: sqlite3.Connection, key: str) -> None:
        connection.execute(f"DELETE FROM {SAVES.name} WHERE mode_id = ?", (key,))
        connection.execute(f"DELETE FROM {SEATS.name} WHERE mode_id = ?", (key,))
        self._windows.discard(key)

    def waiting_games(self, mode_id: str) -> list[SavedGame]:
        """The games second windows kept for ``mode_id`` whose windows have closed, oldest
        first. One that does not read is left where it is, untouched."""
        prefix = saves.window_slot(mode_id, "")
        found: list[SavedGame] = []
        with self._lock:
            try:
                self._guard()
                rows = self._connection.execute(
                    f"SELECT mode_id, data FROM {SAVES.name} WHERE substr(mode_id, 1, ?) = ? "
                    "ORDER BY saved_at",
                    (len(prefix), prefix),
                ).fetchall()
                for key, data in rows:
                    if "#" in str(key)[len(prefix) :]:
                        continue  # a row beside a kept game, not one
                    if seats.taken(self._connection, str(key), self.owner):
                        continue  # its window is still open: the game is still its own
                    with contextlib.suppress(ValueError):
                        found.append(saves.decode_save(data, mode_id))
            except sqlite3.Error:
                return found
        return found

    @staticmethod
    def _put_tip(connection: sqlite3.Connection, saved: SavedGame, base: str) -> None:
        where = saves.tip_slot(saved.mode_id)
        connection.execute(SAVES.upsert(), (where, saves.encode_tip(saved, base), time.time()))

    @staticmethod
    def _put_checkpoint(
        connection: sqlite3.Connection,
        mode_id: str,
        saved: SavedGame,
        slot: saves.Slot | None,
    ) -> None:
        """Write a new checkpoint; drop the one of another game (its log is gone)."""
        where = saves.checkpoint_slot(mode_id)
        if saved.checkpoint is not None:
            text = saves.encode_checkpoint(saved)
            connection.execute(SAVES.upsert(), (where, text, time.time()))
        elif slot is None or slot.game_id != saved.game_id:
            connection.execute(f"DELETE FROM {SAVES.name} WHERE mode_id = ?", (where,))

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

    def game_waits(self, mode_id: str) -> bool:
        """Whether the save holds a game still to play: its latest flags (the last tail row's,
        else the base's) do not say it is over. A save that does not read still waits."""
        try:
            rows = self._read(
                f"SELECT flags FROM {SAVE_TAIL.name} WHERE mode_id = ? ORDER BY seq DESC LIMIT 1",
                (mode_id,),
            ) or self._read(
                f"SELECT json_extract(data, '$.flags') FROM {SAVES.name} WHERE mode_id = ?",
                (mode_id,),
            )
        except sqlite3.Error:
            return self.has_save(mode_id)
        if not rows:
            return False
        flags = history.json_or(rows[0][0], {}, dict)
        return flags.get(OVER) is not True
