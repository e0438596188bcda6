"""``twofold stats``: tables for people, one JSON object for programs, errors in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from tests.core.toy import TallyPlugin, TallyRules
from twofold.core import plugins
from twofold.core._presentation import Statistic
from twofold.core._rules import Mode
from twofold.core.session import FinishedGame
from twofold.core.store import open_store
from twofold.plugin import hookimpl
from twofold.ui.command.cli import main
from twofold.ui.command.stats import play_time, sparkline


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


#: a plugin's mode with statistics of its own, as a stranger would declare them
CHAINS = Mode(
    id="chains",
    title="Chain sum",
    rules=TallyRules(),
    statistics=(
        Statistic("sum_chains", "Chains", "total"),
        Statistic("largest", "Games reaching 9", "reached", name="reached_9", threshold=9),
    ),
)


class ChainsPlugin:
    @hookimpl
    def twofold_register_modes(self, register: object) -> None:
        register(CHAINS)  # type: ignore[operator]


@pytest.fixture(autouse=True)
def tally_modes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the toy modes, so the output does not depend on which variants are installed."""
    loaded = plugins.load(
        extra=[("tally", TallyPlugin()), ("chains", ChainsPlugin())], entry_points_=[]
    )
    # private: the command reads the process's registry, and core/plugins offers no setter
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
    assert tally["largest"] == 2048
    assert not {"reached_2048", "longest_chain", "merges"} & set(tally)  # the toy declares none
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


def test_a_gone_modes_history_shows_its_streaks(capsys: pytest.CaptureFixture[str]) -> None:
    # A mode whose plugin is gone still shows its history, with the rows its numbers need;
    # its own statistics went with its plugin (nothing else says how they add up).
    record(
        game("a", "gone-daily", day="2020-02-29", stats={"longest_chain": 6, "merges": 11}),
        game("b", "gone-daily", day="2020-02-28", stats={"longest_chain": 4, "merges": 2}),
    )
    assert main(["stats", "gone-daily"]) == 0
    out = capsys.readouterr().out
    assert "Longest streak" in out and "2 days" in out
    assert "Longest chain" not in out and "Merges" not in out
    assert main(["stats", "gone-daily", "--json"]) == 0
    gone = json.loads(capsys.readouterr().out)["modes"]["gone-daily"]
    assert gone["played"] == 2 and not {"longest_chain", "merges"} & set(gone)


def test_a_plugin_modes_own_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    record(
        game("a", "chains", largest=16, stats={"sum_chains": 4}),
        game("b", "chains", largest=8, stats={"sum_chains": 5}),
        game("c", "chains", stats={"sum_chains": 100}, counted=False),
    )
    assert main(["stats", "chains", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["modes"]["chains"]
    assert (data["sum_chains"], data["reached_9"]) == (9, 1)
    assert not {"reached_2048", "longest_chain", "merges"} & set(data)
    assert main(["stats", "chains"]) == 0
    out = capsys.readouterr().out
    assert "Chains" in out and "Games reaching 9" in out and "1 (50%)" in out
    assert "2048" not in out and "Longest chain" not in out and "Merges" not in out


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


def test_the_built_in_modes_keep_their_json_fields(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # private: as in tally_modes, no public setter of the process's registry
    monkeypatch.setattr(plugins, "_registry", plugins.load())
    record(
        game("a", "2048", largest=2048),
        game("b", "2048", largest=512),
        game("c", "2248-daily", day="2020-02-29", stats={"longest_chain": 6, "merges": 11}),
        game("d", "2248-daily", day="2020-02-28", stats={"longest_chain": 4, "merges": 2}),
    )
    assert main(["stats", "--json"]) == 0
    modes = json.loads(capsys.readouterr().out)["modes"]
    every = {"mode", "title", "played", "best", "average", "largest", "play_time", "tiles"}
    every |= {"current_streak", "longest_streak", "daily", "recent_scores"}
    assert set(modes["2048"]) == every | {"reached_2048"}
    assert modes["2048"]["reached_2048"] == 1
    daily = modes["2248-daily"]
    assert set(daily) == every | {"longest_chain", "merges"}
    assert (daily["longest_chain"], daily["merges"], daily["longest_streak"]) == (6, 13, 2)


def test_the_game_in_progress_counts_in_stats_without_being_played(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from twofold.core.session import Session

    with open_store() as store:
        session = Session(CHAINS, store)
        for _ in range(3):
            session.act("add")
        score = session.game.state.score
        session.close()
    assert main(["stats", "--json"]) == 0
    chains = json.loads(capsys.readouterr().out)["modes"]["chains"]
    assert chains["played"] == 0 and chains["best"] == score
    assert chains["largest"] == score and score in chains["tiles"]
    assert main(["stats", "chains"]) == 0
    assert f"{score:,}" in capsys.readouterr().out
