"""Core's promises: live records, the Sample never counts, Blitz on the clock, Daily."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from tests.core.toy import TALLY, TIMED
from twofold.core._capabilities import Sample
from twofold.core._presentation import Statistic
from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code
from twofold.core.rows import FinishedGame
from twofold.core.session import Session
from twofold.core.store import SqliteStore, open_store

CODE = code_from_text("promises")
SAMPLE_CODE = code_from_text("the-sample")
ADDS = (Statistic("adds", "Adds", "total"), Statistic("adds", "Most adds", "best", name="most"))
LIVE = Mode(id="tally", title="Tally", rules=TALLY.rules, statistics=ADDS)
SAMPLED = Mode(
    id="tally", title="Tally", rules=TALLY.rules, sample=lambda: Sample(SAMPLE_CODE, ("add",))
)
DAILY = Mode(id="tally-daily", title="Daily tally", rules=TALLY.rules, daily=True)
TODAY = date(2026, 11, 30)


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def finish(session: Session) -> None:
    while not session.game.over:
        session.act("add")


# -- 1. records include the game in progress ---------------------------------------------------


def test_records_include_the_game_in_progress_and_count_it_once(store: SqliteStore) -> None:
    session = Session(LIVE, store)
    session.new_game(CODE)
    session.act("add")
    session.act("add")
    live = store.records("tally", LIVE.statistics)
    assert live.played == 0  # not played until it ends
    assert live.best == session.game.state.score > 0
    assert live.largest == session.game.state.value
    assert session.game.state.value in live.tiles
    assert live.values == {"adds": 2, "most": 2}
    assert store.modes_with_history() == ["tally"]
    finish(session)
    done = store.records("tally", LIVE.statistics)
    moves = session.game.state.moves
    assert done.played == 1
    assert done.values == {"adds": moves, "most": moves}  # the save and the row: counted once
    session.new_game()
    session.act("add")
    both = store.records("tally", LIVE.statistics)
    assert both.played == 1 and both.values["adds"] == moves + 1


def test_a_game_brought_back_is_not_counted_twice(store: SqliteStore) -> None:
    session = Session(LIVE, store)
    session.act("add")
    session.new_game()  # the first game is finished (recorded) and replaced
    session.last_game()  # ... and brought back: its save and its row are one game
    assert store.records("tally", LIVE.statistics).values["adds"] == 1


def test_an_uncounted_game_in_progress_stays_out(store: SqliteStore) -> None:
    session = Session(LIVE, store)
    session.new_game(position={"board": [[5]]})
    session.act("add")
    assert store.records("tally", LIVE.statistics).best == 0
    assert store.modes_with_history() == []


# -- 2. the Sample's code never counts ---------------------------------------------------------


def test_a_game_on_the_samples_code_never_counts(store: SqliteStore) -> None:
    session = Session(SAMPLED, store)
    session.new_game(SAMPLE_CODE)  # --code with the Sample's code
    assert session.game.flags.uncounted
    finish(session)
    session.restart()  # Restart on it
    assert session.game.flags.uncounted
    finish(session)
    assert store.records("tally").played == 0
    assert store.records("tally").best == 0
    session.new_game(CODE)
    assert not session.game.flags.uncounted


# -- 3. a timed game ends on the clock ---------------------------------------------------------


def test_a_timed_game_is_recorded_once_when_its_clock_runs_out(store: SqliteStore) -> None:
    now = [0.0]
    session = Session(TIMED, store, clock=lambda: now[0])
    session.game.resume()
    session.act("add")
    now[0] = 12.0  # two seconds past the limit before anyone looks
    assert session.check_time() is not None
    assert session.check_time() is None  # once
    [row] = store.finished_games("tally-timed")
    assert row.elapsed == pytest.approx(TIMED.time_limit)
    assert store.records("tally-timed").play_time == pytest.approx(10.0)


# -- 5. Daily: the first game counts, later tries are practice -------------------------------


def test_a_second_daily_try_is_practice(store: SqliteStore) -> None:
    session = Session(DAILY, store, today=lambda: TODAY)
    assert session.game.code == daily_code("tally-daily", TODAY)
    session.act("add")
    session.new_game()  # today's board again
    assert session.game.flags.practice and session.game.flags.uncounted
    finish(session)
    session.restart()
    assert session.game.flags.practice
    again = Session(DAILY, store, today=lambda: TODAY)  # still practice after a restart of the app
    assert again.game.flags.practice
    records = store.records("tally-daily", today=TODAY)
    assert records.played == 1  # the abandoned first try, once


def test_a_day_joins_the_streak_only_when_its_daily_game_is_over(store: SqliteStore) -> None:
    session = Session(DAILY, store, today=lambda: TODAY)
    session.act("add")
    session.new_game()  # abandoned: played, but the day is not done
    assert store.records("tally-daily", today=TODAY).current_streak == 0
    finish(session)  # practice finishing does not make the day either
    assert store.records("tally-daily", today=TODAY).current_streak == 0
    fresh = Session(DAILY, store, today=lambda: date(2026, 12, 1))
    finish(fresh)
    assert store.records("tally-daily", today=date(2026, 12, 1)).current_streak == 1


def test_yesterdays_unfinished_daily_is_recorded_not_lost(store: SqliteStore) -> None:
    Session(DAILY, store, today=lambda: TODAY).act("add")
    Session(DAILY, store, today=lambda: date(2026, 12, 1))
    assert store.records("tally-daily", today=date(2026, 12, 1)).played == 1


def test_yesterdays_unfinished_daily_reaches_the_finished_hook(store: SqliteStore) -> None:
    # the hook (a plugin's twofold_game_finished) hears of it as of any finished game
    Session(DAILY, store, today=lambda: TODAY).act("add")
    told: list[FinishedGame] = []
    Session(DAILY, store, today=lambda: date(2026, 12, 1), on_finished=told.append)
    assert [(f.code, f.moves) for f in told] == [(daily_code("tally-daily", TODAY), 1)]


def test_the_2048_samples_code_never_counts_restarted_or_typed(store: SqliteStore) -> None:
    from twofold.core.plugins import registry

    modes = registry().modes
    assert "2048" in modes, f"the 2048 variant is not registered: {sorted(modes)}"
    classic = modes["2048"]
    assert classic.sample is not None
    sample = classic.sample()
    assert sample is not None
    session = Session(classic, store)
    session.new_game(sample.code)  # twofold play 2048 --code <the Sample's code>
    assert session.game.flags.uncounted
    session.act(sample.actions[0])
    session.restart()
    assert session.game.flags.uncounted
    session.act(sample.actions[0])
    session.new_game()
    assert store.records("2048").played == 0 and store.records("2048").best == 0
