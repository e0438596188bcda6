"""Which games count for the records: not one on the Sample's code, nor a daily played again.

A game that does not count is still played, saved and kept in the history (its row says
``counted=False``); records leave it out. In a daily mode only the day's first game on the
day's own board counts; a game on another code, or the day's board played again, is
practice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from twofold.core.daily import daily_code
from twofold.core.game import Game
from twofold.core.storage import Store


def off_the_day(game: Game, today: date) -> bool:
    """A daily mode's game on another code than today's (a link, ``--code``): practice."""
    mode = game.mode
    return mode.daily and game.position is None and game.code != daily_code(mode.id, today)


def played_today(store: Store, game: Game) -> bool:
    """Whether the game's board was already played and counted (in any window)."""
    games = store.finished_games(game.mode.id, counted_only=True)
    return any(g.code == game.code for g in games)


def judge_daily(game: Game, store: Store, today: date) -> Game:
    """In a daily mode only the day's first game on the day's own board counts."""
    if not game.mode.daily or game.position is not None:
        return game
    if off_the_day(game, today) or played_today(store, game):
        game.flags.uncounted = game.flags.practice = True
    return game


def judge_new(
    game: Game, old: Game, store: Store, today: date, *, typed: bool, sample: Callable[[], str]
) -> Game:
    """Mark a new game that replaces ``old`` and must not count: on the Sample's code, or a
    daily tried again.

    Only a typed code (``--code``, a link) or the restart of a game that did not count
    may be the Sample's (a fresh code never is), so only then is ``sample`` (the code of
    the mode's Sample, "" when it has none) asked for.
    """
    if game.position is not None:
        return game
    maybe_sample = typed or (old.code == game.code and old.flags.uncounted)
    if maybe_sample and game.code == sample():
        game.flags.uncounted = True  # its tiles are known in advance
    if game.mode.daily and old.code == game.code and (old.started or old.flags.practice):
        game.flags.uncounted = game.flags.practice = True
    return judge_daily(game, store, today)
