"""A 2248 state as JSON, for the save's checkpoint (``Mode.codec``).

The power-ups held are an object by id. A checkpoint written before a power-up was added
lacks it and reads as holding none; one written before the counts were an object (with
``hammer``, ``swap``, ``shuffle`` and ``undo`` beside the other counts) reads the same.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from twofold.variants.chain2248.board import COLS, ROWS
from twofold.variants.chain2248.powerups import POWERUPS
from twofold.variants.chain2248.state import ChainState

_COUNTS = tuple(
    f.name for f in fields(ChainState) if f.name not in ("code", "board", "retired", "powerups")
)
#: the power-ups a checkpoint held as counts of their own, before ``powerups``
_FIRST_POWERUPS = ("hammer", "swap", "shuffle", "undo")


class ChainCodec:
    """Writes a state as a JSON object of its fields (the board as lists of rows)."""

    def encode(self, state: ChainState) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(state, name) for name in _COUNTS}
        data.update(code=state.code, board=[list(row) for row in state.board])
        data["retired"] = list(state.retired)
        data["powerups"] = {name: state.held(name) for name in POWERUPS}
        return data

    def decode(self, data: Any) -> ChainState:
        if not isinstance(data, dict):
            raise ValueError("a 2248 state is an object of its fields")
        data = dict(data)
        if "powerups" not in data and set(_FIRST_POWERUPS) <= set(data):
            data["powerups"] = {name: data.pop(name) for name in _FIRST_POWERUPS}
        if set(data) != {*_COUNTS, "code", "board", "retired", "powerups"}:
            raise ValueError("a 2248 state is an object of its fields")
        board, retired, code = data["board"], data["retired"], data["code"]
        if not isinstance(code, str) or not _whole_list(retired):
            raise ValueError("a 2248 state's code or retired values are damaged")
        if not isinstance(board, list) or len(board) != ROWS:
            raise ValueError("a 2248 board has 8 rows")
        if not all(_whole_list(row) and len(row) == COLS for row in board):
            raise ValueError("a 2248 row has 5 tiles")
        held = data["powerups"]
        if not isinstance(held, dict) or not set(held) <= set(POWERUPS):
            raise ValueError("a 2248 state holds power-ups this version does not know")
        counts = {name: data[name] for name in _COUNTS}
        left = counts.pop("merges_left")
        whole = [*counts.values(), *held.values()]
        if not _whole_list(whole) or not (left is None or _whole_list([left])):
            raise ValueError("a 2248 state's counts are whole numbers")
        return ChainState(
            code=code,
            board=tuple(tuple(row) for row in board),
            retired=tuple(retired),
            merges_left=left,
            powerups={name: held.get(name, 0) for name in POWERUPS},
            **counts,
        )


def _whole_list(values: Any) -> bool:
    return isinstance(values, list) and all(type(v) is int and v >= 0 for v in values)
