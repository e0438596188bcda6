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

from twofold.core.game import Game
from twofold.core.rules import Mode

SAMPLE_FILE = "sample.json"


@cache
def samples() -> dict[str, Any]:
    """The stored samples, by board size (``"4"``, ``"5"``, ``"6"``)."""
    text = files(__package__).joinpath(SAMPLE_FILE).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)["samples"]
    return data


def sample_game(mode: Mode) -> Game:
    """The Sample for ``mode``'s board size, replayed; never counted towards records."""
    size = str(mode.size or 4)
    sample = samples().get(size)
    if sample is None:
        raise ValueError(f"there is no sample game for a {size}x{size} board")
    game = Game.replay(mode, sample["code"], sample["moves"])
    game.flags.uncounted = True
    return game
