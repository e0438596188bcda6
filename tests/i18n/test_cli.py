"""The command line in German: --help, argparse's own words and twofold's errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from twofold.core import _i18n as i18n
from twofold.core.settings import Settings
from twofold.core.store import open_store
from twofold.ui.command.cli import main

ENGLISH_WORDS = ("usage", "show this help", "options", "positional", "COMMAND", "MODE", "see ")


def run_cli(*argv: str, home: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in i18n.LANGUAGE_VARIABLES}
    env.update(environ, TWOFOLD_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "twofold.ui.command.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def test_help_in_german_from_the_environment(twofold_home: Path) -> None:
    result = run_cli("--help", home=twofold_home, LANG="de_DE.UTF-8")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Aufruf: twofold")
    assert "Optionen:" in result.stdout
    assert "Rekorde und Statistik je Modus" in result.stdout
    for word in ENGLISH_WORDS:
        assert word not in result.stdout


def test_the_setting_wins_over_the_environment(twofold_home: Path) -> None:
    store = open_store()
    store.save_settings(Settings(language="de"))
    store.close()
    result = run_cli("play", "--help", home=twofold_home, LANG="en_US.UTF-8")
    assert result.returncode == 0, result.stderr
    assert "Aufruf: twofold play" in result.stdout
    assert "--position DATEI" in result.stdout
    for word in ENGLISH_WORDS:
        assert word not in result.stdout


@pytest.mark.parametrize(
    ("argv", "german"),
    [
        (["play", "3000"], "unbekannter Modus '3000'"),
        (["play", "2048", "--size", "x"], "ungültiger int-Wert"),
        (["daily", "12"], "es gibt kein Tagesspiel für 12"),
        (["frobnicate"], "ungültige Wahl"),
        (["play", "2048", "--json", "--plain"], "nicht zusammen mit dem Argument"),
    ],
)
def test_mistakes_are_one_german_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], german: str
) -> None:
    i18n.set_language("de")
    try:
        status = main(argv)
    except SystemExit as stop:
        status = int(stop.code or 0)
    err = capsys.readouterr().err
    assert status == 2
    assert german in err
    assert len(err.strip().splitlines()) == 1
    assert "see " not in err and "error" not in err
