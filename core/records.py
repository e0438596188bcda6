"""Records and statistics of a mode, computed from its history of finished games.

Only counted games count: a game from a starting position, the Sample or the
solver is kept in the history but never changes a record. Everything here is a
pure function of the games (and, for streaks, of today's date).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any

from twofold.core.session import FinishedGame

#: the tile whose reaching is counted per mode
GOAL_TILE = 2048
#: keys of ``FinishedGame.stats`` (``Rules.stats``) that records read; 2248 reports them
LONGEST_CHAIN = "longest_chain"
MERGES = "merges"


@dataclass(frozen=True)
class Records:
    mode_id: str
    played: int = 0
    best: int = 0
    average: float = 0.0
    largest: int = 0
    #: how many games reached the 2048 tile
    reached_2048: int = 0
    #: seconds, over every counted game
    play_time: float = 0.0
    #: every tile value reached in a counted game, smallest first
    tiles: tuple[int, ...] = ()
    #: the longest chain of any game (2248)
    longest_chain: int = 0
    #: merges over every game (2248)
    merges: int = 0
    #: days in a row with a finished daily game, up to today or yesterday (daily modes)
    current_streak: int = 0
    longest_streak: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data."""
        data = asdict(self)
        data["tiles"] = list(self.tiles)
        return data


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
    reached_2048: int,
    play_time: float,
    tiles: Iterable[int],
    longest_chain: int,
    merges: int,
    days: Iterable[str | None],
    today: date,
) -> Records:
    """Records from totals over the counted games (the store sums them in SQL)."""
    if played <= 0:
        return Records(mode_id)
    strip = {t for t in tiles if t > 0}
    if largest > 0:
        strip.add(largest)
    current, longest = streaks((d for d in map(_day, days) if d is not None), today)
    return Records(
        mode_id=mode_id,
        played=played,
        best=best,
        average=score_total / played,
        largest=largest,
        reached_2048=reached_2048,
        play_time=play_time,
        tiles=tuple(sorted(strip)),
        longest_chain=longest_chain,
        merges=merges,
        current_streak=current,
        longest_streak=longest,
    )


def compute(mode_id: str, games: Iterable[FinishedGame], today: date) -> Records:
    """The records of ``mode_id`` from its finished games (uncounted ones are skipped)."""
    counted = [g for g in games if g.counted and g.mode_id == mode_id]
    return assemble(
        mode_id,
        played=len(counted),
        best=max((g.score for g in counted), default=0),
        score_total=sum(g.score for g in counted),
        largest=max((g.largest for g in counted), default=0),
        reached_2048=sum(1 for g in counted if g.largest >= GOAL_TILE),
        play_time=sum(max(0.0, g.elapsed) for g in counted),
        tiles=(t for g in counted for t in g.tiles),
        longest_chain=max((int(g.stats.get(LONGEST_CHAIN, 0)) for g in counted), default=0),
        merges=sum(int(g.stats.get(MERGES, 0)) for g in counted),
        days=(g.day for g in counted),
        today=today,
    )
