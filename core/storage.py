"""The Store: everything a session and the front ends use of a store, and one in memory.

:class:`Store` is the whole interface (``twofold.core.store.SqliteStore`` is the real
one, on SQLite). Nothing probes a store for optional parts: a store that cannot do
something (hold a seat, keep a write) still answers, and says so in its fields.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import date
from typing import Protocol

from twofold.core._presentation import Statistic
from twofold.core.daily import utc_today
from twofold.core.records import Records, compute, with_live
from twofold.core.rows import OVER, FinishedGame, SavedGame
from twofold.core.settings import Settings


class Store(Protocol):
    """Where sessions keep saves, finished games and settings, and records are read."""

    #: one line for the player about the store (how it opened, rows that did not read), or None
    notice: str | None
    #: why nothing of this run is kept (it plays in memory), for every reply; or None
    unsaved: str | None
    #: why the last write failed (it is retried with the next), or None once one works
    write_problem: str | None
    #: a few words on the last failed write, for a last message at exit
    write_reason: str

    @property
    def seat_refused(self) -> Collection[str]:
        """Modes whose save slot another open window holds (their saves are not written)."""
        ...

    @property
    def pending(self) -> int:
        """How many writes wait for a write that works."""
        ...

    def take_notice(self) -> str | None:
        """The notice, cleared (so it is shown once)."""
        ...

    def claim_seat(self, mode_id: str) -> bool:
        """Take a mode's seat; False if another open window holds it."""
        ...

    def release_seat(self, mode_id: str) -> None: ...

    def load_save(self, mode_id: str) -> SavedGame | None:
        """The saved game of a mode; raise ValueError if the stored save is unreadable."""
        ...

    def write_save(self, saved: SavedGame) -> None:
        """Keep a save; one with no ``checkpoint`` keeps the one its game already has."""
        ...

    def clear_save(self, mode_id: str) -> None: ...

    def load_last(self, mode_id: str) -> SavedGame | None:
        """The mode's game one step back (Last game); raise ValueError if it is unreadable."""
        ...

    def write_last(self, mode_id: str, saved: SavedGame | None) -> None:
        """Keep the mode's game one step back (None: there is none), beside its save."""
        ...

    def set_aside(self, mode_id: str) -> None:
        """Move a save that cannot be read or replayed out of its slot, kept untouched."""
        ...

    def waiting_games(self, mode_id: str) -> list[SavedGame]:
        """Games played in a second window while another held the mode, kept for it."""
        ...

    def has_save(self, mode_id: str) -> bool: ...

    def game_waits(self, mode_id: str) -> bool:
        """Whether the mode's save holds a game still to play, not one that is over."""
        ...

    def record_finished(self, finished: FinishedGame) -> None:
        """Add the game to the history, replacing an earlier row with the same game_id."""
        ...

    def finished_games(self, mode_id: str, *, counted_only: bool = False) -> list[FinishedGame]: ...

    def live_game(self, mode_id: str) -> FinishedGame | None:
        """The counted game in progress of a mode, or None."""
        ...

    def records(
        self,
        mode_id: str,
        statistics: Sequence[Statistic] = (),
        *,
        today: date | None = None,
        live: bool = True,
    ) -> Records:
        """The records of a mode; ``live=False`` leaves the game in progress out."""
        ...

    def recent_scores(self, mode_id: str, limit: int = 30) -> list[int]: ...

    def modes_with_history(self) -> list[str]: ...

    def load_settings(self) -> Settings: ...

    def save_settings(self, settings: Settings) -> None: ...

    def close(self) -> None:
        """Keep what is pending, give seats back; the store is not used after."""
        ...


class MemoryStore:
    """A store in plain Python objects, for this run only (plugin tests, examples).

    Its records are :func:`twofold.core.records.compute`, the arithmetic the SQLite
    store does in SQL (a test keeps the two in agreement). It never fails a write and
    has one seat per mode, always free.
    """

    def __init__(self) -> None:
        self.saves: dict[str, SavedGame] = {}
        #: each mode's game one step back (Last game)
        self.last: dict[str, SavedGame] = {}
        #: saves set aside (they could not be replayed), oldest first
        self.aside: list[SavedGame] = []
        self.finished: list[FinishedGame] = []
        self.settings = Settings()
        self.notice: str | None = None
        self.unsaved: str | None = None
        self.write_problem: str | None = None
        self.write_reason = ""
        self.seat_refused: frozenset[str] = frozenset()
        self.pending = 0
        self.today = utc_today

    def take_notice(self) -> str | None:
        notice, self.notice = self.notice, None
        return notice

    def claim_seat(self, mode_id: str) -> bool:
        return True

    def release_seat(self, mode_id: str) -> None:
        return None

    def load_save(self, mode_id: str) -> SavedGame | None:
        return self.saves.get(mode_id)

    def write_save(self, saved: SavedGame) -> None:
        old = self.saves.get(saved.mode_id)
        if saved.checkpoint is None and old is not None and old.game_id == saved.game_id:
            saved = replace(saved, checkpoint=old.checkpoint)  # a game keeps its checkpoint
        self.saves[saved.mode_id] = saved

    def clear_save(self, mode_id: str) -> None:
        self.saves.pop(mode_id, None)

    def load_last(self, mode_id: str) -> SavedGame | None:
        return self.last.get(mode_id)

    def write_last(self, mode_id: str, saved: SavedGame | None) -> None:
        if saved is None:
            self.last.pop(mode_id, None)
        else:
            self.last[mode_id] = saved

    def set_aside(self, mode_id: str) -> None:
        if mode_id in self.saves:
            self.aside.append(self.saves.pop(mode_id))

    def waiting_games(self, mode_id: str) -> list[SavedGame]:
        return []  # its one seat per mode is always free: no second window's game to keep

    def has_save(self, mode_id: str) -> bool:
        return mode_id in self.saves

    def game_waits(self, mode_id: str) -> bool:
        saved = self.saves.get(mode_id)
        return saved is not None and not (saved.flags or {}).get(OVER, False)

    def record_finished(self, finished: FinishedGame) -> None:
        self.finished = [f for f in self.finished if f.game_id != finished.game_id]
        self.finished.append(finished)

    def finished_games(self, mode_id: str, *, counted_only: bool = False) -> list[FinishedGame]:
        games = [
            g for g in self.finished if g.mode_id == mode_id and (g.counted or not counted_only)
        ]
        return sorted(games, key=lambda g: g.finished_at)

    def live_game(self, mode_id: str) -> FinishedGame | None:
        saved = self.saves.get(mode_id)
        live = saved.live if saved is not None and saved.actions else None
        return live if live is not None and live.counted else None

    def records(
        self,
        mode_id: str,
        statistics: Sequence[Statistic] = (),
        *,
        today: date | None = None,
        live: bool = True,
    ) -> Records:
        records = compute(mode_id, self.finished, today or self.today(), statistics)
        in_progress = self.live_game(mode_id) if live else None
        if in_progress is None:
            return records
        recorded = any(g.game_id == in_progress.game_id for g in self.finished)
        return with_live(records, in_progress, statistics, recorded=recorded)

    def recent_scores(self, mode_id: str, limit: int = 30) -> list[int]:
        scores = [g.score for g in self.finished_games(mode_id, counted_only=True)]
        return scores[-limit:] if limit > 0 else []

    def modes_with_history(self) -> list[str]:
        modes = {g.mode_id for g in self.finished if g.counted}
        modes |= {mode_id for mode_id in self.saves if self.live_game(mode_id) is not None}
        return sorted(modes)

    def load_settings(self) -> Settings:
        return self.settings

    def save_settings(self, settings: Settings) -> None:
        self.settings = settings

    def close(self) -> None:
        return None
