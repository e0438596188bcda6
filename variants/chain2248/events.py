"""What a 2248 action did, step by step, for the UI to animate and announce.

Cells are ``(row, column)`` from the top left, from 0. Events come in the order
they happen: the chain, the tile it made, praise and power-ups earned, the falls
and the new tiles, then each retirement with its own falls and new tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from twofold.core.rules import Event
from twofold.variants.chain2248.board import Cell


@dataclass(frozen=True)
class Chained(Event):
    """The tiles of a chain, in order, and their sum before rounding."""

    kind: ClassVar[str] = "chain"
    cells: tuple[Cell, ...]
    total: int


@dataclass(frozen=True)
class TileMade(Event):
    """The tile a chain made, on the chain's last cell."""

    kind: ClassVar[str] = "merge"
    cell: Cell
    value: int
    length: int


@dataclass(frozen=True)
class TileFell(Event):
    kind: ClassVar[str] = "fall"
    source: Cell
    target: Cell
    value: int


@dataclass(frozen=True)
class TileSpawned(Event):
    """A new tile from the deal dropped into a cell."""

    kind: ClassVar[str] = "new"
    cell: Cell
    value: int


@dataclass(frozen=True)
class TileMoved(Event):
    """A tile carried to another cell by Swap or Shuffle."""

    kind: ClassVar[str] = "move"
    source: Cell
    target: Cell
    value: int


@dataclass(frozen=True)
class Retired(Event):
    """A value retired for good: its tiles left these cells."""

    kind: ClassVar[str] = "retire"
    value: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Praised(Event):
    """A long chain earned a word of praise (``praise`` in English; announce translates)."""

    kind: ClassVar[str] = "praise"
    length: int
    praise: str


@dataclass(frozen=True)
class PowerUpEarned(Event):
    """A new highest tile granted a power-up."""

    kind: ClassVar[str] = "earned"
    powerup: str
    tile: int


@dataclass(frozen=True)
class PowerUpUsed(Event):
    """A power-up was used on these cells (their values before); ``free`` for Blitz's Shuffle."""

    kind: ClassVar[str] = "powerup"
    powerup: str
    cells: tuple[Cell, ...] = ()
    values: tuple[int, ...] = ()
    free: bool = False
