"""Core's promises: only the day's own board is its Daily; live records follow undo."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest

from tests.core.toy import TALLY
from twofold.core._rules import Mode
from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code
from twofold.core.session import Session
from twofold.core.store import SqliteStore, open_store

DAILY = Mode(id="tally-daily", title="Daily tally", rules=TALLY.rules, daily=True)
TODAY = date(2026, 11, 30)
#: a friend's link from another day, or ``--code``
OTHER = code_from_text("a friend's board")


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def finish(session: Session) -> None:
    while not session.game.over:
        session.act("add")


def daily(store: SqliteStore) -> Session:
    return Session(DAILY, store, today=lambda: TODAY)


# -- 3. only the day's own code is that day's Daily ---------------------------------------------


def test_a_daily_mode_on_another_code_is_practice_and_never_counts(store: SqliteStore) -> None:
    session = daily(store)
    session.new_game(OTHER)  # twofold play tally-daily --code OTHER
    assert session.game.flags.practice and session.game.flags.uncounted
    finish(session)
    records = store.records("tally-daily", today=TODAY)
    assert records.played == 0
    assert records.current_streak == 0 and records.longest_streak == 0
    assert records.best == 0


def test_the_daily_entry_opens_todays_board_not_a_practice_game(store: SqliteStore) -> None:
    session = daily(store)
    session.new_game(OTHER)
    finish(session)
    session.close()
    again = daily(store)  # twofold daily, or the menu's Daily row
    assert again.game.code == daily_code("tally-daily", TODAY)
    assert not again.game.flags.practice and not again.game.started
    assert again.previous is not None and again.previous.code == OTHER  # one step back (B)
    finish(again)
    records = store.records("tally-daily", today=TODAY)
    assert records.played == 1 and records.current_streak == 1


def test_the_daily_entry_resumes_todays_game(store: SqliteStore) -> None:
    session = daily(store)
    session.act("add")
    score = session.game.state.score
    session.close()
    again = daily(store)
    assert again.game.code == daily_code("tally-daily", TODAY)
    assert again.game.state.score == score and not again.game.flags.practice


def test_todays_board_after_a_practice_link_is_practice_once_the_day_was_played(
    store: SqliteStore,
) -> None:
    session = daily(store)
    finish(session)  # today's Daily, played and counted
    session.new_game(OTHER)  # then a friend's link replaces it
    session.close()
    again = daily(store)  # today's board once more: a later try, practice
    assert again.game.code == daily_code("tally-daily", TODAY)
    assert again.game.flags.practice
    finish(again)
    assert store.records("tally-daily", today=TODAY).played == 1


def test_todays_own_code_typed_in_is_the_daily(store: SqliteStore) -> None:
    session = daily(store)
    session.new_game(daily_code("tally-daily", TODAY))  # --code with today's code
    assert not session.game.flags.practice
    finish(session)
    assert store.records("tally-daily", today=TODAY).played == 1


# -- 9. a live game's figures are those of its current state -------------------------------------


def test_undo_takes_its_tiles_off_the_live_tile_strip(store: SqliteStore) -> None:
    mode = Mode(id="tally", title="Tally", rules=TALLY.rules)
    session = Session(mode, store)
    session.new_game(code_from_text("undo strip"))
    session.act("add")
    first = session.game.state.value
    session.act("add")
    undone = session.game.state.value
    assert undone in store.records("tally").tiles
    session.act("undo")
    tiles = store.records("tally").tiles
    assert undone not in tiles and first in tiles
    assert store.live_game("tally") is not None
    finish(session)
    [row] = store.finished_games("tally")
    assert set(row.tiles) <= session.game.reached


# -- 10. English articles and plurals, German likewise ---------------------------------------------


@pytest.mark.parametrize(
    ("number", "an"),
    [(8, True), (11, True), (18, True), (80, True), (86, True), (800, True), (8192, True),
     (11000, True), (18432, True), (2, False), (16, False), (128, False), (1024, False),
     (2048, False), (81920, True), (1, False), (88, True)],
)  # fmt: skip
def test_english_says_an_before_an_eight_an_eleven_an_eighteen(number: int, an: bool) -> None:
    from twofold.core._i18n import an_before

    assert an_before(number) is an


def test_a_hammer_says_an_8_dropped_in_and_german_eine() -> None:
    from twofold.core import _i18n as i18n
    from twofold.core._events import Appeared, Removed, Used
    from twofold.variants.chain2248.powerups import POWERUPS

    _used_words = POWERUPS["hammer"].told
    assert _used_words is not None

    used, removed = Used("hammer", ((0, 0),)), Removed(((0, 0),), 4, "hammer")
    assert "An 8 dropped in." in _used_words(used, [removed], [Appeared((0, 0), 8)])
    assert "A 16 dropped in." in _used_words(used, [removed], [Appeared((0, 0), 16)])
    try:
        i18n.set_language("de")
        assert "Eine 8 ist nachgefallen." in _used_words(used, [removed], [Appeared((0, 0), 8)])
        one = i18n.ngettext(
            "{count} recent game, lowest {low}, highest {high}, last {last}",
            "{count} recent games, lowest {low}, highest {high}, last {last}",
            1,
        )
        assert one.startswith("{count} letztes Spiel")
    finally:
        i18n.set_language("en")
