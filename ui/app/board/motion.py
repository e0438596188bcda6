"""How the board moves after an action: one engine over the whole event vocabulary.

An action's events (``core/events.py``) come in the order things happened; the engine
groups them into phases played one after the other:

* **travel**: ``moved`` and ``fell`` tiles glide from their source to their target
  (a 2048 slide, a 2248 fall, a drop); new tiles (``appeared``) that come with falls
  drop in from above the board, as gravity brings them;
* **change**: ``merged`` tiles collapse into their cell, which shows the new value at
  once, and ``removed`` tiles shrink away (a retirement, a Hammer);
* **arrive**: the other new tiles (``appeared``) grow in where they are.

The other kinds (``praised``, ``earned``, ``used``, ``undone``) move no tile: they are
said, not drawn. An event naming a cell off the board is skipped, and the last phase
ends exactly on the board the rules made, whatever the events said. ``Motion.frame(t)``
gives every tile's place, value and size at ``t`` in ``[0, 1]``: a pure function, so a
frame can be drawn (and tested) at any moment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from twofold.core._events import Appeared, Fell, Merged, Moved, Removed

Cell = tuple[int, int]
Board = Sequence[Sequence[int]]
Kind = Literal["travel", "change", "arrive"]

#: seconds each kind of phase takes at normal motion: a tenth to slide, a tenth to grow in
SECONDS: dict[str, float] = {"travel": 0.1, "change": 0.1, "arrive": 0.1}
#: falls take a little longer than a slide: they speed up as they go
FALL_SECONDS = 0.18
#: every phase's length is multiplied by this (tests slow the board down with it)
TEMPO = 1.0


@dataclass(frozen=True)
class Sprite:
    """One tile drawn somewhere on (or just above) the board; ``scale`` below 1 is a tile
    growing in or shrinking away."""

    row: float
    col: float
    value: int
    scale: float = 1.0


@dataclass(frozen=True)
class Phase:
    """One phase: the board it starts on, what moves, and the board it ends on."""

    kind: Kind
    before: tuple[tuple[int, ...], ...]
    after: tuple[tuple[int, ...], ...]
    #: value, from, to (travel); a new tile dropping in has a source above the board
    glides: tuple[tuple[int, Cell, Cell], ...] = ()
    #: cells whose tiles shrink away (change)
    vanish: frozenset[Cell] = frozenset()
    #: cells that show a new value at once (change: a merge's cell)
    made: dict[Cell, int] = field(default_factory=dict)
    #: cells whose new tiles grow in (arrive)
    grow: frozenset[Cell] = frozenset()
    falls: bool = False

    @property
    def seconds(self) -> float:
        if self.kind == "travel" and self.falls:
            return FALL_SECONDS * TEMPO
        if self.kind == "change" and not any(
            self.before[r][c] for r, c in self.vanish if (r, c) not in self.made
        ):
            return 0.0  # a 2048 merge: its tiles already met, the new value shows at once
        return SECONDS[self.kind] * TEMPO

    def frame(self, t: float) -> list[Sprite]:
        if self.kind == "travel":
            return self._travel(_fall(t) if self.falls else _slide(t))
        if self.kind == "change":
            return self._change(t)
        return [
            Sprite(r, c, value, t if (r, c) in self.grow else 1.0)
            for r, c, value in _tiles(self.after)
        ]

    def _travel(self, u: float) -> list[Sprite]:
        moving = {source for _value, source, _target in self.glides}
        # tiles that stay go first, so that gliding ones pass over them
        sprites = [
            Sprite(r, c, value) for r, c, value in _tiles(self.before) if (r, c) not in moving
        ]
        for value, (r0, c0), (r1, c1) in self.glides:
            sprites.append(Sprite(r0 + (r1 - r0) * u, c0 + (c1 - c0) * u, value))
        return sprites

    def _change(self, t: float) -> list[Sprite]:
        sprites = []
        for r, c, value in _tiles(self.before):
            if (r, c) in self.vanish and (r, c) not in self.made:
                if t < 1.0:
                    sprites.append(Sprite(r, c, value, 1.0 - t))
            elif (r, c) not in self.made:
                sprites.append(Sprite(r, c, value))
        sprites += [Sprite(r, c, value) for (r, c), value in self.made.items()]
        return sprites


def _tiles(board: Board) -> Iterable[tuple[int, int, int]]:
    for r, row in enumerate(board):
        for c, value in enumerate(row):
            if value > 0:  # a stone (below 0) is drawn by the board, never as a moving tile
                yield r, c, value


def _slide(t: float) -> float:
    """Ease-out: a slide starts fast and settles."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def _fall(t: float) -> float:
    """Ease-in: tiles speed up as they fall."""
    t = min(1.0, max(0.0, t))
    return t * t


def still(board: Board) -> list[Sprite]:
    """The board at rest."""
    return [Sprite(r, c, value) for r, c, value in _tiles(board)]


@dataclass(frozen=True)
class Motion:
    """The phases of one action, played one after the other."""

    phases: tuple[Phase, ...]

    @property
    def seconds(self) -> float:
        return sum(phase.seconds for phase in self.phases)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(phase.kind for phase in self.phases)

    def frame(self, t: float) -> list[Sprite]:
        """Every tile at ``t`` (0 to 1) through the whole motion."""
        if t >= 1.0:
            return still(self.phases[-1].after)
        elapsed = max(0.0, t) * self.seconds
        for phase in self.phases:
            if elapsed < phase.seconds:
                return phase.frame(elapsed / phase.seconds)
            elapsed -= phase.seconds
        return still(self.phases[-1].after)


def _cell(value: Any, rows: int, cols: int) -> Cell | None:
    """A cell on the board, or None (a plugin's event may name anything)."""
    if (
        isinstance(value, tuple | list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and 0 <= value[0] < rows
        and 0 <= value[1] < cols
    ):
        return int(value[0]), int(value[1])
    return None


class _Planner:
    """Walks the events, closing a phase whenever the next event is of another kind."""

    def __init__(self, before: Board) -> None:
        self.grid = [list(row) for row in before]
        self.rows, self.cols = len(self.grid), len(self.grid[0]) if self.grid else 0
        self.phases: list[Phase] = []
        self.kind: Kind | None = None
        self.glides: list[tuple[int, Cell, Cell]] = []
        self.drops: list[tuple[Cell, int]] = []
        self.vanish: set[Cell] = set()
        self.made: dict[Cell, int] = {}
        self.grow: dict[Cell, int] = {}
        self.falls = False

    def cell(self, value: Any) -> Cell | None:
        return _cell(value, self.rows, self.cols)

    def board(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(row) for row in self.grid)

    def enter(self, kind: Kind) -> None:
        if self.kind != kind:
            self.close()
            self.kind = kind

    def close(self) -> None:
        if self.kind is None:
            return
        before = self.board()
        grid = self.grid
        if self.kind == "travel":
            for _value, (r, c), _target in self.glides:
                grid[r][c] = 0
            for value, _source, (r, c) in self.glides:
                grid[r][c] = value
            for (r, c), value in self.drops:
                grid[r][c] = value
        elif self.kind == "change":
            for r, c in self.vanish:
                grid[r][c] = 0
            for (r, c), value in self.made.items():
                grid[r][c] = value
        else:
            for (r, c), value in self.grow.items():
                grid[r][c] = value
        # new tiles dropping in start above the board, stacked by column
        stacked = Counter(c for (_r, c), _value in self.drops)
        drops = tuple((v, (r - stacked[c], c), (r, c)) for (r, c), v in self.drops)
        self.phases.append(
            Phase(
                self.kind,
                before,
                self.board(),
                tuple(self.glides) + drops,
                frozenset(self.vanish),
                dict(self.made),
                frozenset(self.grow),
                self.falls,
            )
        )
        self.kind = None
        self.glides, self.drops, self.falls = [], [], False
        self.vanish, self.made, self.grow = set(), {}, {}

    def read(self, event: object) -> None:
        if isinstance(event, Moved | Fell):
            source, target = self.cell(event.source), self.cell(event.target)
            if source is None or target is None or source == target or not event.value:
                return
            self.enter("travel")
            self.falls = self.falls or isinstance(event, Fell)
            self.glides.append((event.value, source, target))
        elif isinstance(event, Merged):
            cell = self.cell(event.cell)
            if cell is None or not event.value:
                return
            self.enter("change")
            self.vanish.update(c for c in map(self.cell, event.cells) if c is not None)
            self.made[cell] = event.value
        elif isinstance(event, Removed):
            cells = [c for c in map(self.cell, event.cells) if c is not None]
            if cells:
                self.enter("change")
                self.vanish.update(cells)
                for cell in cells:
                    self.made.pop(cell, None)
        elif isinstance(event, Appeared):
            cell = self.cell(event.cell)
            if cell is None or not event.value:
                return
            if self.kind == "travel" and self.falls:
                self.drops.append((cell, event.value))  # gravity brings it in from above
            else:
                self.enter("arrive")
                self.grow[cell] = event.value


def plan(before: Board, after: Board, events: Iterable[object]) -> Motion | None:
    """The motion from ``before`` to ``after`` that ``events`` tell; None if nothing moves."""
    planner = _Planner(before)
    for event in events:
        planner.read(event)
    planner.close()
    phases = planner.phases
    if not phases:
        return None
    # the last phase ends exactly on the board the rules made, whatever the events said
    last = phases[-1]
    ending = tuple(tuple(row) for row in after)
    phases[-1] = Phase(
        last.kind, last.before, ending, last.glides, last.vanish, last.made, last.grow, last.falls
    )
    return Motion(tuple(phases))
