"""Records and statistics of a mode, computed from its history of finished games.

Only counted games count: a game from a starting position, the Sample or the
solver is kept in the history but never changes a record. Everything here is a
pure function of the games (and, for streaks, of today's date).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from twofold.core._presentation import BUILTIN_STATISTICS, Statistic
from twofold.core.rows import FinishedGame

#: a statistic's value: a whole number, or a float for an average
Value = int | float


@dataclass(frozen=True)
class Records:
    mode_id: str
    played: int = 0
    best: int = 0
    average: float = 0.0
    largest: int = 0
    #: seconds, over every counted game
    play_time: float = 0.0
    #: every tile value reached in a counted game, smallest first
    tiles: tuple[int, ...] = ()
    #: days in a row with a finished daily game, up to today or yesterday (daily modes)
    current_streak: int = 0
    longest_streak: int = 0
    #: the mode's own statistics (``Mode.statistics``), by ``Statistic.field``
    values: Mapping[str, Value] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data: the fixed fields, then the mode's own (a clashing name loses)."""
        data = asdict(self)
        values = data.pop("values")
        data["tiles"] = list(self.tiles)
        data.update((name, value) for name, value in values.items() if name not in data)
        return data


def settle(statistic: Statistic, raw: Value | None) -> Value:
    """An aggregate as records keep it: a float for an average, else a whole number; 0 if none."""
    if statistic.aggregate == "average":
        return float(raw or 0.0)
    return int(raw or 0)


def empty_values(statistics: Sequence[Statistic]) -> dict[str, Value]:
    """The values of a mode with no counted games."""
    return {s.field: settle(s, None) for s in statistics}


def game_value(game: FinishedGame, key: str) -> int | None:
    """What ``game`` has for a statistic's key, or None (a damaged row, an older plugin)."""
    if key in BUILTIN_STATISTICS:
        return int(getattr(game, key))
    value = game.stats.get(key)
    if isinstance(value, int | float) and math.isfinite(value):
        return int(value)
    return None


def aggregate(statistic: Statistic, values: Sequence[int]) -> Value:
    """``values`` (counted games in the order played, games without one left out) combined."""
    if not values:
        return settle(statistic, None)
    combine = {
        "best": max,
        "total": sum,
        "average": lambda vs: sum(vs) / len(vs),
        "latest": lambda vs: vs[-1],
        "reached": lambda vs: sum(1 for v in vs if v >= statistic.threshold),
    }[statistic.aggregate]
    return settle(statistic, combine(values))


def streaks(days: Iterable[date], today: date) -> tuple[int, int]:
    """``(current, longest)`` runs of consecutive days.

    The current streak still stands when today's game is not played yet: it counts
    back from today if today is in ``days``, else from yesterday. Days after
    ``today`` (a clock set back) are ignored.
    """
    played = {d for d in days if d <= today}
    if not played:
        return 0, 0
    longest = 0
    for day in played:
        if day - timedelta(days=1) in played:
            continue  # not the first day of its run
        length = 1
        while day + timedelta(days=length) in played:
            length += 1
        longest = max(longest, length)
    current = 0
    cursor = today if today in played else today - timedelta(days=1)
    while cursor in played:
        current += 1
        cursor -= timedelta(days=1)
    return current, longest


def _day(text: str | None) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def assemble(
    mode_id: str,
    *,
    played: int,
    best: int,
    score_total: int,
    largest: int,
    play_time: float,
    tiles: Iterable[int],
    days: Iterable[str | None],
    today: date,
    values: Mapping[str, Value],
) -> Records:
    """Records from totals over the counted games (the store sums them in SQL)."""
    if played <= 0:
        return Records(mode_id, values=dict(values))
    strip = {t for t in tiles if t > 0}
    if largest > 0:
        strip.add(largest)
    current, longest = streaks((d for d in map(_day, days) if d is not None), today)
    return Records(
        mode_id=mode_id,
        played=played,
        best=best,
        average=_average(score_total, played),
        largest=largest,
        play_time=play_time,
        tiles=tuple(sorted(strip)),
        current_streak=current,
        longest_streak=longest,
        values=dict(values),
    )


def _average(total: int, played: int) -> float:
    """The average score: a float while that is exact, past 2**53 a whole number (rounded)."""
    if abs(total) <= 2**53:
        return total / played
    return (2 * total + played) // (2 * played)  # type: ignore[return-value]


def with_live(
    records: Records,
    live: FinishedGame,
    statistics: Sequence[Statistic] = (),
    *,
    recorded: bool = False,
) -> Records:
    """``records`` with the game in progress added, without counting it as played.

    Best figures and the tile strip take the live game in; totals (play time and the
    mode's ``total`` statistics) add it only when it is not ``recorded`` already as a
    finished game (a game brought back by Last game), so nothing is counted twice.
    Averages, ``reached`` counts and streaks are about played games and stay as they are.
    """
    if not live.counted or live.mode_id != records.mode_id:
        return records
    values = dict(records.values)
    for statistic in statistics:
        value = game_value(live, statistic.key)
        if value is None:
            continue
        if statistic.aggregate == "best":
            values[statistic.field] = max(int(values.get(statistic.field, 0)), value)
        elif statistic.aggregate == "total" and not recorded:
            values[statistic.field] = int(values.get(statistic.field, 0)) + value
    strip = set(records.tiles) | {t for t in live.tiles if t > 0}
    if live.largest > 0:
        strip.add(live.largest)
    return replace(
        records,
        best=max(records.best, live.score),
        largest=max(records.largest, live.largest),
        play_time=records.play_time + (0.0 if recorded else max(0.0, live.elapsed)),
        tiles=tuple(sorted(strip)),
        values=values,
    )


def compute(
    mode_id: str,
    games: Iterable[FinishedGame],
    today: date,
    statistics: Sequence[Statistic] = (),
) -> Records:
    """The records of ``mode_id`` from its finished games (uncounted ones are skipped).

    ``statistics`` are the mode's own (``Mode.statistics``); games count in the order
    they finished, so ``latest`` is the last one that has the value.
    """
    counted = sorted(
        (g for g in games if g.counted and g.mode_id == mode_id), key=lambda g: g.finished_at
    )
    values: dict[str, Value] = {}
    for statistic in statistics:
        found = [game_value(g, statistic.key) for g in counted]
        values[statistic.field] = aggregate(statistic, [v for v in found if v is not None])
    return assemble(
        mode_id,
        played=len(counted),
        best=max((g.score for g in counted), default=0),
        score_total=sum(g.score for g in counted),
        largest=max((g.largest for g in counted), default=0),
        play_time=sum(max(0.0, g.elapsed) for g in counted),
        tiles=(t for g in counted for t in g.tiles),
        days=(g.day for g in counted),
        today=today,
        values=values,
    )
