"""The SQLite store: saves, finished games, damaged and newer files, two processes at once."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twofold.core import store as store_module
from twofold.core.session import FinishedGame, SavedGame
from twofold.core.settings import Settings
from twofold.core.store import (
    DB_NAME,
    SAVE_FORMAT,
    SCHEMA_VERSION,
    SqliteStore,
    data_dir,
    decode_save,
    encode_save,
    memory_store,
    open_store,
)


def finished(game_id: str, mode_id: str = "tally", **changes: object) -> FinishedGame:
    base = FinishedGame(
        game_id=game_id,
        mode_id=mode_id,
        code="AAAAAAAA",
        score=100,
        largest=64,
        moves=10,
        elapsed=12.5,
        counted=True,
        won=False,
        tiles=(2, 4, 64),
        stats={},
        day=None,
        finished_at=1000.0,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


SAVED = SavedGame(
    mode_id="tally",
    code="7K3M9QXP",
    actions=("add", "add", "undo", "add"),
    elapsed=12.25,
    flags={"won": True, "kept_going": True},
    position=None,
    day="2026-11-30",
    game_id="abc123",
)


def stored_text(path: Path, mode_id: str) -> str:
    with sqlite3.connect(path) as connection:
        return connection.execute(
            "SELECT data FROM saves WHERE mode_id = ?", (mode_id,)
        ).fetchone()[0]


def put_text(path: Path, mode_id: str, text: str | bytes) -> None:
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("UPDATE saves SET data = ? WHERE mode_id = ?", (text, mode_id))
    connection.close()


# -- where the data lives -----------------------------------------------------------------------


def test_data_dir_is_twofold_home_when_set(twofold_home: Path) -> None:
    assert data_dir() == twofold_home


def test_data_dir_falls_back_to_the_platform_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TWOFOLD_HOME")
    assert data_dir().name == "twofold"


def test_open_store_makes_the_database_in_twofold_home(twofold_home: Path) -> None:
    with open_store() as store:
        assert store.notice is None
        assert store.path == twofold_home / DB_NAME
    assert (twofold_home / DB_NAME).is_file()


def test_open_store_accepts_a_folder_and_creates_missing_ones(tmp_path: Path) -> None:
    folder = tmp_path / "a" / "b"
    with open_store(folder / DB_NAME) as store:
        assert store.path == folder / DB_NAME
    with open_store(folder) as store:
        assert store.path == folder / DB_NAME


def test_schema_version_and_wal(twofold_home: Path) -> None:
    open_store().close()
    with sqlite3.connect(twofold_home / DB_NAME) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


# -- saves --------------------------------------------------------------------------------------


def test_a_save_round_trips_and_survives_reopening() -> None:
    with open_store() as store:
        assert store.load_save("tally") is None
        assert not store.has_save("tally")
        store.write_save(SAVED)
        assert store.has_save("tally")
    with open_store() as store:
        assert store.load_save("tally") == SAVED


def test_one_save_per_mode_and_clearing() -> None:
    with open_store() as store:
        store.write_save(SAVED)
        store.write_save(replace(SAVED, actions=("add",)))
        store.write_save(replace(SAVED, mode_id="other"))
        assert store.load_save("tally") == replace(SAVED, actions=("add",))
        store.clear_save("tally")
        assert store.load_save("tally") is None
        assert store.has_save("other")
        store.clear_save("tally")  # clearing nothing is fine


def test_a_position_save_round_trips() -> None:
    position = {"board": [[2, 0], [0, 4]], "score": 8, "note": "ünïcödé"}
    saved = replace(SAVED, position=position, flags={"uncounted": True}, day=None)
    with memory_store() as store:
        store.write_save(saved)
        assert store.load_save("tally") == saved


@settings(max_examples=40, deadline=None)
@given(
    actions=st.lists(st.text(min_size=1, max_size=12), max_size=30),
    elapsed=st.floats(min_value=0, max_value=1e7, allow_nan=False),
    flags=st.dictionaries(
        st.sampled_from(["won", "kept_going", "uncounted", "solver"]), st.booleans()
    ),
    game_id=st.text(max_size=40),
)
def test_any_save_round_trips(
    actions: list[str], elapsed: float, flags: dict[str, bool], game_id: str
) -> None:
    saved = SavedGame("tally", "7K3M9QXP", tuple(actions), elapsed, flags, None, None, game_id)
    assert decode_save(encode_save(saved), "tally") == saved


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda text: text[: len(text) // 2], "not valid JSON"),
        (lambda text: "", "not valid JSON"),
        (lambda text: "hello", "not valid JSON"),
        (lambda text: b"\xff\xfe\x00garbage", "not valid JSON"),
        (lambda text: "[1, 2, 3]", "not a saved game"),
        (lambda text: text.replace('"add"', '"ad"', 1), "checksum"),
        (lambda text: text.replace("12.25", "99.25"), "checksum"),
        (lambda text: json.dumps({**json.loads(text), "format": SAVE_FORMAT + 1}), "newer"),
        (
            lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "format"}),
            "format",
        ),
    ],
)
def test_an_unreadable_save_raises_a_one_line_value_error(
    twofold_home: Path, damage: object, reason: str
) -> None:
    with open_store() as store:
        store.write_save(SAVED)
    path = twofold_home / DB_NAME
    put_text(path, "tally", damage(stored_text(path, "tally")))  # type: ignore[operator]
    with open_store() as store, pytest.raises(ValueError, match=reason) as caught:
        store.load_save("tally")
    assert "\n" not in str(caught.value)


def test_another_modes_log_in_a_slot_is_refused(twofold_home: Path) -> None:
    with open_store() as store:
        store.write_save(SAVED)
        store.write_save(replace(SAVED, mode_id="other", actions=("stay",)))
    path = twofold_home / DB_NAME
    put_text(path, "tally", stored_text(path, "other"))
    with open_store() as store, pytest.raises(ValueError, match="belongs to mode 'other'"):
        store.load_save("tally")


def test_every_flipped_byte_of_a_save_is_caught_or_harmless(twofold_home: Path) -> None:
    text = encode_save(SAVED)
    for index in range(len(text)):
        damaged = text[:index] + chr(ord(text[index]) ^ 0x01) + text[index + 1 :]
        try:
            loaded = decode_save(damaged, "tally")
        except ValueError:
            continue
        # JSON's own freedom (a space flipped into another blank) may leave the save intact.
        assert loaded == SAVED, f"byte {index} changed the save silently"


# -- finished games -----------------------------------------------------------------------------


def test_recording_the_same_game_again_replaces_its_row() -> None:
    with open_store() as store:
        store.record_finished(finished("g1", score=100))
        store.record_finished(finished("g2", score=50))
        store.record_finished(finished("g1", score=300, largest=256))
        games = {g.game_id: g for g in store.finished_games("tally")}
        assert len(games) == 2
        assert games["g1"].score == 300 and games["g1"].largest == 256
        assert store.records("tally").played == 2


def test_a_finished_game_round_trips() -> None:
    game = finished(
        "g1", stats={"longest_chain": 7, "merges": 12}, day="2026-11-30", won=True, tiles=(2, 8)
    )
    with open_store() as store:
        store.record_finished(game)
    with open_store() as store:
        assert store.finished_games("tally") == [game]


def test_recent_scores_are_counted_games_oldest_first() -> None:
    with open_store() as store:
        for number in range(40):
            store.record_finished(finished(f"g{number}", score=number, finished_at=1000.0 + number))
        store.record_finished(finished("solver", score=10**6, counted=False, finished_at=5000.0))
        assert store.recent_scores("tally") == list(range(10, 40))
        assert store.recent_scores("tally", limit=3) == [37, 38, 39]
        assert store.recent_scores("other") == []


def test_modes_with_history_lists_modes_with_counted_games() -> None:
    with open_store() as store:
        assert store.modes_with_history() == []
        store.record_finished(finished("a", mode_id="2248"))
        store.record_finished(finished("b", mode_id="2048"))
        store.record_finished(finished("c", mode_id="2048"))
        store.record_finished(finished("d", mode_id="2048-5x5", counted=False))
        assert store.modes_with_history() == ["2048", "2248"]


# -- damaged, newer and unreachable files -------------------------------------------------------


def test_a_file_that_is_not_a_database_is_kept_aside_and_a_fresh_one_starts(
    twofold_home: Path,
) -> None:
    path = twofold_home / DB_NAME
    junk = b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(junk)
    with open_store() as store:
        assert store.notice is not None and "\n" not in store.notice
        assert "damaged" in store.notice
        assert not store.in_memory
        store.write_save(SAVED)
        assert store.load_save("tally") == SAVED
    broken = list(twofold_home.glob(DB_NAME + ".broken-*"))
    assert len(broken) == 1
    assert broken[0].read_bytes() == junk
    with open_store() as store:
        assert store.notice is None
        assert store.load_save("tally") == SAVED


def test_a_truncated_database_is_kept_aside(twofold_home: Path) -> None:
    with open_store() as store:
        for number in range(400):
            store.record_finished(finished(f"game-{number:04d}" * 8, code="X" * 200))
    path = twofold_home / DB_NAME
    data = path.read_bytes()
    assert len(data) > 8 * 4096
    path.write_bytes(data[: len(data) // 2])
    with open_store() as store:
        assert store.notice is not None and "damaged" in store.notice
        assert store.records("tally").played == 0
    assert len(list(twofold_home.glob(DB_NAME + ".broken-*"))) == 1


def test_a_database_with_missing_tables_is_kept_aside(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    open_store().close()
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE saves")
    with open_store() as store:
        assert store.notice is not None and "saves" in store.notice
        store.write_save(SAVED)
        assert store.load_save("tally") == SAVED


def test_two_damaged_files_in_one_second_keep_both(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    for text in (b"first" * 100, b"second" * 100):
        path.write_bytes(text)
        open_store().close()
    kept = sorted(p.read_bytes()[:6] for p in twofold_home.glob(DB_NAME + ".broken-*"))
    assert kept == [b"firstf", b"second"]


def test_a_newer_schema_is_left_untouched_and_this_run_plays_in_memory(
    twofold_home: Path,
) -> None:
    path = twofold_home / DB_NAME
    with open_store() as store:
        store.write_save(SAVED)
        store.save_settings(Settings(theme="nord", language="de"))
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = DELETE")  # a newer app may not use WAL
    with connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
        connection.execute("CREATE TABLE future (x)")
    connection.close()  # so the change is in the file, not only in its WAL
    before = path.read_bytes()
    with open_store() as store:
        assert store.in_memory
        assert store.notice is not None and "newer twofold" in store.notice
        assert "\n" not in store.notice
        assert store.load_save("tally") is None
        assert store.load_settings() == Settings(theme="nord", language="de")  # borrowed
        store.write_save(SAVED)  # works, for this run only
        store.record_finished(finished("g1"))
        assert store.records("tally").played == 1
    assert path.read_bytes() == before
    assert not list(twofold_home.glob(DB_NAME + ".broken-*"))
    assert not list(twofold_home.glob(DB_NAME + "-*"))  # no WAL was started beside it


def test_a_folder_that_cannot_be_made_plays_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    with open_store(blocker / "sub" / DB_NAME) as store:
        assert store.in_memory
        assert store.notice is not None and "could not be opened" in store.notice
        store.write_save(SAVED)
        assert store.load_save("tally") == SAVED


def test_a_write_that_fails_later_is_a_notice_not_a_crash(twofold_home: Path) -> None:
    with open_store() as store:
        with sqlite3.connect(twofold_home / DB_NAME) as other:
            other.execute("DROP TABLE finished")
        store.record_finished(finished("g1"))
        assert store.notice is not None and "could not be saved" in store.notice
        assert store.records("tally").played == 0


def test_odd_stats_from_a_plugin_do_not_lose_the_game() -> None:
    with open_store() as store:
        store.record_finished(
            finished("g1", stats={"merges": 3.0, "bad": "x", "inf": float("inf")})
        )
        assert store.notice is None
        assert store.finished_games("tally")[0].stats == {"merges": 3}


def test_migrations_run_from_an_empty_file(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    path.write_bytes(b"")
    with open_store() as store:
        assert store.notice is None
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert len(store_module.MIGRATIONS) == SCHEMA_VERSION


# -- two processes ------------------------------------------------------------------------------

WRITES = 300


def _writer(
    path: str,
    name: str,
    go: Any,
    results: multiprocessing.Queue,  # type: ignore[type-arg]
) -> None:
    store = open_store(Path(path))
    problems = [store.notice] if store.notice else []
    go.wait()  # both start writing together
    for number in range(WRITES):
        store.write_save(replace(SAVED, mode_id=name, actions=("add",) * (number % 7 + 1)))
        store.record_finished(finished(f"{name}-{number}", mode_id=name, score=number))
        if store.notice:
            problems.append(store.notice)
            store.notice = None
    store.close()
    results.put((name, problems))


def test_two_processes_write_at_once_without_errors_or_lost_rows(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    open_store(path).close()
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    go = context.Event()
    workers = [
        context.Process(target=_writer, args=(str(path), name, go, results))
        for name in ("p1", "p2")
    ]
    for worker in workers:
        worker.start()
    go.set()
    reports = dict(results.get(timeout=120) for _ in workers)
    for worker in workers:
        worker.join(timeout=30)
        assert worker.exitcode == 0
    assert reports == {"p1": [], "p2": []}
    with open_store(path) as store:
        for name in ("p1", "p2"):
            assert store.records(name).played == WRITES
            assert store.recent_scores(name, limit=WRITES) == list(range(WRITES))
            saved = store.load_save(name)
            assert saved is not None and len(saved.actions) == (WRITES - 1) % 7 + 1


def test_a_memory_store_is_a_full_store() -> None:
    store = memory_store()
    assert isinstance(store, SqliteStore) and store.in_memory and store.notice is None
    store.write_save(SAVED)
    store.record_finished(finished("g1"))
    assert store.load_save("tally") == SAVED
    assert store.records("tally").played == 1
    store.close()


def _opener(path: str, go: Any, results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    go.wait()
    store = open_store(Path(path))
    store.record_finished(finished(f"first-{multiprocessing.current_process().pid}"))
    results.put((store.notice, store.in_memory))
    store.close()


def test_indexes_another_copy_just_made_are_not_dropped_as_damage(twofold_home: Path) -> None:
    """A copy that read an empty file's header, while another copy created the tables and
    their index, dropped that index as "damage" (1 run in 5 of the test below)."""
    from twofold.core.store import files

    path = twofold_home / DB_NAME
    late = sqlite3.connect(path, isolation_level=None)
    version, _id, _tables = files.header(late)  # an empty file: version 0
    with open_store(path):  # another copy creates and migrates it meanwhile
        pass
    assert files.remove_foreign_objects(late, version) == []
    assert ("index", "finished_by_mode") in files.objects(late)
    late.close()


def test_several_copies_creating_the_database_at_once(twofold_home: Path) -> None:
    path = twofold_home / DB_NAME
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    go = context.Event()
    workers = [context.Process(target=_opener, args=(str(path), go, results)) for _ in range(4)]
    for worker in workers:
        worker.start()
    go.set()
    reports = [results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(timeout=30)
    assert reports == [(None, False)] * 4
    with open_store(path) as store:
        assert store.records("tally").played == 4
