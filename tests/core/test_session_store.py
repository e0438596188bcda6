"""Sessions on the real SQLite store: resume, damaged saves, records, streaks."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.core.toy import TALLY
from twofold.core import checkpoint
from twofold.core._rules import Mode, Refused
from twofold.core.codes import code_from_text
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import DB_NAME, SqliteStore, encode_save, open_store

CODE = code_from_text("session-store")
DAILY = Mode(id="tally-daily", title="Daily tally", rules=TALLY.rules, daily=True)


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def reopen(mode: Mode = TALLY, **kwargs: object) -> tuple[Session, SqliteStore]:
    again = open_store()
    return Session(mode, again, **kwargs), again  # type: ignore[arg-type]


def stored(path: Path, mode_id: str) -> str:
    with sqlite3.connect(path) as connection:
        row = connection.execute("SELECT data FROM saves WHERE mode_id = ?", (mode_id,)).fetchone()
    return row[0]


def replace_stored(path: Path, mode_id: str, data: str | bytes) -> None:
    connection = sqlite3.connect(path)
    with connection:
        connection.execute(
            "INSERT OR REPLACE INTO saves (mode_id, data, saved_at) VALUES (?, ?, 0)",
            (mode_id, data),
        )
    connection.close()


def play_to_the_end(session: Session) -> None:
    while not session.game.over:
        session.act("add")


# -- resume ---------------------------------------------------------------------------------------


def test_a_game_resumes_exactly_with_its_undo_history(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    session.new_game(CODE)
    for command in ("add", "add", "undo", "add"):
        session.act(command)
    session.game.elapsed = 42.0
    session.close()
    store.close()
    again, again_store = reopen()
    try:
        assert again.notice is None
        assert again.game.code == CODE
        assert again.game.state == session.game.state
        assert again.game.log == ["add", "add", "undo", "add"]
        assert again.game.game_id == session.game.game_id
        assert again.game.elapsed == pytest.approx(42.0)
        assert again.game.can_undo
        again.act("undo")
        assert again.game.state.value == session.game.history[-1].value
    finally:
        again_store.close()


def test_a_game_with_no_moves_is_kept_and_resumed(store: SqliteStore) -> None:
    # a game is the mode's game from its first reply, moves or not
    fresh = Session(TALLY, store)
    assert store.has_save("tally")
    fresh.close()
    assert Session(TALLY, store).game.code == fresh.game.code
    restarted = Session(TALLY, store).restart()  # Ctrl+R: the same code, no move yet
    again = Session(TALLY, store)
    assert again.game.code == restarted.code and again.game.game_id == restarted.game_id
    shared = again.new_game(CODE)  # a shared game, left before its first move
    assert Session(TALLY, store).game.game_id == shared.game_id


# -- damaged saves through the Session ------------------------------------------------------------


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: text[: len(text) * 2 // 3], id="truncated"),
        pytest.param(lambda text: text.replace('"add"', '"adc"', 1), id="byte-flipped"),
        pytest.param(lambda text: b"\x00\x01\x02 not json at all", id="binary-garbage"),
        pytest.param(lambda text: "", id="empty"),
    ],
)
def test_a_damaged_save_gives_a_notice_and_a_new_game(
    store: SqliteStore, twofold_home: Path, damage: object
) -> None:
    session = Session(TALLY, store)
    session.act("add")
    session.act("add")
    session.close()  # its base written whole, the actions in it
    path = twofold_home / DB_NAME
    replace_stored(path, "tally", damage(stored(path, "tally")))  # type: ignore[operator]
    again = Session(TALLY, store)
    assert again.notice is not None and "\n" not in again.notice
    assert "Tally" in again.notice
    assert again.game.log == []
    kept = store.load_save("tally")  # the damaged save set aside, so the notice is shown once
    assert kept is not None and kept.game_id == again.game.game_id
    assert Session(TALLY, store).notice is None


def test_a_newer_twofolds_save_stays_in_its_slot(store: SqliteStore, twofold_home: Path) -> None:
    Session(TALLY, store).act("add")
    path = twofold_home / DB_NAME
    replace_stored(path, "tally", stored(path, "tally").replace('"format": 1', '"format": 99'))
    again = Session(TALLY, store)
    assert again.notice is not None and "newer twofold" in again.notice
    assert again.game.log == []
    assert store.has_save("tally")  # the newer twofold finds it where it left it


def test_another_modes_log_in_the_slot_gives_a_new_game(
    store: SqliteStore, twofold_home: Path
) -> None:
    timed = replace(TALLY, id="tally-timed", title="Timed tally")
    Session(timed, store).act("add")
    path = twofold_home / DB_NAME
    replace_stored(path, "tally", stored(path, "tally-timed"))
    again = Session(TALLY, store)
    assert again.notice is not None and "tally-timed" in again.notice
    assert again.game.log == []
    assert Session(timed, store).game.log == ["add"]  # the other mode's own save is untouched


def test_a_readable_save_that_does_not_replay_gives_a_new_game(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    session.act("add")
    saved = store.load_save("tally")
    assert saved is not None
    store.write_save(replace(saved, actions=("add", "fly")))
    again = Session(TALLY, store)
    assert again.notice is not None and "replayed" in again.notice
    assert again.game.log == []


def test_a_damaged_database_file_still_opens_a_game(twofold_home: Path) -> None:
    (twofold_home / DB_NAME).write_bytes(b"\x13\x37" * 5000)
    session, opened = reopen()
    try:
        assert opened.notice is not None
        assert session.game.log == []
        session.act("add")
        assert opened.has_save("tally")
    finally:
        opened.close()


# -- records --------------------------------------------------------------------------------------


def test_finished_games_make_records(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    play_to_the_end(session)
    first_score = session.game.state.score
    session.new_game()
    play_to_the_end(session)
    records = store.records("tally")
    assert records.played == 2
    assert records.best == max(first_score, session.game.state.score)
    assert records.average == pytest.approx((first_score + session.game.state.score) / 2)
    assert store.recent_scores("tally") == [first_score, session.game.state.score]


def test_the_tile_strip_keeps_tiles_no_longer_on_the_board(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    session.new_game(CODE)
    session.act("add")
    session.act("add")
    shown = {session.game.history[-1].value, session.game.state.value}
    session.act("undo")
    session.close()
    again = Session(TALLY, store)  # rebuilt from the log, tiles reached included
    play_to_the_end(again)
    finished = store.finished_games("tally")[0]
    assert shown <= set(finished.tiles)
    assert set(store.records("tally").tiles) == set(finished.tiles)
    assert len(finished.tiles) > 1  # the tally shows one cell: the rest were reached before


def test_last_game_played_on_is_still_one_game(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    session.act("add")
    session.new_game()
    session.last_game()
    session.act("add")
    session.new_game()
    assert store.records("tally").played == 1


def test_position_games_do_not_count(store: SqliteStore) -> None:
    session = Session(TALLY, store)
    session.new_game(position={"board": [[5]]})
    play_to_the_end(session)
    session.close()
    assert store.finished_games("tally")[0].counted is False
    assert store.records("tally").played == 0
    assert store.modes_with_history() == []
    again = Session(TALLY, store)  # resumed from the save: still uncounted
    assert again.game.flags.uncounted


def test_daily_streaks_through_sessions(store: SqliteStore) -> None:
    start = date(2026, 11, 27)
    for offset in range(4):
        day = start + timedelta(days=offset)
        session = Session(DAILY, store, today=lambda day=day: day)
        play_to_the_end(session)
    records = store.records("tally-daily", today=date(2026, 11, 30))
    assert (records.current_streak, records.longest_streak) == (4, 4)
    assert store.records("tally-daily", today=date(2026, 12, 2)).current_streak == 0


def test_yesterdays_daily_save_is_not_resumed(store: SqliteStore) -> None:
    Session(DAILY, store, today=lambda: date(2026, 11, 29)).act("add")
    today = Session(DAILY, store, today=lambda: date(2026, 11, 30))
    assert today.game.log == [] and today.notice is None


# -- the real 2048 --------------------------------------------------------------------------------


@pytest.fixture
def classic() -> Mode:
    modes = registry().modes
    assert "2048" in modes, f"the 2048 variant is not registered: {sorted(modes)}"
    return modes["2048"]


def test_a_2048_game_resumes_exactly(store: SqliteStore, classic: Mode) -> None:
    session = Session(classic, store)
    session.new_game(CODE)
    for move in ["left", "down", "right", "up"] * 5 + ["undo"]:
        with contextlib.suppress(Refused):  # an undo with nothing to undo is refused
            session.act(move)
    session.close()
    again = Session(classic, store)
    assert again.notice is None
    assert again.game.state == session.game.state
    assert again.game.log == session.game.log


def test_a_2048_save_replaced_by_another_modes_log(
    store: SqliteStore, twofold_home: Path, classic: Mode
) -> None:
    bigger = registry().modes["2048-5x5"]
    other = Session(bigger, store)
    other.act("left")
    other.act("up")
    path = twofold_home / DB_NAME
    replace_stored(path, "2048", stored(path, "2048-5x5"))
    session = Session(classic, store)
    assert session.notice is not None and "2048-5x5" in session.notice
    assert session.game.log == []


def flip_in_code(text: str) -> str:
    index = text.index(CODE) + 2
    return text[:index] + chr(ord(text[index]) ^ 0x04) + text[index + 1 :]


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        pytest.param(flip_in_code, "checksum", id="flipped-byte"),
        pytest.param(lambda text: text[:-7], "not valid JSON", id="truncated"),
    ],
)
def test_a_damaged_2048_save(
    store: SqliteStore, twofold_home: Path, classic: Mode, damage: Any, reason: str
) -> None:
    session = Session(classic, store)
    session.new_game(CODE)
    session.act("left")
    session.act("up")
    session.close()
    path = twofold_home / DB_NAME
    text = stored(path, "2048")
    assert text == encode_save(store.load_save("2048"))  # type: ignore[arg-type]
    replace_stored(path, "2048", damage(text))
    again = Session(classic, store)
    assert again.notice is not None and reason in again.notice
    assert again.game.log == []
    assert again.game.code != CODE


def test_last_game_belongs_to_the_mode_and_outlives_the_window(
    store: SqliteStore, twofold_home: Path
) -> None:
    # New game, then the screen, the menu and the app left: B brings it back
    session = Session(TALLY, store)
    for _ in range(3):
        session.act("add")
    played = session.game
    session.new_game()
    session.act("add")  # a move on the new game
    session.close()
    store.close()
    again, again_store = reopen()
    try:
        back = again.last_game()
        assert back is not None and back.game_id == played.game_id
        assert back.state == played.state and back.log == played.log
        again.close()
        assert Session(TALLY, again_store).game.game_id == played.game_id  # and it is kept
        restarted = Session(TALLY, again_store)
        restarted.restart()  # Ctrl+R replaces it too, and B brings it back
        restarted.close()
        assert Session(TALLY, again_store).last_game() is not None
    finally:
        again_store.close()


def test_a_long_last_game_comes_back_from_its_checkpoint(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(checkpoint, "EVERY", 20)  # a long game, in a few dozen moves
    mode = registry().mode("2048")
    session = Session(mode, store)
    while len(session.game.log) < 40:
        for direction in ("left", "down", "right", "down"):
            session.act(direction)
    played = session.game
    session.new_game()
    kept = store.load_last("2048")
    assert kept is not None and kept.checkpoint is not None
    session.close()
    back = Session(mode, store).last_game()
    assert back is not None and back.state == played.state


def test_an_ended_game_stays_over_and_is_no_game_in_progress(store: SqliteStore) -> None:
    # End game on a stuck board holding a Hammer ends it for good
    mode = registry().mode("2248")
    stuck = [[(8, 16, 32, 64, 128)[(c + 2 * r) % 5] for c in range(5)] for r in range(8)]
    session = Session(mode, store)
    session.new_game(position={"board": stuck, "score": 500})
    assert not session.game.over and store.game_waits("2248")
    finished = session.end_game()
    assert finished is not None and finished.score == 500
    session.close()
    again = Session(mode, store)
    assert again.game.game_id == session.game.game_id and again.game.over
    assert not store.game_waits("2248")
    with pytest.raises(Refused):
        again.act("hammer 0,0")
