"""A replayed action in words, as the app tells it, with where a chain began.

The app's announcement (the line under its board, what a screen reader hears) says what
an action made and where; a chain's start is drawn in the app, so on a replay it is said
too. Rows and columns are counted from 1, as everywhere people read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from twofold.core._events import Merged
from twofold.core._i18n import _
from twofold.core._rules import Mode
from twofold.core.game import Step


def cell_words(cell: Sequence[int]) -> str:
    """``(0, 2)`` as people say it: ``row 1, column 3``."""
    return _("row {row}, column {column}").format(row=cell[0] + 1, column=cell[1] + 1)


def step_words(mode: Mode, step: Step) -> str:
    """What ``step`` did, in the app's words; a chain says where it began first."""
    said = step.announcement
    if mode.controls != "chain":
        return said
    chain = next((e for e in step.events if isinstance(e, Merged) and len(e.cells) >= 2), None)
    if chain is None:
        return said
    start = _("Chain from {cell}:").format(cell=cell_words(chain.cells[0]))
    return f"{start} {said}"
