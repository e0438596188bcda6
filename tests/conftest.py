"""Suite-wide fixtures: no test ever touches the real player's data."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from twofold.core import plugins


@pytest.fixture(autouse=True)
def twofold_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty TWOFOLD_HOME for every test."""
    home = tmp_path / "twofold-home"
    home.mkdir()
    monkeypatch.setenv("TWOFOLD_HOME", str(home))
    monkeypatch.delenv("TWOFOLD_NO_PLUGINS", raising=False)
    plugins.reset()
    yield home
    plugins.reset()
