"""The store on its own: what it refuses to open, and PostgreSQL restarted under it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from twofold.leaderboard.boards import (
    NewEntry,
    PostgresBoards,
    StoreError,
    StoreUnavailable,
    open_boards,
)

from .servers import postgresql


def new(number: int) -> NewEntry:
    return NewEntry(
        game_key=f"game-{number}", mode="2048-daily", code="F1SPD7S4", day=None,
        name=f"N{number}", score=100 * number, largest=64, moves=40, played="unassisted",
        assisted=False, proof="TF2", actions=40, checkpoints=(f"c{number}",),
        replay=b"frames", name_key=f"n{number}",
    )  # fmt: skip


def test_a_file_that_is_not_a_database_or_not_a_leaderboard_is_refused_untouched(
    tmp_path: Path,
) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="cannot use"):
        open_boards(str(garbage))
    assert garbage.read_bytes() == b"not a database at all" * 100
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE mine (x)")
    before = other.read_bytes()
    with pytest.raises(StoreError, match="not a twofold leaderboard"):
        open_boards(str(other))
    assert other.read_bytes() == before


@pytest.mark.slow
def test_postgresql_restarted_under_the_store(tmp_path: Path) -> None:
    with postgresql(tmp_path / "pg") as cluster:
        boards = PostgresBoards(cluster)
        try:
            entry, created = boards.add(new(1))
            assert created and entry.rank == 1
            for mode in ("fast", "immediate"):
                cluster.stop(mode)
                calls = (
                    lambda: boards.add(new(2)),
                    lambda: boards.board("2048-daily", "F1SPD7S4", assisted=False, limit=9),
                    lambda: boards.entry(1),
                    lambda: boards.related(["c1"]),
                    lambda: boards.name_like("2048-daily", "F1SPD7S4", "n1", "x"),
                    lambda: boards.replay(1),
                )
                for call in calls:
                    with pytest.raises(StoreUnavailable, match="cannot reach the database"):
                        call()
                cluster.start()
                # every pooled connection is stale now: the first call of each replaces its own
                assert boards.replay(1) == b"frames"
                assert [e.name for e in boards.board("2048-daily", "F1SPD7S4", assisted=False,
                                                     limit=9)] == ["N1"]  # fmt: skip
                assert boards.name_like("2048-daily", "F1SPD7S4", "n1", "x") == "N1"
            assert boards.add(new(2))[0].rank == 1
        finally:
            boards.close()
