"""In the line modes, a game is kept from its first reply, with the game one step
back, and a game ended or run out of time is over for good."""

from __future__ import annotations

import io
import json
import sys

import pytest

from twofold.ui.command.cli import main


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *argv: str,
    commands: tuple[str, ...] = ("quit",),
) -> list[dict[str, object]]:
    """``twofold ARGV --json`` in this process, fed ``commands``; its replies."""
    lines = "".join(command + "\n" for command in commands).encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(lines), encoding="utf-8"))
    capsys.readouterr()
    assert main([*argv, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


# -- 2. a game with no moves is kept -----------------------------------------------------------


def test_a_game_with_no_moves_is_resumed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = play(monkeypatch, capsys, "play", "2048")[0]
    assert play(monkeypatch, capsys, "play", "2048")[0]["code"] == first["code"]
    restarted = play(monkeypatch, capsys, "play", "2048", commands=("restart", "quit"))
    assert restarted[1]["code"] == first["code"]
    assert play(monkeypatch, capsys, "play", "2048")[0]["code"] == first["code"]
    play(monkeypatch, capsys, "play", "2048/MT7E-WN79")  # a shared game, left unplayed
    assert play(monkeypatch, capsys, "play", "2048")[0]["code"] == "MT7EWN79"
