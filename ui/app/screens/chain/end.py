"""How a chain game ends: the rescue offer on a stuck board, the end, and the result.

Each is a message the chain screen posts when it sees the board stuck or the game over,
and handles by showing its dialog; what the dialogs say is worked out here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.message import Message

from twofold.core._i18n import _
from twofold.core._presentation import Status
from twofold.core._rules import Mode, largest_tile
from twofold.core.game import Game
from twofold.core.result import mode_stats

#: a rescue offer: the power-up's id, its name, and whether it is free now
Offer = tuple[str, str, bool]


class Stuck(Message):
    """No chain is left, but a power-up the player holds can open one: offer it."""

    def __init__(self, offers: Sequence[Offer]) -> None:
        super().__init__()
        self.offers = tuple(offers)


class Over(Message):
    """The game is over: say why, then show the result."""

    def __init__(self, title: str, body: str) -> None:
        super().__init__()
        self.title = title
        self.body = body


class Finished(Message):
    """Show the result of the finished game."""

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title = title


def rescue_offers(mode: Mode, status: Status) -> list[Offer]:
    """What the mode says could open a chain on a stuck board (nothing: not stuck)."""
    names = {p.id: p.name for p in mode.powerups}
    return [(name, names.get(name, name), name in status.free) for name in status.rescues]


def why_over(game: Game, status: Status) -> tuple[str, str]:
    """The title and words of the dialog that says the game is over, and why."""
    if game.time_up:
        title, body = _("Time's up!"), _("The clock has run out.")
    elif game.flags.ended:  # ended with End game, and opened again
        title, body = _("Game over"), _("The game is over.")
    else:
        title = status.over or _("No more moves")
        body = _("The game is over.")
    return title, body + "\n" + _("Score {score}").format(score=game.state.score)


def result_lines(mode: Mode, state: Any, best: int) -> list[tuple[str, int | float]]:
    """The result's lines: score, best, the highest tile, and what the mode counts."""
    lines: list[tuple[str, int | float]] = [
        (_("Score"), state.score),
        (_("Best"), best),
        (_("Highest tile"), largest_tile(state.board)),
    ]
    own = mode_stats(mode, state)
    return lines + [(s.label, own[s.key]) for s in mode.statistics if s.key in own]
