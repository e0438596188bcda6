"""``twofold stats``: tables for people, one JSON object for programs, errors in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.core.toy import TallyPlugin
from twofold.core import plugins
from twofold.core.session import FinishedGame
from twofold.core.store import open_store
from twofold.ui.cli import main
from twofold.ui.stats_command import play_time, sparkline


def game(game_id: str, mode_id: str, **changes: object) -> FinishedGame:
    base = FinishedGame(
        game_id=game_id,
        mode_id=mode_id,
        code="AAAAAAAA",
        score=100,
        largest=16,
        moves=5,
        elapsed=61.0,
        counted=True,
        won=False,
        tiles=(2, 4, 16),
        stats={},
        day=None,
        finished_at=1.0,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def tally_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the toy modes, so the output does not depend on which variants are installed."""
    loaded = plugins.load(extra=[("tally", TallyPlugin())], entry_points_=[])
    monkeypatch.setattr(plugins, "_registry", loaded)


def record(*games: FinishedGame) -> None:
    with open_store() as store:
        for finished in games:
            store.record_finished(finished)


def test_json_is_one_object_with_every_mode_that_has_history(
    capsys: pytest.CaptureFixture[str],
) -> None:
    record(
        game("a", "tally", score=100),
        game("b", "tally", score=300, largest=2048, tiles=(2, 2048)),
        game("c", "tally-timed", score=7),
        game("d", "tally-timed", score=9999, counted=False),
    )
    assert main(["stats", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert list(data["modes"]) == ["tally", "tally-timed"]
    tally = data["modes"]["tally"]
    assert tally["mode"] == "tally" and tally["title"] == "Tally"
    assert tally["played"] == 2 and tally["best"] == 300 and tally["average"] == 200.0
    assert tally["reached_2048"] == 1 and tally["largest"] == 2048
    assert tally["tiles"] == [2, 4, 16, 2048]
    assert tally["play_time"] == 122.0
    assert tally["recent_scores"] == [100, 300]
    assert data["modes"]["tally-timed"]["best"] == 7


def test_one_mode_or_a_family(capsys: pytest.CaptureFixture[str]) -> None:
    record(game("a", "tally"), game("b", "tally-timed"))
    assert main(["stats", "TALLY-TIMED", "--json"]) == 0
    assert list(json.loads(capsys.readouterr().out)["modes"]) == ["tally-timed"]
    assert main(["stats", "tally", "--json"]) == 0  # a mode id wins over its family
    assert list(json.loads(capsys.readouterr().out)["modes"]) == ["tally"]


def test_a_mode_without_games_shows_zeros(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "tally", "--json"]) == 0
    tally = json.loads(capsys.readouterr().out)["modes"]["tally"]
    assert tally["played"] == 0 and tally["tiles"] == [] and tally["recent_scores"] == []


def test_an_unknown_mode_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "tetris"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.splitlines()) == 1
    assert "tetris" in err and "tally" in err


def test_tables_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    record(
        game("a", "tally", score=1234, elapsed=3725.0), game("b", "tally", score=10, elapsed=0.0)
    )
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    for text in ("Tally", "Games played", "1,234", "Average score", "Play time", "1:02:05"):
        assert text in out
    assert "2 4 16" in out
    assert "streak" not in out.lower() and "Longest chain" not in out


def test_daily_and_chain_rows_for_modes_that_have_them(capsys: pytest.CaptureFixture[str]) -> None:
    # A mode whose plugin is gone still shows its history, with the rows its numbers need.
    record(
        game("a", "gone-daily", day="2020-02-29", stats={"longest_chain": 6, "merges": 11}),
        game("b", "gone-daily", day="2020-02-28", stats={"longest_chain": 4, "merges": 2}),
    )
    assert main(["stats", "gone-daily"]) == 0
    out = capsys.readouterr().out
    assert "Longest chain" in out and "Merges" in out and "Longest streak" in out
    assert "2 days" in out


def test_no_history_yet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats"]) == 0
    assert "No finished games yet" in capsys.readouterr().out
    assert main(["stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"modes": {}}


def test_a_damaged_database_is_a_notice_on_stderr(
    capsys: pytest.CaptureFixture[str], twofold_home: Path
) -> None:
    (twofold_home / "twofold.db").write_bytes(b"junk" * 1000)
    assert main(["stats", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"modes": {}}
    assert len(err.splitlines()) == 1 and "damaged" in err


def test_helpers() -> None:
    assert play_time(0) == "0:00"
    assert play_time(59.9) == "0:59"
    assert play_time(3600) == "1:00:00"
    assert sparkline([]) == ""
    assert sparkline([5, 5]) == "▅▅"
    assert sparkline([0, 50, 100]) == "▁▄█"
