"""Records from the history of finished games, and daily streaks across dates."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.core._presentation import Statistic
from twofold.core.records import Records, compute, streaks
from twofold.core.session import FinishedGame
from twofold.core.store import DB_NAME, memory_store, open_store

TODAY = date(2026, 11, 30)
#: what classic2048 and chain2248 declare (records know nothing of either game)
REACHED_2048 = Statistic("largest", "Games reaching 2048", "reached", "reached_2048", 2048)
CHAIN = (
    Statistic("longest_chain", "Longest chain", "best"),
    Statistic("merges", "Merges", "total"),
)
#: every aggregate over a plugin's own stat, and over figures every game has
EVERY_AGGREGATE = (
    Statistic("sum_chains", "Best chains", "best", name="best_chains"),
    Statistic("sum_chains", "Chains", "total"),
    Statistic("sum_chains", "Chains per game", "average", name="average_chains"),
    Statistic("sum_chains", "Chains last game", "latest", name="latest_chains"),
    Statistic("sum_chains", "Games with 5 chains", "reached", name="five_chains", threshold=5),
    Statistic("moves", "Moves", "total", name="all_moves"),
    Statistic("score", "Last score", "latest", name="last_score"),
    Statistic("largest", "Largest, on average", "average", name="average_largest"),
)


def game(game_id: str, **changes: object) -> FinishedGame:
    base = FinishedGame(
        game_id=game_id,
        mode_id="2248",
        code="AAAAAAAA",
        score=0,
        largest=2,
        moves=1,
        elapsed=0.0,
        counted=True,
        won=False,
        tiles=(),
        stats={},
        day=None,
        finished_at=0.0,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def days_ago(*numbers: int) -> list[date]:
    return [TODAY - timedelta(days=n) for n in numbers]


# -- streaks --------------------------------------------------------------------------------------


def test_no_days_no_streak() -> None:
    assert streaks([], TODAY) == (0, 0)


def test_today_alone_is_a_streak_of_one() -> None:
    assert streaks(days_ago(0), TODAY) == (1, 1)


def test_a_streak_up_to_yesterday_still_stands_before_todays_game() -> None:
    assert streaks(days_ago(1, 2, 3), TODAY) == (3, 3)


def test_a_missed_day_ends_the_current_streak_but_not_the_longest() -> None:
    assert streaks(days_ago(2, 3, 4, 5), TODAY) == (0, 4)
    assert streaks(days_ago(0, 1, 3, 4, 5, 6, 7), TODAY) == (2, 5)


def test_streaks_cross_months_and_years() -> None:
    run = [date(2026, 12, 30) + timedelta(days=n) for n in range(5)]  # Dec 30 .. Jan 3
    assert streaks(run, date(2027, 1, 3)) == (5, 5)
    leap = [date(2028, 2, 28), date(2028, 2, 29), date(2028, 3, 1)]
    assert streaks(leap, date(2028, 3, 1)) == (3, 3)


def test_repeated_days_count_once_and_future_days_are_ignored() -> None:
    days = [*days_ago(0, 0, 1, 1), TODAY + timedelta(days=1), TODAY + timedelta(days=2)]
    assert streaks(days, TODAY) == (2, 2)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(min_value=0, max_value=60)))
def test_streaks_agree_with_counting_day_by_day(offsets: set[int]) -> None:
    days = days_ago(*offsets)
    current, longest = streaks(days, TODAY)
    run = best = 0
    for n in range(60, -1, -1):
        run = run + 1 if n in offsets else 0
        best = max(best, run)
    assert longest == best
    start = 0 if 0 in offsets else 1
    expected = 0
    while start + expected in offsets:
        expected += 1
    assert current == expected
    assert current <= longest


# -- records --------------------------------------------------------------------------------------


def test_no_games_gives_empty_records() -> None:
    assert compute("2048", [], TODAY) == Records("2048")


def test_records_and_average() -> None:
    games = [
        game("a", score=100, largest=64, elapsed=30.0, tiles=(2, 4, 64)),
        game("b", score=300, largest=2048, elapsed=90.5, tiles=(2, 2048), won=True),
        game("c", score=200, largest=4096, elapsed=10.0, tiles=(8, 4096)),
    ]
    records = compute("2248", games, TODAY, (REACHED_2048,))
    assert records.played == 3
    assert records.best == 300
    assert records.average == pytest.approx(200.0)
    assert records.largest == 4096
    assert records.values == {"reached_2048": 2}
    assert records.play_time == pytest.approx(130.5)
    assert records.tiles == (2, 4, 8, 64, 2048, 4096)


def test_chain_numbers_come_from_the_modes_stats() -> None:
    games = [
        game("a", stats={"longest_chain": 5, "merges": 20}),
        game("b", stats={"longest_chain": 9, "merges": 7}),
        game("c", stats={}),
    ]
    records = compute("2248", games, TODAY, CHAIN)
    assert records.values == {"longest_chain": 9, "merges": 27}


def chain_games() -> list[FinishedGame]:
    # Listed out of order: "latest" follows finished_at, not the order given.
    return [
        game("a", stats={"sum_chains": 7}, moves=10, score=50, largest=8, finished_at=2.0),
        game("b", stats={"sum_chains": 2}, moves=4, score=20, largest=16, finished_at=1.0),
        game("c", stats={"other": 1}, moves=6, score=30, largest=64, finished_at=3.0),
        game("d", stats={"sum_chains": 5}, moves=1, score=90, largest=4, finished_at=2.5),
        game("e", stats={"sum_chains": 99}, counted=False, finished_at=9.0),
    ]


EVERY_AGGREGATE_VALUES = {
    "best_chains": 7,
    "sum_chains": 14,
    "average_chains": pytest.approx(14 / 3),  # over the games that report it
    "latest_chains": 5,  # game c, the last one, has no sum_chains
    "five_chains": 2,
    "all_moves": 21,
    "last_score": 30,
    "average_largest": pytest.approx(23.0),
}


def test_every_aggregate_of_a_modes_own_statistics() -> None:
    records = compute("2248", chain_games(), TODAY, EVERY_AGGREGATE)
    assert records.values == EVERY_AGGREGATE_VALUES
    assert isinstance(records.values["average_chains"], float)
    assert isinstance(records.values["sum_chains"], int)


def test_the_store_aggregates_every_statistic_in_sql() -> None:
    with memory_store(today=lambda: TODAY) as store:
        for finished in chain_games():
            store.record_finished(finished)
        assert store.records("2248", EVERY_AGGREGATE).values == EVERY_AGGREGATE_VALUES
        assert store.records("2248").values == {}


def test_without_games_every_statistic_is_zero() -> None:
    expected = {
        "best_chains": 0,
        "sum_chains": 0,
        "average_chains": 0.0,
        "latest_chains": 0,
        "five_chains": 0,
        "all_moves": 0,
        "last_score": 0,
        "average_largest": 0.0,
    }
    assert compute("toy", [], TODAY, EVERY_AGGREGATE).values == expected
    with memory_store(today=lambda: TODAY) as store:
        assert store.records("toy", EVERY_AGGREGATE).values == expected


def test_the_json_has_the_modes_own_fields_and_no_other_games() -> None:
    # One history read as three modes: the fields come from the statistics alone.
    games = [game("a", stats={"sum_chains": 3, "longest_chain": 4, "merges": 5})]
    own = (Statistic("sum_chains", "Chains", "total"),)
    data = compute("2248", games, TODAY, own).as_dict()
    assert data["sum_chains"] == 3
    assert not {"reached_2048", "longest_chain", "merges", "values"} & set(data)
    assert compute("2248", games, TODAY, (REACHED_2048,)).as_dict()["reached_2048"] == 0
    chain = compute("2248", games, TODAY, CHAIN).as_dict()
    assert (chain["longest_chain"], chain["merges"]) == (4, 5)


def test_a_statistic_named_like_a_fixed_field_does_not_replace_it() -> None:
    clash = (Statistic("sum_chains", "Chains", "total", name="best"),)
    data = compute("2248", [game("a", score=10, stats={"sum_chains": 3})], TODAY, clash).as_dict()
    assert data["best"] == 10


def test_damaged_stats_count_as_none(twofold_home: Path) -> None:
    damage = ["not json", "[1, 2]", '{"sum_chains": "many"}', '{"sum_chains": 2.5}', "7"]
    with open_store(today=lambda: TODAY) as store:
        store.record_finished(game("good", stats={"sum_chains": 4}, finished_at=0.0))
        for number in range(len(damage)):
            store.record_finished(game(f"bad{number}", finished_at=1.0 + number))
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        for number, text in enumerate(damage):
            connection.execute(
                "UPDATE finished SET stats = ? WHERE game_id = ?", (text, f"bad{number}")
            )
    with open_store(today=lambda: TODAY) as store:
        records = store.records("2248", EVERY_AGGREGATE)
        assert store.notice is None
        assert records.played == 1 + len(damage)
        assert records.values["sum_chains"] == 4
        assert records.values["latest_chains"] == 4
        assert records.values["average_chains"] == pytest.approx(4.0)
        assert records == compute("2248", store.finished_games("2248"), TODAY, EVERY_AGGREGATE)


def test_uncounted_games_and_other_modes_do_not_count() -> None:
    games = [
        game("a", score=100, largest=8, tiles=(8,)),
        game("solver", score=99999, largest=8192, counted=False, tiles=(8192,)),
        game("other", mode_id="2048", score=5000, largest=512),
    ]
    records = compute("2248", games, TODAY)
    assert (records.played, records.best, records.largest, records.tiles) == (1, 100, 8, (8,))


def test_daily_streaks_come_from_counted_games_days() -> None:
    games = [
        game("a", day="2026-11-29"),
        game("b", day="2026-11-28"),
        game("c", day="2026-11-30", counted=False),
        game("d", day="2026-11-25"),
        game("e", day="not a date"),
    ]
    records = compute("2248", games, TODAY)
    assert (records.current_streak, records.longest_streak) == (2, 2)


def test_the_store_computes_records_with_an_injected_today() -> None:
    with open_store(today=lambda: TODAY) as store:
        for number, day in enumerate(["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]):
            store.record_finished(game(f"g{number}", mode_id="2248-daily", day=day, score=number))
        records = store.records("2248-daily")
        assert (records.current_streak, records.longest_streak) == (4, 4)
        later = store.records("2248-daily", today=date(2026, 12, 5))
        assert (later.current_streak, later.longest_streak) == (0, 4)
        assert records.as_dict()["tiles"] == [2]


games_strategy = st.lists(
    st.builds(
        game,
        game_id=st.uuids().map(str),
        mode_id=st.sampled_from(["2248", "2048"]),
        score=st.integers(min_value=0, max_value=10**7),
        largest=st.sampled_from([0, 2, 4, 64, 1024, 2048, 4096, 2**20]),
        elapsed=st.floats(min_value=0, max_value=1e6, allow_nan=False),
        counted=st.booleans(),
        tiles=st.lists(st.sampled_from([2, 4, 8, 2048, 2**17]), max_size=5).map(tuple),
        stats=st.fixed_dictionaries(
            {},
            optional={
                "longest_chain": st.integers(min_value=0, max_value=30),
                "merges": st.integers(min_value=0, max_value=500),
                "sum_chains": st.integers(min_value=-5, max_value=10),
            },
        ),
        day=st.one_of(st.none(), st.dates(date(2026, 10, 1), date(2026, 12, 31)).map(str)),
        finished_at=st.sampled_from([0.0, 1.0, 2.0]),
    ),
    max_size=12,
    unique_by=lambda g: g.game_id,
)


@settings(max_examples=40, deadline=None)
@given(games=games_strategy)
def test_the_store_agrees_with_compute(games: list[FinishedGame]) -> None:
    with memory_store(today=lambda: TODAY) as store:
        for finished in games:
            store.record_finished(finished)
        statistics = (REACHED_2048, *CHAIN, *EVERY_AGGREGATE)
        for mode_id in ("2248", "2048"):
            stored = store.records(mode_id, statistics)
            expected = compute(mode_id, games, TODAY, statistics)
            same = {"average": stored.average, "play_time": stored.play_time, "values": {}}
            assert replace(stored, values={}) == replace(expected, **same)  # type: ignore[arg-type]
            assert stored.average == pytest.approx(expected.average)
            assert stored.play_time == pytest.approx(expected.play_time)
            assert stored.values == pytest.approx(expected.values)
