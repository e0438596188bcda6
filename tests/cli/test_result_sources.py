"""The line modes' ``result`` and ``twofold solve --json`` give results whose proofs verify."""

from __future__ import annotations

import io
import json

import pytest

from twofold.core.plugins import registry
from twofold.core.session import MemoryStore, Session
from twofold.core.verify import verify
from twofold.ui.command.cli import main
from twofold.ui.lines import run_lines


def played(json_mode: bool, commands: list[str], mode_id: str = "2048") -> list[str]:
    session = Session(registry().mode(mode_id), MemoryStore())
    out = io.StringIO()
    run_lines(session, json_mode=json_mode, stdin=iter(commands), stdout=out)
    return out.getvalue().splitlines()


def test_json_result_is_the_result_text_and_verifies() -> None:
    replies = [json.loads(line) for line in played(True, ["left", "up", "undo", "result"])]
    result = replies[-1]["result"]
    assert result.splitlines()[0].startswith("twofold 2048: Score ")
    verified = verify(result)
    assert verified.status == 0
    assert verified.score == replies[-1]["score"]
    assert verified.played == "undo"
    assert "result" in [c["word"] for c in replies[0]["commands"]]


def test_plain_result_says_the_three_lines() -> None:
    lines = played(False, ["left", "right", "result"])
    proof = next(line for line in lines if line.startswith("TF2"))
    assert verify(proof).status == 0


def test_a_hint_asked_for_is_in_the_proof() -> None:
    replies = [json.loads(line) for line in played(True, ["hint", "result"], "2248")]
    assert verify(replies[-1]["result"]).played == "hints"


def test_result_takes_no_argument() -> None:
    replies = [json.loads(line) for line in played(True, ["result now"])]
    assert "takes no argument" in replies[-1]["error"]


def test_solve_json_gives_a_result_per_game_played_by_a_program(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["solve", "2048", "--games", "2", "--workers", "1", "--stop-at", "64", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert status == 0
    for game in summary["results"]:
        verified = verify(game["result"])
        assert verified.status == 0
        assert (verified.score, verified.code) == (game["score"], game["code"])
        assert verified.played == "program"
