"""Finished games and the game in progress as rows, and the records summed up in SQL.

Every value read from the file is checked where it is read: a row whose numbers are
not numbers, or are out of any range a game reaches (an edited or damaged file), is
left out of the records, and the store says how many were (its usual notice).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import date
from typing import Any

from twofold.core._presentation import BUILTIN_STATISTICS, Statistic
from twofold.core.rows import FinishedGame
from twofold.core.store.schema import FINISHED, LIVE

#: the largest whole number a count or a stats value may have (sums of it stay exact)
WHOLE_MAX = 2**53
#: the largest integer SQLite stores as one; a larger score or tile (2248 has no ceiling)
#: is stored as the BLOB of its decimal digits, which no affinity turns into a float
INTEGER_MAX = 2**63 - 1
#: the most digits a stored figure may have (Python's own limit on reading one)
DIGITS_MOST = 4300
#: the most seconds a play time or a time stamp may say (about 31,000 years)
SECONDS_MAX = 1e12
#: the days a daily game may belong to (date arithmetic fails at date.min and date.max)
FIRST_DAY, LAST_DAY = "1970-01-01", "9998-12-31"

#: a JSON value that :func:`whole_numbers` keeps, as SQL over ``json_each``
WHOLE = (
    "(type = 'integer' OR (type = 'real' AND value = CAST(value AS INTEGER)))"
    f" AND abs(value) <= {WHOLE_MAX}"
)
FINISHED_COLUMNS = FINISHED.column_list
FINISHED_UPSERT = FINISHED.upsert()
LIVE_UPSERT = LIVE.insert(replace=True)


def whole_numbers(stats: Any) -> dict[str, int]:
    """A game's ``stats`` as kept and as read: whole numbers by name; any other value dropped.

    The one rule for stats, in Python as in the records' SQL (:data:`WHOLE`): a
    plugin's odd stats value is dropped rather than losing the player's finished game.
    """
    if not isinstance(stats, Mapping):
        return {}
    return {
        str(k): int(v)
        for k, v in stats.items()
        if (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
        if abs(v) <= WHOLE_MAX
    }


def json_or(text: Any, default: Any, kind: type) -> Any:
    """The JSON value of ``text`` if it is a ``kind``, else ``default``."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return default
    return value if isinstance(value, kind) else default


def stored_figure(value: int) -> int | bytes:
    """A score or a tile as its column keeps it: an integer, or past 2**63 its digits."""
    return value if -INTEGER_MAX <= value <= INTEGER_MAX else str(value).encode("ascii")


def _figure(value: Any) -> int:
    """A score or a tile read back, at any size (see :func:`stored_figure`)."""
    if isinstance(value, bytes) and 0 < len(value) <= DIGITS_MOST and value.isdigit():
        return int(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < -WHOLE_MAX:
        raise ValueError(value)
    return value


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > WHOLE_MAX:
        raise ValueError(value)
    return value


def _seconds(value: Any) -> float:
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or abs(value) > SECONDS_MAX
    ):
        raise ValueError(value)
    return float(value)


def _tiles(values: Any) -> tuple[int, ...]:
    items = values if isinstance(values, list) else []
    return tuple(t for t in items if isinstance(t, int) and not isinstance(t, bool) and t > 0)


def _day(text: Any) -> str | None:
    if text is None:
        return None
    if not isinstance(text, str) or not FIRST_DAY <= text <= LAST_DAY:
        raise ValueError(text)
    date.fromisoformat(text)
    return text


def finished_row(finished: FinishedGame) -> tuple[Any, ...]:
    """A finished game as its row in ``finished``, in :data:`FINISHED`'s column order."""
    return (
        finished.game_id,
        finished.mode_id,
        finished.code,
        stored_figure(int(finished.score)),
        stored_figure(int(finished.largest)),
        int(finished.moves),
        float(finished.elapsed),
        int(bool(finished.counted)),
        int(bool(finished.won)),
        json.dumps([int(t) for t in finished.tiles]),
        json.dumps(whole_numbers(finished.stats), sort_keys=True),
        finished.day,
        float(finished.finished_at),
    )


def finished_from_row(row: tuple[Any, ...]) -> FinishedGame:
    """The finished game of a row; raise ValueError if any value does not read."""
    game_id, mode_id, code, score, largest, moves, elapsed, counted, won, tiles, stats, day, at = (
        row
    )
    if not (isinstance(game_id, str) and isinstance(mode_id, str) and isinstance(code, str)):
        raise ValueError(row[:3])
    return FinishedGame(
        game_id=game_id,
        mode_id=mode_id,
        code=code,
        score=_figure(score),
        largest=_figure(largest),
        moves=_whole(moves),
        elapsed=_seconds(elapsed),
        counted=bool(_whole(counted)),
        won=bool(_whole(won)),
        tiles=_tiles(json_or(tiles, [], list)),
        stats=whole_numbers(json_or(stats, {}, dict)),
        day=_day(day),
        finished_at=_seconds(at),
    )


def live_data(live: FinishedGame) -> str:
    """The summary of a game in progress as the JSON of its ``live`` row."""
    return json.dumps(
        {
            "code": live.code,
            "score": int(live.score),
            "largest": int(live.largest),
            "moves": int(live.moves),
            "elapsed": float(live.elapsed),
            "counted": bool(live.counted),
            "won": bool(live.won),
            "tiles": [int(t) for t in live.tiles],
            "stats": whole_numbers(live.stats),
        }
    )


def live_from_row(mode_id: str, game_id: Any, text: Any, saved_at: Any) -> FinishedGame | None:
    """The game in progress as records read it (a ``live`` row); None if it does not read."""
    live = json_or(text, None, dict)
    if not live or not isinstance(game_id, str):
        return None
    try:
        code = live.get("code", "")
        if not isinstance(code, str):
            raise ValueError(code)
        return FinishedGame(
            game_id=game_id,
            mode_id=mode_id,
            code=code,
            score=_figure(live["score"]),
            largest=_figure(live["largest"]),
            moves=_whole(live.get("moves", 0)),
            elapsed=max(0.0, _seconds(live.get("elapsed", 0.0))),
            counted=live.get("counted") is True,
            won=live.get("won") is True,
            tiles=_tiles(live.get("tiles")),
            stats=whole_numbers(live.get("stats")),
            day=None,
            finished_at=_seconds(saved_at),
        )
    except (KeyError, ValueError):
        return None  # a summary the records cannot use leaves them as they were


# -- records in SQL -------------------------------------------------------------------------

#: a finished row whose values read (one edited by hand or damaged is left out)
READABLE = (
    "typeof(game_id) = 'text' AND typeof(mode_id) = 'text' AND typeof(code) = 'text'"
    + "".join(
        f" AND ((typeof({name}) = 'integer' AND {name} >= -{WHOLE_MAX}) OR (typeof({name}) ="
        f" 'blob' AND length({name}) BETWEEN 1 AND {DIGITS_MOST}"
        f" AND CAST({name} AS TEXT) NOT GLOB '*[^0-9]*'))"
        for name in ("score", "largest")
    )
    + "".join(
        f" AND typeof({name}) = 'integer' AND abs({name}) <= {WHOLE_MAX}"
        for name in ("moves", "counted", "won")
    )
    + "".join(
        f" AND typeof({name}) IN ('integer', 'real') AND abs({name}) <= {SECONDS_MAX:.0f}"
        for name in ("elapsed", "finished_at")
    )
    + f" AND (day IS NULL OR (typeof(day) = 'text' AND day BETWEEN '{FIRST_DAY}' AND '{LAST_DAY}'"
    " AND date(day) = day))"
)
COUNTED = f"FROM finished WHERE mode_id = ? AND counted = 1 AND {READABLE}"
#: whether a mode's records need sums past SQLite's integers: a figure stored as digits, or
#: past 2**53, tiles of 16 digits or more, or totals near 2**63 (then Python sums them)
BIG = (
    "SELECT EXISTS (SELECT 1 " + COUNTED + " AND (typeof(score) = 'blob' OR"
    f" typeof(largest) = 'blob' OR score > {WHOLE_MAX} OR largest > {WHOLE_MAX}"
    " OR tiles GLOB '*" + "[0-9]" * 16 + "*'))"
    f" OR (SELECT TOTAL(abs(score)) {COUNTED}) > {2**62}"
)
_LATEST = "ORDER BY finished_at DESC, rowid DESC LIMIT 1"
TOTALS = (
    "SELECT COUNT(*), MAX(score), SUM(score), MAX(largest), TOTAL(MAX(elapsed, 0)){columns}"
    f" {COUNTED}"
)
TILES = (
    "SELECT DISTINCT tile.value FROM finished,"
    " json_each(CASE WHEN json_valid(finished.tiles) THEN finished.tiles ELSE '[]' END) AS tile"
    f" WHERE finished.mode_id = ? AND finished.counted = 1 AND {READABLE}"
    f" AND tile.type = 'integer' AND tile.value BETWEEN 1 AND {WHOLE_MAX}"
)
DAYS = f"SELECT DISTINCT day {COUNTED} AND day IS NOT NULL"
UNREADABLE = f"SELECT COUNT(*) FROM finished WHERE mode_id = ? AND NOT ({READABLE})"
UNREADABLE_ANY = f"SELECT COUNT(*) FROM finished WHERE NOT ({READABLE})"
RECENT = f"SELECT score {COUNTED} ORDER BY finished_at DESC, rowid DESC LIMIT ?"
MODES = f"SELECT DISTINCT mode_id FROM finished WHERE counted = 1 AND {READABLE}"


def _value(key: str) -> tuple[str, tuple[Any, ...]]:
    """A game's value of a statistic's key as SQL, with its parameters (NULL when it has none)."""
    if key in BUILTIN_STATISTICS:
        return key, ()
    # A damaged stats text, or a value that is not a whole number, counts as none.
    return (
        "(SELECT value FROM json_each(CASE WHEN json_valid(stats) THEN stats ELSE '{}' END)"
        f" WHERE key = ? AND {WHOLE})",
        (key,),
    )


def aggregate(statistic: Statistic, mode_id: str) -> tuple[str, tuple[Any, ...]]:
    """A statistic aggregated over a mode's counted games, as one column of :data:`TOTALS`."""
    value, parameters = _value(statistic.key)
    if statistic.aggregate == "latest":
        sql = f"(SELECT {value} {COUNTED} AND {value} IS NOT NULL {_LATEST})"
        return sql, (*parameters, mode_id, *parameters)
    if statistic.aggregate == "reached":
        return f"SUM({value} >= ?)", (*parameters, statistic.threshold)
    function = {"best": "MAX", "total": "SUM", "average": "AVG"}[statistic.aggregate]
    return f"{function}({value})", parameters
