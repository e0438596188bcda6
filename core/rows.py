"""What a store keeps of a game: its save (the log) and, once it ends, its finished row."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class FinishedGame:
    """One row of the history of finished games, from which records are computed.

    Recording the same ``game_id`` again replaces the row (a game brought back by
    Last game, or played on after undo at game over, is still one game). The game in
    progress is summed up the same way (its ``live`` row), so records include it.
    """

    game_id: str
    mode_id: str
    code: str
    score: int
    largest: int
    moves: int
    elapsed: float
    counted: bool
    won: bool
    tiles: tuple[int, ...]
    stats: Mapping[str, int]
    day: str | None
    finished_at: float


#: a save's flag: its game was over when it was written (a finished game, as the menu tells
#: it from one in progress without replaying it); never a flag of the game itself
OVER = "over"


@dataclass(frozen=True)
class SavedGame:
    """A game as stored: its log, not its board."""

    mode_id: str
    code: str
    actions: tuple[str, ...]
    elapsed: float = 0.0
    flags: Mapping[str, bool] | None = None
    position: Mapping[str, Any] | None = None
    #: the date a daily game belongs to (ISO), so a new day starts a new daily
    day: str | None = None
    game_id: str = ""
    #: the game so far, summed up as its finished row would be, so records include it
    live: FinishedGame | None = None
    #: actions of a damaged tail that could not be read (the save resumes before them)
    lost: int = 0
    #: the game's state at one action of its log (see twofold.core.checkpoint), or None;
    #: a save written with None keeps the checkpoint its game already has
    checkpoint: Mapping[str, Any] | None = None


class NewerSave(ValueError):
    """A save written by a newer twofold (a higher format): kept as it is, for that twofold."""
