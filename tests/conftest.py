"""Suite-wide fixtures: no test ever touches the real player's data."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from twofold.core import i18n, plugins


def pytest_configure(config: pytest.Config) -> None:
    """English everywhere, whatever the machine's locale or the player's stored language:
    strings made at import time, every test, and every subprocess a test starts."""
    for variable in i18n.LANGUAGE_VARIABLES:
        os.environ.pop(variable, None)
    os.environ["LANG"] = "C.UTF-8"
    i18n.set_language("en")


@pytest.fixture(autouse=True)
def twofold_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty TWOFOLD_HOME for every test."""
    home = tmp_path / "twofold-home"
    home.mkdir()
    monkeypatch.setenv("TWOFOLD_HOME", str(home))
    monkeypatch.delenv("TWOFOLD_NO_PLUGINS", raising=False)
    plugins.reset()
    i18n.set_language("en")
    yield home
    plugins.reset()
