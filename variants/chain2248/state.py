"""The state of a 2248 game: an immutable value."""

from __future__ import annotations

from dataclasses import dataclass

from twofold.core.rules import Board

#: the power-ups, in the order new highest tiles grant them
POWERUPS: tuple[str, ...] = ("hammer", "swap", "shuffle", "undo")
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
    hammer: int = 0
    swap: int = 0
    shuffle: int = 0
    undo: int = 0
    #: the values that will never appear again, smallest first
    retired: tuple[int, ...] = ()
    merges: int = 0
    longest_chain: int = 0
    #: the highest tile ever reached in this game (power-up grants and retirement)
    highest: int = 0
    #: merges still allowed (the daily budget), or None when there is no budget
    merges_left: int | None = None

    def held(self, powerup: str) -> int:
        return int(getattr(self, powerup))

    @property
    def powerups(self) -> dict[str, int]:
        return {name: self.held(name) for name in POWERUPS}
