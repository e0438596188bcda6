"""What a 2248 action did, in words: announcements, the board read aloud, plain text.

Each power-up's own words (its name, what it did) live in its row of ``powerups``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from twofold.plugin import (
    Appeared,
    Earned,
    Merged,
    Outcome,
    Praised,
    Removed,
    Undone,
    Used,
    _,
)
from twofold.variants.chain2248.board import COLS, cell_words
from twofold.variants.chain2248.powerups import N_, POWERUPS, powerup_name
from twofold.variants.chain2248.state import ChainState

#: the reason a retirement's ``removed`` event gives
RETIRED = "retired"


class Ending(Protocol):
    """What an announcement asks of the rules about the state an action leaves (ChainRules)."""

    def is_spent(self, state: ChainState) -> bool: ...

    def stuck(self, state: ChainState) -> bool: ...

    def rescues(self, state: ChainState) -> list[str]: ...


#: praise by chain length; 13 and longer is a Monster chain
PRAISE: tuple[tuple[int, str], ...] = (
    (6, N_("Nice chain")),
    (7, N_("Good chain")),
    (8, N_("Great chain")),
    (9, N_("Super chain")),
    (10, N_("Awesome chain")),
    (11, N_("Fantastic chain")),
    (12, N_("Incredible chain")),
    (13, N_("Monster chain")),
)


def praise_for(length: int) -> str:
    """The English praise for a chain of ``length`` tiles, or "" below 6."""
    words = ""
    for least, text in PRAISE:
        if length >= least:
            words = text
    return words


def announce(rules: Ending, before: ChainState, outcome: Outcome) -> str:
    """One line: what the action made, retired and earned, the score, and what is left."""
    state: ChainState = outcome.state
    parts: list[str] = []
    spawned = [e for e in outcome.events if isinstance(e, Appeared)]
    events = outcome.events
    for index, event in enumerate(events):
        if isinstance(event, Undone):
            parts.append(_("Undone."))
        elif isinstance(event, Merged):
            parts.append(
                _("{length} tiles made {value} at {cell}.").format(
                    length=len(event.cells), value=event.value, cell=cell_words(event.cell)
                )
            )
        elif isinstance(event, Praised):
            parts.append(_(event.word) + "!")
        elif isinstance(event, Earned):
            parts.append(
                _("New tile {tile}: one more {powerup}.").format(
                    tile=event.tile, powerup=powerup_name(event.powerup)
                )
            )
        elif isinstance(event, Removed) and event.reason == RETIRED:
            parts.append(_("The {value} has retired.").format(value=event.value))
        elif isinstance(event, Used):
            told = POWERUPS[event.powerup].told
            if told is not None:
                parts.append(told(event, events[index + 1 :], spawned))
    parts.append(_("Score {score}.").format(score=state.score))
    if state.merges_left is not None:
        parts.append(_("Merges left: {n}.").format(n=state.merges_left))
    if rules.is_spent(state):
        parts.append(_("No merges left."))
    elif rules.stuck(state):
        rescues = rules.rescues(state)
        if rescues:
            names = ", ".join(powerup_name(n) for n in rescues)
            parts.append(_("No chain left; a power-up can help: {names}.").format(names=names))
        else:
            parts.append(_("No more moves."))
    return " ".join(parts)


def read_board(board: Sequence[Sequence[int]]) -> list[str]:
    """Row by row, top first: ``Row 1: 2, 4, 8, 16, 32``."""
    return [
        _("Row {row}: {tiles}").format(row=r, tiles=", ".join(str(v) for v in row))
        for r, row in enumerate(board, start=1)
    ]


def render_text(board: Sequence[Sequence[int]]) -> str:
    """The board with row labels on the left and column labels on top, counted from 1."""
    width = max(len(str(v)) for row in board for v in row)
    width = max(width, 2)
    label = len(str(len(board)))
    header = " " * (label + 1) + " ".join(str(c).rjust(width) for c in range(1, COLS + 1))
    lines = [header]
    for r, row in enumerate(board, start=1):
        lines.append(str(r).rjust(label) + " " + " ".join(str(v).rjust(width) for v in row))
    return "\n".join(lines)
