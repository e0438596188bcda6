"""What a careful reader of the line modes sees: boards, numbers and words that agree."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.core.toy import TALLY
from twofold.core import plugins
from twofold.core._presentation import Status
from twofold.core.autoplay import milestones
from twofold.core.codes import code_from_text
from twofold.core.plugins import registry
from twofold.core.session import MemoryStore, Session
from twofold.core.store import SqliteStore, open_store
from twofold.plugin import hookimpl
from twofold.ui.command import solve
from twofold.ui.command.cli import main
from twofold.ui.lines import run_lines

CODE = code_from_text("what the lines say")
PROTOCOL = Path(__file__).parents[2] / "docs" / "protocol.md"
#: five values that never touch an equal one when each row is shifted by two
CYCLE = (8, 16, 32, 64, 128)


@pytest.fixture
def store() -> Iterator[SqliteStore]:
    with open_store() as opened:
        yield opened


def replies(session: Session, commands: list[str], *, json_mode: bool) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = run_lines(session, json_mode=json_mode, stdin=[c + "\n" for c in commands], stdout=out)
    return status, out.getvalue().splitlines()


def test_plain_2048_numbers_its_rows_and_columns_as_2248_does(store: SqliteStore) -> None:
    session = Session(registry().mode("2048"), store)
    session.new_game(CODE)
    _status, lines = replies(session, ["quit"], json_mode=False)
    board = lines[lines.index("Type help for the commands.") + 1 :][:5]
    assert board[0].split() == ["1", "2", "3", "4"]
    assert [line.split()[0] for line in board[1:]] == ["1", "2", "3", "4"]


def test_plain_at_game_over_says_why_in_the_modes_words(store: SqliteStore) -> None:
    board = [[CYCLE[(c + 2 * r) % 5] for c in range(5)] for r in range(8)]
    position = {"board": board, "powerups": {"hammer": 0, "swap": 0, "shuffle": 0, "undo": 0}}
    session = Session(registry().mode("2248"), store)
    session.new_game(CODE, position=position)
    why = registry().mode("2248").status_of(session.game.state).over
    assert why == "No more moves"
    _status, lines = replies(session, ["quit"], json_mode=False)
    over = lines.index(next(line for line in lines if line.startswith("Game over.")))
    assert lines[over - 1] == "No more moves."


def failing_after_the_first_move(state: Any) -> Status:
    if state.moves:
        raise KeyError("gauge")
    return Status()


def test_a_stopped_reply_carries_the_last_good_board_score_moves_and_over() -> None:
    session = Session(replace(TALLY, status=failing_after_the_first_move), MemoryStore())
    status, lines = replies(session, ["add", "add"], json_mode=True)
    start, stopped = (json.loads(line) for line in lines)
    assert status == 1 and stopped["stopped"] is True
    for field in ("mode", "code", "board", "score", "moves", "over"):
        assert stopped[field] == start[field], field  # the game as it was before the command


def test_a_status_failing_from_the_start_still_gives_every_field() -> None:
    def broken(state: Any) -> Status:
        raise KeyError("gauge")

    session = Session(replace(TALLY, status=broken), MemoryStore())
    status, lines = replies(session, [], json_mode=True)
    [stopped] = map(json.loads, lines)
    assert status == 1 and stopped["stopped"] is True
    assert {"board", "score", "moves", "over"} <= set(stopped)


def test_the_protocol_doc_counts_error_reasons_as_the_replies_do(store: SqliteStore) -> None:
    session = Session(registry().mode("2248"), store)
    session.new_game(CODE)
    _status, lines = replies(session, ["hammer 9,9"], json_mode=True)
    error = json.loads(lines[-1])["error"]
    assert error == "row 9 is off the board (rows 0 to 7)"  # from 0, as the command was
    doc = " ".join(PROTOCOL.read_text(encoding="utf-8").split())
    assert "the reasons in `error`, and everything `--plain`" not in doc
    assert "The reasons in `error` count from 0 too" in doc


# -- 12. twofold solve counts the goals the mode names ---------------------------------------------


class Adding:
    """An autoplayer for the tally: add until it is full."""

    def choose(self, state: Any) -> str | None:
        return None if state.value >= 12 else "add"


class NamedGoals:
    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register(replace(TALLY, goal=10, next_goal=11, autoplayer=lambda depth: Adding()))


def test_solve_counts_the_goals_the_mode_names_as_the_win_dialog_does(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    loaded = plugins.load([("goals", NamedGoals())], entry_points_=[])
    monkeypatch.setattr(solve, "registry", lambda: loaded)
    argv = ["solve", "tally", "--games", "1", "--workers", "1", "--code", CODE, "--json"]
    capsys.readouterr()
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert list(summary["reached"]) == ["10", "11"]  # the goal and the next aim, no 20/40/80
    assert loaded.mode("tally").aim_after_goal() == 11


@pytest.mark.parametrize(
    ("goal", "next_goal", "named"),
    [(2048, None, (2048, 4096, 8192, 16384)), (10, None, (10,)), (10, 11, (10, 11)), (None, 5, ())],
)
def test_milestones_are_the_goal_then_the_aims_after_it(
    goal: int | None, next_goal: int | None, named: tuple[int, ...]
) -> None:
    assert milestones(replace(TALLY, goal=goal, next_goal=next_goal)) == named
