"""Boards for the 2248 tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from twofold.core._rules import Mode
from twofold.variants.chain2248.board import COLS, ROWS, Cell
from twofold.variants.chain2248.modes import modes
from twofold.variants.chain2248.state import ChainState

#: four values that never touch their equal (a 4-colouring of the king graph)
FILLER = (8192, 16384, 32768, 65536)
#: the same pattern with small values, for boards whose highest tile must stay low
LOW_FILLER = (8, 16, 32, 64)

MODES: dict[str, Mode] = {m.id: m for m in modes()}
CLASSIC = MODES["2248"]
DAILY = MODES["2248-daily"]
BLITZ = MODES["2248-blitz"]


def filler(r: int, c: int, values: tuple[int, ...] = FILLER) -> int:
    return values[(r % 2) * 2 + c % 2]


def board_with(tiles: Mapping[Cell, int], values: tuple[int, ...] = FILLER) -> list[list[int]]:
    """A stuck board of big tiles (or ``values``) with ``tiles`` placed on it."""
    rows = [[filler(r, c, values) for c in range(COLS)] for r in range(ROWS)]
    for (r, c), v in tiles.items():
        rows[r][c] = v
    return rows


def state_with(
    tiles: Mapping[Cell, int], mode: Mode = CLASSIC, *, low: bool = False, **extra: object
) -> ChainState:
    """A position of ``mode``: ``tiles`` on a stuck board (of small tiles when ``low``)."""
    board = board_with(tiles, LOW_FILLER if low else FILLER)
    return mode.rules.from_position({"board": board, **extra}, "7K3M9QXP")


def chain_text(cells: Iterable[Cell]) -> str:
    return "chain " + " ".join(f"{r},{c}" for r, c in cells)
