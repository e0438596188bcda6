"""A 2248 state as JSON, for the save's checkpoint (``Mode.codec``)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from twofold.variants.chain2248.board import COLS, ROWS
from twofold.variants.chain2248.state import ChainState

_COUNTS = tuple(f.name for f in fields(ChainState) if f.name not in ("code", "board", "retired"))


class ChainCodec:
    """Writes a state as a JSON object of its fields (the board as lists of rows)."""

    def encode(self, state: ChainState) -> dict[str, Any]:
        data: dict[str, Any] = {name: getattr(state, name) for name in _COUNTS}
        data.update(code=state.code, board=[list(row) for row in state.board])
        data["retired"] = list(state.retired)
        return data

    def decode(self, data: Any) -> ChainState:
        if not isinstance(data, dict) or set(data) != {*_COUNTS, "code", "board", "retired"}:
            raise ValueError("a 2248 state is an object of its fields")
        board, retired, code = data["board"], data["retired"], data["code"]
        if not isinstance(code, str) or not _whole_list(retired):
            raise ValueError("a 2248 state's code or retired values are damaged")
        if not isinstance(board, list) or len(board) != ROWS:
            raise ValueError("a 2248 board has 8 rows")
        if not all(_whole_list(row) and len(row) == COLS for row in board):
            raise ValueError("a 2248 row has 5 tiles")
        counts = {name: data[name] for name in _COUNTS}
        left = counts.pop("merges_left")
        if not _whole_list(list(counts.values())) or not (left is None or _whole_list([left])):
            raise ValueError("a 2248 state's counts are whole numbers")
        return ChainState(
            code=code,
            board=tuple(tuple(row) for row in board),
            retired=tuple(retired),
            merges_left=left,
            **counts,
        )


def _whole_list(values: Any) -> bool:
    return isinstance(values, list) and all(type(v) is int and v >= 0 for v in values)
