"""What a 2248 action did, in words: announcements, the board read aloud, plain text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from twofold.core.events import (
    Appeared,
    Earned,
    Event,
    Merged,
    Moved,
    Praised,
    Removed,
    Undone,
    Used,
)
from twofold.core.i18n import _, an_before
from twofold.core.rules import Outcome
from twofold.variants.chain2248.board import COLS, Cell
from twofold.variants.chain2248.state import ChainState

#: the reason a retirement's ``removed`` event gives
RETIRED = "retired"


class Ending(Protocol):
    """What an announcement asks of the rules about the state an action leaves (ChainRules)."""

    def is_spent(self, state: ChainState) -> bool: ...

    def stuck(self, state: ChainState) -> bool: ...

    def rescues(self, state: ChainState) -> list[str]: ...


def N_(message: str) -> str:
    """Mark a string for translation where it is defined; ``_()`` translates it when shown."""
    return message


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

_POWERUP_NAMES = {
    "hammer": N_("Hammer"),
    "swap": N_("Swap"),
    "shuffle": N_("Shuffle"),
    "undo": N_("Undo"),
}


def praise_for(length: int) -> str:
    """The English praise for a chain of ``length`` tiles, or "" below 6."""
    words = ""
    for least, text in PRAISE:
        if length >= least:
            words = text
    return words


def powerup_name(name: str) -> str:
    return _(_POWERUP_NAMES[name])


def cell_words(cell: Cell) -> str:
    """A cell for people: rows and columns count from 1 (row 1 is the top row)."""
    return _("row {row}, column {col}").format(row=cell[0] + 1, col=cell[1] + 1)


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
            parts.append(_used_words(event, events[index + 1 :], spawned))
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


def _used_words(event: Used, after: Sequence[Event], spawned: Sequence[Appeared]) -> str:
    cells = event.cells
    if event.powerup == "hammer":
        value = next((e.value for e in after if isinstance(e, Removed)), 0)
        text = _("Hammer removed the {value} at {cell}.").format(
            value=value, cell=cell_words(cells[0])
        )
        if spawned:
            value = spawned[0].value
            # "an 8", "an 11", "a 16": English hears the number's first sound
            dropped = (
                _("An {value} dropped in.") if an_before(value) else _("A {value} dropped in.")
            )
            text += " " + dropped.format(value=value)
        return text
    if event.powerup == "swap":
        moved = [e for e in after if isinstance(e, Moved)][:2]
        a, b = (moved[0].value, moved[1].value) if len(moved) == 2 else (0, 0)
        return _("Swapped the {a} at {cell_a} with the {b} at {cell_b}.").format(
            a=a, b=b, cell_a=cell_words(cells[0]), cell_b=cell_words(cells[1])
        )
    if event.free:
        return _("Free shuffle: the tiles are mixed.")
    return _("Shuffled: the tiles are mixed.")


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
