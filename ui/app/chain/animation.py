"""How the board moves after an action, as pure data the board widget draws frame by frame.

A :class:`Stage` knows the board before and after, which cells emptied, which tile
was made where, which tiles fell and which new tiles dropped in. A :class:`Motion` is
one stage per settle: the merge, then each retirement. ``frame(t)`` gives every
tile's column, value and (fractional) row at time ``t`` in ``[0, 1]``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from twofold.core.events import Appeared, Event, Fell, Merged, Removed
from twofold.core.rules import Board

Cell = tuple[int, int]

#: the part of the animation spent showing the chain collapsed into its last cell
COLLAPSE = 0.35
#: the length of one stage in seconds, at normal motion
DURATION = 0.3


@dataclass(frozen=True)
class Sprite:
    """One tile drawn somewhere on (or just above) the board."""

    col: int
    value: int
    row: float
    made: bool = False


@dataclass(frozen=True)
class Fall:
    start: Cell
    end: Cell
    value: int


@dataclass(frozen=True)
class Stage:
    before: Board
    after: Board
    #: cells that empty at once (the chain but its last cell, a hammered tile)
    vanish: frozenset[Cell] = frozenset()
    #: cells whose tile changes in place when the chain collapses
    made: dict[Cell, int] = field(default_factory=dict)
    falls: tuple[Fall, ...] = ()
    #: new tiles and the cell each lands in; they drop in from above the board
    spawns: tuple[tuple[Cell, int], ...] = ()

    def frame(self, t: float) -> list[Sprite]:
        if t < COLLAPSE:
            return self._collapsed()
        return self._falling(_ease((t - COLLAPSE) / (1.0 - COLLAPSE)))

    def _collapsed(self) -> list[Sprite]:
        sprites = []
        for r, row in enumerate(self.before):
            for c, value in enumerate(row):
                if (r, c) in self.vanish or not value:
                    continue
                made = (r, c) in self.made
                sprites.append(Sprite(c, self.made.get((r, c), value), float(r), made))
        return sprites

    def _falling(self, u: float) -> list[Sprite]:
        moving = {f.end for f in self.falls} | {cell for cell, _ in self.spawns}
        sprites = [
            Sprite(c, value, float(r), (r, c) in self.made)
            for r, row in enumerate(self.after)
            for c, value in enumerate(row)
            if value and (r, c) not in moving
        ]
        for fall in self.falls:
            (r0, _), (r1, c1) = fall.start, fall.end
            sprites.append(Sprite(c1, fall.value, r0 + (r1 - r0) * u, fall.start in self.made))
        drops = Counter(c for (_, c), _ in self.spawns)
        for (r, c), value in self.spawns:
            sprites.append(Sprite(c, value, r - drops[c] * (1.0 - u)))
        return sprites


def _ease(u: float) -> float:
    """Ease-in: tiles speed up as they fall."""
    u = min(1.0, max(0.0, u))
    return u * u


def still(board: Board) -> list[Sprite]:
    """The board at rest."""
    return [
        Sprite(c, value, float(r))
        for r, row in enumerate(board)
        for c, value in enumerate(row)
        if value
    ]


@dataclass(frozen=True)
class Motion:
    """The stages of one action, played one after the other."""

    stages: tuple[Stage, ...]

    @property
    def duration(self) -> float:
        return DURATION * len(self.stages)

    def frame(self, t: float) -> list[Sprite]:
        count = len(self.stages)
        index = min(count - 1, int(max(0.0, t) * count))
        return self.stages[index].frame(min(1.0, t * count - index))


def _settled(
    before: Board,
    vanish: Iterable[Cell],
    made: dict[Cell, int],
    falls: Iterable[Fall],
    spawns: Iterable[tuple[Cell, int]],
) -> Board:
    """The board a stage ends on (the falls come bottom up, as the rules list them)."""
    grid = [list(row) for row in before]
    for r, c in vanish:
        grid[r][c] = 0
    for (r, c), value in made.items():
        grid[r][c] = value
    for fall in falls:
        grid[fall.start[0]][fall.start[1]] = 0
        grid[fall.end[0]][fall.end[1]] = fall.value
    for (r, c), value in spawns:
        grid[r][c] = value
    return tuple(tuple(row) for row in grid)


def _inside(event: Event, board: Board) -> bool:
    """Whether every cell an event names is on the board (a plugin's event may be wrong)."""
    rows, cols = len(board), len(board[0]) if board else 0
    cells: list[object] = []
    for name in ("cell", "source", "target"):
        if hasattr(event, name):
            cells.append(getattr(event, name))
    cells.extend(getattr(event, "cells", ()))
    return all(
        isinstance(c, tuple)
        and len(c) == 2
        and all(isinstance(v, int) for v in c)
        and 0 <= c[0] < rows
        and 0 <= c[1] < cols
        for c in cells
    )


def motion_for(before: Board, after: Board, events: Iterable[Event]) -> Motion | None:
    """The motion of a merge or a Hammer, from the rules' events; None when nothing falls.

    The events come in the order things happen: the chain (or the Hammer), its falls and
    new tiles, then each retirement with its own falls and new tiles.
    """
    stages: list[Stage] = []
    board = before
    vanish: set[Cell] = set()
    made: dict[Cell, int] = {}
    falls: list[Fall] = []
    spawns: list[tuple[Cell, int]] = []

    def close() -> None:
        nonlocal board
        if not vanish:
            return
        end = _settled(board, vanish, made, falls, spawns)
        stages.append(Stage(board, end, frozenset(vanish), dict(made), tuple(falls), tuple(spawns)))
        board = end
        vanish.clear()
        made.clear()
        falls.clear()
        spawns.clear()

    for event in events:
        if not _inside(event, before):
            continue  # a malformed event is skipped; the last stage ends on the real board
        if isinstance(event, Merged):
            if falls or spawns:
                close()
            vanish.update(c for c in event.cells if c != event.cell)
            made[event.cell] = event.value
        elif isinstance(event, Removed):
            if falls or spawns:
                close()
            vanish.update(event.cells)
        elif isinstance(event, Fell):
            falls.append(Fall(event.source, event.target, event.value))
        elif isinstance(event, Appeared):
            spawns.append((event.cell, event.value))
    close()
    if not stages:
        return None
    # the last stage ends exactly on the board the rules made, whatever the events said
    last = stages[-1]
    stages[-1] = Stage(last.before, after, last.vanish, last.made, last.falls, last.spawns)
    return Motion(tuple(stages))
