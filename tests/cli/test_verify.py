"""``twofold verify``: the figures a proof replays to, exit 0 / 1 / 2, offline."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

from twofold.core.daily import daily_code, utc_today
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.result import result_text
from twofold.ui.command.cli import main


def daily_result(moves: int = 60, undo: bool = False) -> tuple[Game, str]:
    mode = registry().mode("2048-daily")
    game = Game.start(mode, daily_code(mode.id, utc_today()))
    rng = random.Random(5)
    while not game.over and len(game.log) < moves:
        game.act(rng.choice(["left", "down", "right", "up"]))
        if undo and len(game.log) == 3:
            game.act("undo")
    return game, result_text(game, day=utc_today())


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


def test_a_pasted_result_verifies_with_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    game, text = daily_result(undo=True)
    status, out, err = run(capsys, ["verify", text])
    assert (status, err) == (0, "")
    assert f"Score: {game.state.score}" in out
    assert f"Day: {utc_today().isoformat()}" in out
    assert f"Moves: {game.state.moves}" in out
    assert "Played: with undo" in out
    assert "Mode: 2048 Daily (2048-daily)" in out


def test_the_proof_line_alone_verifies_and_json_says_the_same(
    capsys: pytest.CaptureFixture[str],
) -> None:
    game, text = daily_result()
    status, out, _err = run(capsys, ["verify", "--json", text.splitlines()[-1]])
    figures = json.loads(out)
    assert status == 0
    assert figures["verified"] is True
    assert (figures["mode"], figures["code"], figures["day"]) == (
        "2048-daily",
        game.code,
        utc_today().isoformat(),
    )
    assert (figures["score"], figures["moves"], figures["played"]) == (
        game.state.score,
        game.state.moves,
        "unassisted",
    )
    assert figures["assisted"] is False


def test_stdin_is_read_for_a_dash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _game, text = daily_result()
    monkeypatch.setattr(sys, "stdin", io.StringIO(text + "\n"))
    assert run(capsys, ["verify", "-"])[0] == 0


def test_a_headline_that_claims_more_is_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    game, text = daily_result()
    forged = text.replace(f"Score {game.state.score} ", f"Score {game.state.score + 4} ", 1)
    status, out, err = run(capsys, ["verify", forged])
    assert status == 1
    assert f"Score: {game.state.score}" in out  # the true figures are still said
    assert f"claims {game.state.score + 4} for the score" in err


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda proof: proof[:-3], "check does not match"),
        (lambda proof: proof[:20] + ("A" if proof[20] != "A" else "B") + proof[21:], "check"),
        (lambda proof: "hello", "not a twofold proof"),
        (lambda proof: "TF9" + proof[3:], "format 9"),
    ],
)
def test_an_unreadable_proof_is_status_2_in_one_line(
    capsys: pytest.CaptureFixture[str], change, fragment: str
) -> None:
    _game, text = daily_result()
    proof = text.splitlines()[-1]
    status, out, err = run(capsys, ["verify", change(proof)])
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert fragment in err


@pytest.mark.parametrize("digits", [31, 5000, 100_000])
def test_a_headline_figure_of_any_length_is_status_2_never_a_crash(
    capsys: pytest.CaptureFixture[str], digits: int
) -> None:
    game, text = daily_result()
    forged = text.replace(f"Score {game.state.score} ", f"Score {'9' * digits} ", 1)
    status, out, err = run(capsys, ["verify", forged])
    assert (status, out) == (2, "")
    assert len(err.strip().splitlines()) == 1 and "too long" in err


def test_a_link_to_another_game_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    _game, text = daily_result()
    headline, _link, proof = text.splitlines()
    other = "\n".join([headline, "2048/" + daily_code("2048", utc_today()), proof])
    status, _out, err = run(capsys, ["verify", other])
    assert status == 2
    assert "the link names" in err


@pytest.mark.slow
def test_verify_runs_as_a_command_with_no_network_and_no_data(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _game, text = daily_result()
    done = subprocess.run(
        [sys.executable, "-m", "twofold", "verify", "--json"],
        input=text,
        capture_output=True,
        text=True,
        env={"TWOFOLD_HOME": str(tmp_path / "none"), "PATH": ""},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verified"] is True
    assert not (tmp_path / "none").exists()  # verifying opens no database
