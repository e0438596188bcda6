"""Promises of the line modes and the command line: no 2048 hint, Daily only on today's
board, power-ups in the status line, cells from 0 in JSON errors, ``new extra``."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator

import pytest

from twofold.core.codes import code_from_text
from twofold.core.daily import daily_code, utc_today
from twofold.core.plugins import registry
from twofold.core.session import Session
from twofold.core.store import SqliteStore, open_store
from twofold.ui.command.cli import main
from twofold.ui.lines import run_lines

CODE = code_from_text("promises kept")
#: a friend's board from another day (the code the reported case used)
OTHER = "KAF3Q0D0"


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def replies(session: Session, commands: list[str], *, json_mode: bool) -> list[str]:
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return out.getvalue().splitlines()


def session_of(store: SqliteStore, mode_id: str, code: str | None = CODE) -> Session:
    session = Session(registry().mode(mode_id), store)
    if code is not None:
        session.new_game(code)
    return session


def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """``twofold ARGV`` in this process, fed ``quit``; what it printed."""
    stdin = io.TextIOWrapper(io.BytesIO(b"quit\n"), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


# -- 2. 2048 has no per-move hint, anywhere --------------------------------------------------------


def test_2048_line_modes_offer_no_hint(store: SqliteStore) -> None:
    for mode_id in ("2048", "2048-5x5", "2048-daily"):
        assert registry().mode(mode_id).hint is None
        plain = "\n".join(replies(session_of(store, mode_id), ["help"], json_mode=False))
        assert "hint" not in plain.lower()
        last = json.loads(replies(session_of(store, mode_id), ["hint"], json_mode=True)[-1])
        assert "hint_action" not in last and "hint" not in last
        assert last["error"] == "this mode has no hint"
    assert registry().mode("2048").autoplayer is not None  # Watch the solver and solve stay


# -- 3. only the day's own code is that day's Daily ------------------------------------------------


def test_a_daily_mode_on_another_code_is_practice_and_daily_opens_today(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store() as store:
        session = Session(registry().mode("2248-daily"), store)
        session.new_game(OTHER)  # twofold play 2248-daily --code KAF3Q0D0 --json
        mode = session.mode

        def play_out() -> Iterator[str]:
            while not session.game.over:
                hint = mode.hint(session.game.state)  # type: ignore[misc]
                assert hint is not None
                yield hint.action + "\n"

        out = io.StringIO()
        run_lines(session, json_mode=True, stdin=play_out(), stdout=out)
        first = json.loads(out.getvalue().splitlines()[0])
        assert first["practice"] is True
        assert session.game.over
    stats = json.loads(cli(monkeypatch, capsys, "stats", "2248-daily", "--json"))
    record = stats["modes"]["2248-daily"]
    assert record["played"] == 0
    assert record["current_streak"] == 0 and record["best"] == 0
    reply = json.loads(cli(monkeypatch, capsys, "daily", "--json").splitlines()[0])
    assert reply["code"] == daily_code("2248-daily", utc_today())
    assert reply["merges_left"] == 30 and reply["moves"] == 0
    assert "practice" not in reply


# -- 10. the small things in the line modes --------------------------------------------------------


def test_plain_status_names_the_power_ups_held(store: SqliteStore) -> None:
    session = session_of(store, "2248")
    hint = session.mode.hint(session.game.state)  # type: ignore[misc]
    assert hint is not None
    from twofold.ui.cells import for_people

    lines = replies(session, [for_people(hint.action)], json_mode=False)
    status = [line for line in lines if "Score" in line and "·" in line]
    assert len(status) == 2  # at the start and after the chain
    assert all(line.endswith("Hammer 1, Swap 1, Shuffle 1, Undo 1") for line in status), status


def test_json_errors_count_cells_from_0_and_plain_from_1(store: SqliteStore) -> None:
    session = session_of(store, "2248")
    errors = [
        json.loads(line).get("error")
        for line in replies(
            session, ["chain 0,0 0,0", "chain 0,0 2,2", "swap 0,0 2,2"], json_mode=True
        )
    ][1:]
    assert errors == [
        "cell (0,0) is used twice",
        "cells (0,0) and (2,2) do not touch",
        "cells (0,0) and (2,2) do not touch",
    ]
    plain = replies(session_of(store, "2248"), ["chain 1,1 1,1", "swap 1,1 3,3"], json_mode=False)
    assert "Not allowed: cell (1,1) is used twice" in plain
    assert "Not allowed: cells (1,1) and (3,3) do not touch" in plain


@pytest.mark.parametrize("json_mode", [True, False])
def test_new_with_an_argument_says_new_takes_none(store: SqliteStore, json_mode: bool) -> None:
    session = session_of(store, "2048")
    code = session.game.code
    lines = replies(session, ["new extra", "restart now"], json_mode=json_mode)
    text = "\n".join(lines)
    assert "new takes no argument" in text and "restart takes no argument" in text
    assert "unknown command" not in text
    assert session.game.code == code
