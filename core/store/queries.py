"""Records and the history read from the database (the store's reading half).

Rows whose values do not read are left out, and ``notice`` says how many.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from twofold.core._i18n import _
from twofold.core._presentation import Statistic
from twofold.core.records import Records, assemble, compute, empty_values, settle, with_live
from twofold.core.rows import FinishedGame
from twofold.core.store import history
from twofold.core.store.schema import LIVE


class HistoryReading:
    """Finished games, the game in progress and records, for :class:`SqliteStore`."""

    notice: str | None
    today: Callable[[], date]
    #: the store's read, which tells a failed read in ``notice`` and gives no rows
    _read_or_empty: Callable[..., list[tuple[Any, ...]]]

    def live_game(self, mode_id: str) -> FinishedGame | None:
        """The counted game in progress of a mode (records include it), or None."""
        rows = self._read_or_empty(
            f"SELECT game_id, data, saved_at FROM {LIVE.name} WHERE mode_id = ?", (mode_id,)
        )
        if not rows:
            return None
        live = history.live_from_row(mode_id, *rows[0])
        return live if live is not None and live.counted else None

    def finished_games(self, mode_id: str, *, counted_only: bool = False) -> list[FinishedGame]:
        """The history of a mode, oldest first (rows that do not read are left out)."""
        condition = " AND counted = 1" if counted_only else ""
        rows = self._read_or_empty(
            f"SELECT {history.FINISHED_COLUMNS} FROM finished WHERE mode_id = ?{condition}"
            f" AND {history.READABLE} ORDER BY finished_at, rowid",
            (mode_id,),
        )
        games = []
        for row in rows:
            try:
                games.append(history.finished_from_row(row))
            except (TypeError, ValueError, OverflowError):
                continue
        self._tell_unreadable(mode_id)
        return games

    def _tell_unreadable(self, mode_id: str | None = None) -> None:
        if mode_id is None:
            rows = self._read_or_empty(history.UNREADABLE_ANY)
        else:
            rows = self._read_or_empty(history.UNREADABLE, (mode_id,))
        if rows and rows[0][0]:
            self.notice = _(
                "Finished games left out of the records because they could not be read: {count}."
            ).format(count=rows[0][0])

    def records(
        self,
        mode_id: str,
        statistics: Sequence[Statistic] = (),
        *,
        today: date | None = None,
        live: bool = True,
    ) -> Records:
        """The records of a mode from its counted games (streaks up to ``today``, UTC).

        ``statistics`` are the mode's own (``Mode.statistics``), aggregated in the same
        query. Summed in SQL, so a long history stays fast; :func:`records.compute` is
        the same arithmetic over a list of games (the MemoryStore's), and a test keeps
        the two in agreement. Rows whose values do not read are left out, with a notice.
        ``live=False`` leaves the game in progress out: finished games only.
        """
        if self._read_or_empty(history.BIG, (mode_id, mode_id)) == [(1,)]:
            # figures past SQLite's integers: summed exactly, in Python, from the games
            games = self.finished_games(mode_id, counted_only=True)
            records = compute(mode_id, games, today or self.today(), statistics)
        else:
            columns = [history.aggregate(statistic, mode_id) for statistic in statistics]
            totals = self._read_or_empty(
                history.TOTALS.format(columns="".join(f", {sql}" for sql, _parameters in columns)),
                (*(p for _sql, parameters in columns for p in parameters), mode_id),
            )
            self._tell_unreadable(mode_id)
            records = self._finished_records(mode_id, statistics, totals, today)
        in_progress = self.live_game(mode_id) if live else None  # live=False: finished only
        if in_progress is None:
            return records
        # a game brought back by Last game has a finished row already: its totals are in
        recorded = bool(
            self._read_or_empty("SELECT 1 FROM finished WHERE game_id = ?", (in_progress.game_id,))
        )
        return with_live(records, in_progress, statistics, recorded=recorded)

    def _finished_records(
        self,
        mode_id: str,
        statistics: Sequence[Statistic],
        totals: Sequence[tuple[Any, ...]],
        today: date | None,
    ) -> Records:
        if not totals or not totals[0][0]:
            return Records(mode_id, values=empty_values(statistics))
        played, best, score_total, largest, play_time, *aggregates = totals[0]
        tiles = self._read_or_empty(history.TILES, (mode_id,))
        days = self._read_or_empty(history.DAYS, (mode_id,))
        return assemble(
            mode_id,
            played=int(played),
            best=int(best),
            score_total=int(score_total),
            largest=int(largest),
            play_time=float(play_time),
            tiles=(int(row[0]) for row in tiles),
            days=(row[0] for row in days),
            today=today or self.today(),
            values={s.field: settle(s, raw) for s, raw in zip(statistics, aggregates, strict=True)},
        )

    def recent_scores(self, mode_id: str, limit: int = 30) -> list[int]:
        """Scores of the last ``limit`` counted games, oldest first."""
        rows = self._read_or_empty(history.RECENT, (mode_id, max(0, limit)))
        return [int(row[0]) for row in reversed(rows)]

    def modes_with_history(self) -> list[str]:
        """Ids of the modes with a counted finished game or a counted game in progress, sorted."""
        rows = self._read_or_empty(history.MODES)
        self._tell_unreadable()
        modes = {row[0] for row in rows}
        for (mode_id,) in self._read_or_empty(f"SELECT mode_id FROM {LIVE.name}"):
            if isinstance(mode_id, str) and self.live_game(mode_id) is not None:
                modes.add(mode_id)
        return sorted(modes)
