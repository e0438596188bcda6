"""Starting a 2248 game from a position given as JSON (``--position FILE``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from twofold.plugin import PositionError, _
from twofold.variants.chain2248.board import COLS, ROWS, is_power_of_two
from twofold.variants.chain2248.powerups import POWERUPS
from twofold.variants.chain2248.state import MAX_POWERUP, ChainState

_KNOWN = {"board", "powerups", "score", "retired", "merges_left"}


def _whole(value: Any, what: str, *, least: int = 0, most: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(_("{what} must be a whole number").format(what=what))
    if value < least or (most is not None and value > most):
        limit = f"{least}..{most}" if most is not None else f">= {least}"
        raise PositionError(
            _("{what} must be {limit}, not {value}").format(what=what, limit=limit, value=value)
        )
    return value


def read_position(
    data: Mapping[str, Any],
    code: str,
    *,
    start: Mapping[str, int],
    merge_budget: int | None,
) -> ChainState:
    """A state from ``{"board": [[...]] (8 rows of 5), "powerups", "score", "retired"}``.

    The board's highest tile counts as already reached: it neither grants power-ups
    nor retires anything until a merge goes beyond it. ``start`` (the power-ups held at
    the start) and ``merge_budget`` are the mode's, as its ChainRules has them.
    """
    if not isinstance(data, Mapping):
        raise PositionError(_('a position is a JSON object with a "board"'))
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise PositionError(_("unknown field {name!r} in the position").format(name=unknown[0]))
    rows = data.get("board")
    if not isinstance(rows, list):
        raise PositionError(_('the position needs a "board": a list of 8 rows'))
    if len(rows) != ROWS:
        raise PositionError(
            _("a 2248 board has {rows} rows, this one has {n}").format(rows=ROWS, n=len(rows))
        )
    board: list[tuple[int, ...]] = []
    for r, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != COLS:
            raise PositionError(
                _("row {row} must be a list of {cols} tiles").format(row=r, cols=COLS)
            )
        for c, value in enumerate(row):
            if isinstance(value, bool) or not isinstance(value, int) or not is_power_of_two(value):
                raise PositionError(
                    _(
                        "row {row}, column {col}: {value!r} is not a power of two from 2 up "
                        "(the board is always full)"
                    ).format(row=r, col=c, value=value)
                )
        board.append(tuple(row))
    retired_data = data.get("retired", [])
    if not isinstance(retired_data, list):
        raise PositionError(_('"retired" must be a list of values'))
    for value in retired_data:
        if isinstance(value, bool) or not isinstance(value, int) or not is_power_of_two(value):
            raise PositionError(
                _("retired value {value!r} is not a power of two").format(value=value)
            )
    retired = tuple(sorted(set(retired_data)))
    on_board = {v for row in board for v in row}
    clash = sorted(on_board & set(retired))
    if clash:
        raise PositionError(_("{value} is retired but still on the board").format(value=clash[0]))
    held = {name: start.get(name, 0) for name in POWERUPS}
    powerups = data.get("powerups", {})
    if not isinstance(powerups, Mapping):
        raise PositionError(_('"powerups" must be an object such as {"hammer": 1}'))
    for name, count in powerups.items():
        if name not in POWERUPS:
            raise PositionError(
                _("unknown power-up {name!r} ({names})").format(
                    name=name, names=", ".join(POWERUPS)
                )
            )
        held[name] = _whole(count, _("power-up {name}").format(name=name), most=MAX_POWERUP)
    score = _whole(data.get("score", 0), _("the score"))
    merges_left = merge_budget
    if "merges_left" in data:
        if merge_budget is None:
            raise PositionError(_("this mode has no budget of merges"))
        merges_left = _whole(data["merges_left"], _("merges_left"))
    return ChainState(
        code=code,
        board=tuple(board),
        score=score,
        retired=retired,
        highest=max(on_board),
        merges_left=merges_left,
        powerups=held,
    )
