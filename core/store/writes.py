"""What waits to be written: finished games, saves and settings, until a write takes them.

A write that fails leaves its :class:`Writes` pending, so the next write that works
keeps it all. A write that fails for a reason no retry can fix (a damaged table, a
value SQLite refuses) is tried again one item at a time, so it holds no other back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from twofold.core.rows import FinishedGame, SavedGame

#: SQLite's result codes of a write that waiting or retrying can make work
PASSING = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_NOMEM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PROTOCOL,
        sqlite3.SQLITE_INTERRUPT,
    }
)
#: the codes after which the connection itself is opened again (it may be stuck read-only)
REOPEN = frozenset({sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR})


def code_of(error: BaseException) -> int:
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def passing(error: BaseException) -> bool:
    """Whether a later try of the same write can work (a lock, a full disk, read-only)."""
    if not isinstance(error, sqlite3.Error):
        return False  # a value SQLite cannot take (OverflowError) stays so
    code = code_of(error)
    if code:
        return code in PASSING
    text = str(error).lower()
    return any(word in text for word in ("locked", "full", "readonly", "read-only", "disk i/o"))


@dataclass
class Writes:
    """Writes not yet taken by a transaction (``None`` as a save clears its slot)."""

    finished: dict[str, FinishedGame] = field(default_factory=dict)
    saves: dict[str, SavedGame | None] = field(default_factory=dict)
    settings: list[tuple[str, str]] = field(default_factory=list)
    #: each mode's game one step back (Last game), None when there is none
    last: dict[str, SavedGame | None] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.finished) + len(self.saves) + bool(self.settings) + len(self.last)

    def add(self, other: Writes) -> None:
        """Take ``other``'s writes in too (later ones win)."""
        self.finished.update(other.finished)
        for mode_id, saved in other.saves.items():
            self.saves[mode_id] = with_checkpoint(saved, self.saves.get(mode_id))
        if other.settings:
            self.settings = list(other.settings)
        self.last.update(other.last)

    def each(self) -> Iterator[Writes]:
        """One Writes per item, so each can be tried alone."""
        for game_id, finished in self.finished.items():
            yield Writes(finished={game_id: finished})
        for mode_id, saved in self.saves.items():
            yield Writes(saves={mode_id: saved})
        if self.settings:
            yield Writes(settings=list(self.settings))
        for mode_id, saved in self.last.items():
            yield Writes(last={mode_id: saved})

    def forget(self, done: Writes) -> None:
        """Drop what ``done`` wrote, unless it was queued again since."""
        for game_id, finished in done.finished.items():
            if self.finished.get(game_id) is finished:
                del self.finished[game_id]
        for mode_id, saved in done.saves.items():
            if mode_id in self.saves and self.saves[mode_id] is saved:
                del self.saves[mode_id]
        if done.settings and self.settings == done.settings:
            self.settings = []
        for mode_id, saved in done.last.items():
            if mode_id in self.last and self.last[mode_id] is saved:
                del self.last[mode_id]


def with_checkpoint(saved: SavedGame | None, waiting: SavedGame | None) -> SavedGame | None:
    """``saved``, keeping the checkpoint of the same game's save it replaces unwritten."""
    if (
        saved is None
        or saved.checkpoint is not None
        or waiting is None
        or waiting.checkpoint is None
        or waiting.game_id != saved.game_id
    ):
        return saved
    return replace(saved, checkpoint=waiting.checkpoint)
