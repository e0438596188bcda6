"""The state of a 2248 game: an immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from twofold.plugin import Board

#: the most of one power-up a player can hold
MAX_POWERUP = 9


@dataclass(frozen=True)
class ChainState:
    code: str
    #: 8 rows of 5 tiles, top row first; always full
    board: Board
    score: int = 0
    #: actions that changed the game: merges and power-ups
    moves: int = 0
    #: how many draws of the deal the game has used
    draws: int = 0
    #: power-ups held, by id (see ``powerups.POWERUPS``); one missing is held 0 times, so
    #: a state written before a power-up was added reads the same. Never changed in place.
    powerups: Mapping[str, int] = field(default_factory=dict, hash=False)
    #: the values that will never appear again, smallest first
    retired: tuple[int, ...] = ()
    merges: int = 0
    longest_chain: int = 0
    #: the highest tile ever reached in this game (power-up grants and retirement)
    highest: int = 0
    #: merges still allowed (the daily budget), or None when there is no budget
    merges_left: int | None = None

    def held(self, powerup: str) -> int:
        return int(self.powerups.get(powerup, 0))
