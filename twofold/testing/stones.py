"""Stones keep the contract: a board holds 0, tiles above 0 and STONE only; a stone never
moves, merges or goes away; R (``read_board``) and ``--plain`` (``render_text``) say it."""

from __future__ import annotations

from typing import Any

from twofold.core._events import Event
from twofold.core._rules import Mode
from twofold.core._stones import STONE, STONE_MARK, stones_on, value_words
from twofold.testing.player import played

#: the fields of an event that name a cell a tile is in, comes from or goes to
_CELL_FIELDS = ("cell", "source", "target")


def _cells_named(event: Event) -> set[tuple[int, int]]:
    named = {getattr(event, name) for name in _CELL_FIELDS if hasattr(event, name)}
    if event.kind in ("merged", "moved", "appeared", "fell"):
        named |= set(getattr(event, "cells", ()))
    return named


def _check_values(mode: Mode, board: Any, action: str) -> None:
    layout = mode.layout_of(board)
    odd = sorted({board[r][c] for r, c in layout.cells if board[r][c] < 0} - {STONE})
    assert not odd, (
        f"{mode.id}: after {action!r} a cell holds {odd[0]}: a cell is 0 (empty), a tile "
        f"above 0, or STONE ({STONE})"
    )


def check_stones(mode: Mode, *, actions: int = 200, seed: int = 0) -> None:
    """Random play keeps every stone where it is, untouched by any event, and said by R and
    ``--plain``; a mode with no stones passes at once."""
    said = False
    for game, action, before, events in played(mode, actions, seed):
        after = game.state.board
        _check_values(mode, after, action)
        stones = set(stones_on(before.board))
        if not stones:
            continue
        kept = set(stones_on(after))
        assert stones <= kept, (
            f"{mode.id}: {action!r} took the stone at {sorted(stones - kept)[0]} away"
        )
        for event in events:
            touched = _cells_named(event) & (stones | kept)
            assert not touched, (
                f"{mode.id}: {action!r}: event {event.kind!r} names the stone at "
                f"{sorted(touched)[0]}: a stone never moves or merges"
            )
        if not said:
            _check_said(mode, game.state)
            said = True


def _check_said(mode: Mode, state: Any) -> None:
    rows = {r for r, _c in stones_on(state.board)}
    lines = mode.rules.read_board(state)
    word = value_words(STONE)
    for r in sorted(rows):
        assert r < len(lines) and word in lines[r], (
            f"{mode.id}: read_board's row {r + 1} does not say {word!r} for its stone "
            f"(twofold.plugin.value_words says each cell)"
        )
    text = mode.rules.render_text(state)
    assert STONE_MARK in text, (
        f"{mode.id}: render_text shows no {STONE_MARK!r} for its stones "
        f"(twofold.plugin.value_mark marks each cell)"
    )
