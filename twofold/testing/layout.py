"""Board shapes keep the contract: the places a mode's layout leaves out hold NO_CELL and
nothing else, always; no event and no hint names one; R (``read_board``) never says one."""

from __future__ import annotations

import re
from typing import Any

from twofold.core._layout import NO_CELL, check_board
from twofold.core._rules import Mode
from twofold.testing.player import played
from twofold.testing.stones import _cells_named

#: a cell as a command writes it (``place 1,2``, ``chain 0,0 0,1``)
_CELL_TEXT = re.compile(r"(\d+),(\d+)")


def check_layout(mode: Mode, *, actions: int = 200, seed: int = 0) -> None:
    """Random play keeps every place that is no cell of the mode's layout holding NO_CELL,
    never named by an event or the hint, never said by R; a mode with no layout passes."""
    layout = mode.layout
    if layout is None:
        return
    said = False
    for game, action, _before, events in played(mode, actions, seed):
        state = game.state
        try:
            check_board(state.board, layout)
        except ValueError as error:
            raise AssertionError(f"{mode.id}: after {action!r} {error}") from None
        for event in events:
            named = sorted(cell for cell in _cells_named(event) if cell not in layout)
            assert not named, (
                f"{mode.id}: {action!r}: event {event.kind!r} names {named[0]}, which is no "
                f"cell of the layout"
            )
        _check_hint(mode, state)
        if not said:
            _check_said(mode, state)
            said = True


def _check_hint(mode: Mode, state: Any) -> None:
    hint = mode.hint(state) if mode.hint is not None else None
    if hint is None or mode.layout is None:
        return
    named = [*hint.cells, *((int(r), int(c)) for r, c in _CELL_TEXT.findall(hint.action))]
    off = [cell for cell in named if cell not in mode.layout]
    assert not off, f"{mode.id}: the hint {hint.action!r} names {off[0]}, which is no cell"


def _check_said(mode: Mode, state: Any) -> None:
    lines = mode.rules.read_board(state)
    said = str(NO_CELL)
    for line in lines:
        assert said not in line.replace(",", " ").split(), (
            f"{mode.id}: read_board says {said} ({line!r}): a place that is no cell is "
            f"never read aloud"
        )
