from __future__ import annotations

from datetime import date

from tests.core.toy import TALLY
from twofold.core._rules import Mode
from twofold.core.session import MemoryStore, SavedGame, Session


def test_every_change_is_saved_and_resumes() -> None:
    store = MemoryStore()
    session = Session(TALLY, store)
    session.act("add")
    session.act("add")
    again = Session(TALLY, store)
    assert again.game.state == session.game.state
    assert again.game.can_undo


def test_a_save_that_does_not_replay_gives_a_new_game_and_a_notice() -> None:
    store = MemoryStore()
    store.write_save(SavedGame("tally", "AAAAAAAA", ("fly",)))
    session = Session(TALLY, store)
    assert session.notice and "\n" not in session.notice
    assert session.game.log == []
    assert [saved.actions for saved in store.aside] == [("fly",)]  # kept, out of the slot
    kept = store.load_save("tally")
    assert kept is not None and kept.game_id == session.game.game_id


def test_another_modes_save_is_refused() -> None:
    store = MemoryStore()
    store.saves["tally"] = SavedGame("other", "AAAAAAAA", ())
    session = Session(TALLY, store)
    assert session.notice is not None


def test_new_game_records_the_old_one_and_last_game_brings_it_back() -> None:
    store = MemoryStore()
    session = Session(TALLY, store)
    session.act("add")
    old = session.game
    session.new_game()
    assert [f.game_id for f in store.finished] == [old.game_id]
    assert session.last_game() is old
    session.act("add")
    session.new_game()
    assert len(store.finished) == 1  # the same game, recorded once, updated


def test_daily_code_changes_with_the_date() -> None:
    daily = Mode(id="tally-daily", title="Daily tally", rules=TALLY.rules, daily=True)
    day = date(2026, 11, 30)
    store = MemoryStore()
    first = Session(daily, store, today=lambda: day)
    first.act("add")
    same_day = Session(daily, store, today=lambda: day)
    assert same_day.game.log == ["add"]
    next_day = Session(daily, store, today=lambda: date(2026, 12, 1))
    assert next_day.game.log == []
    assert next_day.game.code != first.game.code
