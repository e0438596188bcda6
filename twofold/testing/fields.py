"""Every documented field of a mode does what the docs say, for states met in random play."""

from __future__ import annotations

from typing import Any

from twofold.core._presentation import BUILTIN_GAUGES, BUILTIN_STATISTICS
from twofold.core._rules import Mode, Refused
from twofold.core.game import Game
from twofold.testing.player import random_game


def check_fields(mode: Mode, *, seed: int = 0) -> None:
    """Every documented field does what its docs say, for states met in random play."""
    game = random_game(mode, seed, length=30)
    state = game.state
    stats = mode.rules.stats(state)
    assert all(type(v) is int for v in stats.values()), f"{mode.id}: stats are not whole numbers"
    for statistic in mode.statistics:
        assert statistic.key in BUILTIN_STATISTICS or statistic.key in stats, (
            f"{mode.id}: statistic {statistic.label!r} reads {statistic.key!r}, "
            f"which Rules.stats does not give"
        )
    status = mode.status_of(state)
    for gauge in mode.gauges:
        if gauge.key not in BUILTIN_GAUGES:
            assert gauge.key in status.gauges, f"{mode.id}: gauge {gauge.key!r} gets no value"
            assert isinstance(status.gauges[gauge.key], str), f"{mode.id}: a gauge is not text"
    offered = {p.id for p in mode.powerups}
    held = {name for name, count in status.powerups.items() if count}
    assert held <= offered, f"{mode.id}: status counts power-ups it does not offer: {held}"
    assert all(type(v) is int and v > 0 for v in status.upcoming), (
        f"{mode.id}: upcoming holds a value that is not a tile"
    )
    if mode.rules.is_over(state):
        assert isinstance(status.over, str)
    for page in mode.tutorial:
        assert page.title and page.text, f"{mode.id}: a tutorial page says nothing"
    if mode.hint is not None:
        _check_hint(mode, game)
    if mode.judge is not None and mode.controls == "place":
        _check_place_judge(mode, state)
    if mode.sample is not None:
        sample = mode.sample()
        if sample is not None:
            Game.replay(mode, sample.code, list(sample.actions))
    assert mode.aim_after_goal() is None or mode.aim_after_goal() > (mode.goal or 0)


def _check_hint(mode: Mode, game: Game) -> None:
    assert mode.hint is not None
    hint = mode.hint(game.state)
    if hint is None:
        return
    action = mode.rules.parse(hint.action)
    try:
        outcome = mode.rules.apply(game.state, action)
    except Refused as refusal:
        raise AssertionError(f"{mode.id}: its hint {hint.action!r} is refused: {refusal}") from None
    board = game.state.board
    assert all(0 <= r < len(board) and 0 <= c < len(board[0]) for r, c in hint.cells), (
        f"{mode.id}: the hint's cells {hint.cells} are not on the board"
    )
    assert outcome.changed, f"{mode.id}: its hint {hint.action!r} changes nothing"


def _check_place_judge(mode: Mode, state: Any) -> None:
    """The judge of a place mode says "fits" exactly where the rules take the action."""
    assert mode.judge is not None
    rows, columns = len(state.board), len(state.board[0])
    if mode.place == "column":
        places = [((0, c), f"place {c}") for c in range(columns)]
    else:
        places = [((r, c), f"place {r},{c}") for r in range(rows) for c in range(columns)]
    for cell, action in places:
        verdict = mode.judge(state, [cell])
        try:
            mode.rules.apply(state, mode.rules.parse(action))
            taken = True
        except Refused:
            taken = False
        assert verdict.fits == taken, (
            f"{mode.id}: the judge says {verdict} of {action!r}, the rules "
            f"{'take' if taken else 'refuse'} it"
        )
