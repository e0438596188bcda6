"""A game summed up as its finished row keeps it: one function for the live and the finished row.

The game in progress is kept in its save as the row it would be if it ended now (its
``live`` row), so the records include it; the finished row is the same summary, with the
day a daily game completes and the moment it ends.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from twofold.core._rules import largest_tile, tile_values
from twofold.core.faults import rules_faults
from twofold.core.game import Game
from twofold.core.rows import FinishedGame


def stats_of(game: Game, plugin: str | None = None) -> dict[str, int]:
    """The mode's ``Rules.stats`` of the game's state (a fault of the rules: PluginFault)."""
    with rules_faults(game.mode, plugin):
        return dict(game.mode.rules.stats(game.state))


def summary(
    game: Game, stats: Mapping[str, int], *, day: str | None = None, at: float | None = None
) -> FinishedGame:
    """A game's figures as its finished row keeps them (the game in progress is summed up so too).

    ``stats`` are the mode's ``Rules.stats`` of the game's state; ``at`` the time it ends.
    """
    board = game.state.board
    return FinishedGame(
        game_id=game.game_id,
        mode_id=game.mode.id,
        code=game.code,
        score=game.state.score,
        largest=largest_tile(board),
        moves=game.state.moves,
        elapsed=game.elapsed,
        counted=not game.flags.uncounted,
        won=game.flags.won,
        tiles=tuple(sorted(game.reached | tile_values(board))),
        stats=dict(stats),
        day=day,
        finished_at=time.time() if at is None else at,
    )
