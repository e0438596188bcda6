"""Every mistake on the command line is one line on stderr and exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from twofold.core.codes import code_from_text
from twofold.ui.command.cli import main

VALID = code_from_text("cli")


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        status = main(argv)
        raise SystemExit(status)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    return lines[0]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["play", "3000", "--json"], "unknown mode '3000'"),
        (["play", "2048", "--size", "7", "--json"], "no 7x7 board (sizes: 4, 5, 6)"),
        (["play", "2048", "--size", "x"], "invalid int value"),
        (["play", "2048", "--code", "ABC", "--json"], "has 3"),
        (["play", "2048", "--code", "ABCD*FGH", "--json"], "'*' at position 5"),
        (["play", "2048/ZZZZZZZZ", "--json"], "typo"),
        (["play", f"nope/{VALID}", "--json"], "unknown mode 'nope'"),
        (["play", "2048", "--position", "/no/such/file.json", "--json"], "cannot read position"),
        (["play", "2048", "--json", "--plain"], "not allowed with argument"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_mistakes_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    assert fragment in one_line_error(capsys, argv)


def test_a_position_file_that_is_not_json(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{board: nope")
    assert "not valid JSON" in one_line_error(
        capsys, ["play", "2048", "--position", str(bad), "--json"]
    )


def test_a_position_the_rules_refuse(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "three.json"
    bad.write_text('{"board": [[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}')
    assert "bad position" in one_line_error(
        capsys, ["play", "2048", "--position", str(bad), "--json"]
    )


def test_help_works_for_every_command() -> None:
    for argv in (["--help"], ["play", "--help"], ["daily", "--help"], ["plugins", "--help"]):
        result = subprocess.run(
            [sys.executable, "-m", "twofold.ui.command.cli", *argv], capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        assert "usage: twofold" in result.stdout


def test_plugins_lists_the_builtin_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "classic2048 (twofold): 2048, 2048-5x5, 2048-6x6, 2048-daily" in out
