"""Boards for the 2248 tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from twofold.core.rules import Mode
from twofold.variants.chain2248.board import COLS, ROWS, Cell
from twofold.variants.chain2248.modes import modes
from twofold.variants.chain2248.state import ChainState

#: four values that never touch their equal (a 4-colouring of the king graph)
FILLER = (8192, 16384, 32768, 65536)

MODES: dict[str, Mode] = {m.id: m for m in modes()}
CLASSIC = MODES["2248"]
DAILY = MODES["2248-daily"]
BLITZ = MODES["2248-blitz"]


def filler(r: int, c: int) -> int:
    return FILLER[(r % 2) * 2 + c % 2]


def board_with(tiles: Mapping[Cell, int]) -> list[list[int]]:
    """A stuck board of big tiles with ``tiles`` placed on it."""
    rows = [[filler(r, c) for c in range(COLS)] for r in range(ROWS)]
    for (r, c), v in tiles.items():
        rows[r][c] = v
    return rows


def state_with(tiles: Mapping[Cell, int], mode: Mode = CLASSIC, **extra: object) -> ChainState:
    return mode.rules.from_position({"board": board_with(tiles), **extra}, "7K3M9QXP")


def chain_text(cells: Iterable[Cell]) -> str:
    return "chain " + " ".join(f"{r},{c}" for r, c in cells)
