"""A 2048 state as JSON, for the save's checkpoint (``Mode.codec``)."""

from __future__ import annotations

from typing import Any

from twofold.variants.classic2048.rules import SlideState
from twofold.variants.classic2048.slide import CELL_BITS


class SlideCodec:
    """Writes a ``size`` x ``size`` state as ``[code, packed, score, moves, draws]``."""

    def __init__(self, size: int) -> None:
        self.size = size

    def encode(self, state: SlideState) -> list[Any]:
        return [state.code, state.packed, state.score, state.moves, state.draws]

    def decode(self, data: Any) -> SlideState:
        if not isinstance(data, list) or len(data) != 5:
            raise ValueError("a 2048 state is a list of five")
        code, packed, *counts = data
        if not isinstance(code, str) or not all(type(n) is int and n >= 0 for n in data[1:]):
            raise ValueError("a 2048 state holds a code and four whole numbers")
        if packed >= 1 << (CELL_BITS * self.size * self.size):
            raise ValueError("the board does not fit its size")
        score, moves, draws = counts
        return SlideState(code, self.size, packed, score, moves, draws)
