"""The Sample: a fixed game the solver played, opened 240 moves in.

The moves are stored as data in ``sample.json`` (written once by
``benchmarks/make_2048_sample.py``), so improving the solver later never changes the
Sample; replaying them through the rules rebuilds the game and its undo history.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

SAMPLE_FILE = "sample.json"


@cache
def samples() -> dict[str, Any]:
    """The stored samples, by board size (``"4"``, ``"5"``, ``"6"``)."""
    text = files(__package__).joinpath(SAMPLE_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)["samples"]
    return data
