"""The event vocabulary: what an action did, in words every variant and board share.

An action's :class:`~twofold.core._rules.Outcome` lists events in the order they
happened. Every variant emits only the kinds below, so the app animates a
stranger's mode exactly as it animates 2048 and 2248, and a JSON client reads the
same shape for the same thing in every mode. Cells are ``(row, column)`` from the top
left, counted from 0. A board that meets a kind it does not draw skips it.

=============  =====================================================================
kind           fields and meaning
=============  =====================================================================
``moved``      ``source``, ``target``, ``value``: a tile went from one cell to another
               (a 2048 slide, a swap, a shuffle); it may merge on arrival
``merged``     ``cell``, ``value``, ``cells``: tiles became one tile of ``value`` in
               ``cell``; ``cells`` are the tiles that joined, in order (a 2048 pair,
               a 2248 chain)
``appeared``   ``cell``, ``value``: a new tile from the deal
``fell``       ``source``, ``target``, ``value``: a tile dropped into a gap below it
``removed``    ``cells``, ``value``, ``reason``: tiles left the board (``"retired"``
               when a small number retires, ``"hammer"`` for a power-up); ``value``
               is 0 when the tiles differ
``praised``    ``length``, ``word``: a long chain earned a word of praise
``earned``     ``powerup``, ``tile``: reaching ``tile`` granted a power-up
``used``       ``powerup``, ``cells``, ``free``: a power-up was spent on these cells
               (``free`` when the mode gave it for nothing)
``undone``     no fields: the last action was taken back
=============  =====================================================================
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

Cell = tuple[int, int]


@dataclass(frozen=True)
class Event:
    """Something that happened during an action; subclasses below are the whole vocabulary."""

    kind: ClassVar[str] = "event"

    def as_dict(self) -> dict[str, Any]:
        """The event as JSON-ready data: ``{"type": kind, ...fields}``."""
        data: dict[str, Any] = {"type": self.kind}
        for f in dataclasses.fields(self):
            data[f.name] = _jsonable(getattr(self, f.name))
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class Moved(Event):
    """A tile went from ``source`` to ``target`` (it may merge there)."""

    kind: ClassVar[str] = "moved"
    source: Cell
    target: Cell
    value: int


@dataclass(frozen=True)
class Merged(Event):
    """Tiles became one tile of ``value`` in ``cell``; ``cells`` joined, in order."""

    kind: ClassVar[str] = "merged"
    cell: Cell
    value: int
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Appeared(Event):
    """A new tile from the deal."""

    kind: ClassVar[str] = "appeared"
    cell: Cell
    value: int


@dataclass(frozen=True)
class Fell(Event):
    """A tile dropped from ``source`` into a gap at ``target``."""

    kind: ClassVar[str] = "fell"
    source: Cell
    target: Cell
    value: int


@dataclass(frozen=True)
class Removed(Event):
    """Tiles left the board: ``reason`` says why (``"retired"``, ``"hammer"``, ...)."""

    kind: ClassVar[str] = "removed"
    cells: tuple[Cell, ...]
    value: int = 0
    reason: str = ""


@dataclass(frozen=True)
class Praised(Event):
    """A long chain earned a word of praise (in English; announcements translate it)."""

    kind: ClassVar[str] = "praised"
    length: int
    word: str


@dataclass(frozen=True)
class Earned(Event):
    """Reaching ``tile`` granted the power-up ``powerup``."""

    kind: ClassVar[str] = "earned"
    powerup: str
    tile: int


@dataclass(frozen=True)
class Used(Event):
    """The power-up ``powerup`` was spent on ``cells``; ``free`` when it cost nothing."""

    kind: ClassVar[str] = "used"
    powerup: str
    cells: tuple[Cell, ...] = ()
    free: bool = False


@dataclass(frozen=True)
class Undone(Event):
    """The last action was taken back."""

    kind: ClassVar[str] = "undone"


#: every kind of the vocabulary, by its name
VOCABULARY: dict[str, type[Event]] = {
    cls.kind: cls for cls in (Moved, Merged, Appeared, Fell, Removed, Praised, Earned, Used, Undone)
}


def is_known(event: object) -> bool:
    """Whether ``event`` is one of the vocabulary's kinds (boards skip anything else)."""
    return isinstance(event, Event) and VOCABULARY.get(event.kind) is type(event)


def _is_cell(value: object, rows: int, cols: int) -> bool:
    return (
        type(value) is tuple
        and len(value) == 2
        and type(value[0]) is int
        and type(value[1]) is int
        and 0 <= value[0] < rows
        and 0 <= value[1] < cols
    )


def _is_count(value: object, rows: int, cols: int) -> bool:
    return type(value) is int and value >= 0


def _is_cells(value: object, rows: int, cols: int) -> bool:
    return type(value) is tuple and all(_is_cell(c, rows, cols) for c in value)


def _is_tile(value: object, rows: int, cols: int) -> bool:
    return type(value) is int and value > 0


def _is_flag(value: object, rows: int, cols: int) -> bool:
    return type(value) is bool


def _is_word(value: object, rows: int, cols: int) -> bool:
    return isinstance(value, str)


_CHECKERS = {
    "cell": _is_cell,
    "source": _is_cell,
    "target": _is_cell,
    "cells": _is_cells,
    "value": _is_count,
    "tile": _is_count,
    "length": _is_count,
    "free": _is_flag,
}
#: kinds whose ``value`` is a tile on the board, never 0 (``removed`` says 0 for mixed tiles)
_TILE_VALUES = ("moved", "merged", "appeared", "fell")
#: each kind's fields and how each is checked, worked out once per kind
_FIELDS = {
    kind: tuple(
        (
            f.name,
            _is_tile
            if (f.name == "value" and kind in _TILE_VALUES) or f.name == "tile"
            else _CHECKERS.get(f.name, _is_word),
        )
        for f in dataclasses.fields(cls)
    )
    for kind, cls in VOCABULARY.items()
}


def check(events: Sequence[object], board: Sequence[Sequence[int]]) -> None:
    """Raise ValueError, in one line, at the first event a board could not draw.

    An event must be of the vocabulary, its cells on ``board``, its values whole
    numbers (a tile's above 0), a fall must go somewhere; the session turns the error
    into the mode's fault, so a plugin's wrong event stops its game instead of the app.
    """
    rows = len(board)
    cols = len(board[0]) if rows else 0
    for event in events:
        if not is_known(event):
            raise ValueError(f"{type(event).__name__} is not an event of twofold.core._events")
        assert isinstance(event, Event)
        for name, ok in _FIELDS[event.kind]:
            value = getattr(event, name)
            if not ok(value, rows, cols):
                raise ValueError(f"event {event.kind!r} has a bad {name}: {value!r}"[:200])
        if isinstance(event, Fell) and event.source == event.target:
            raise ValueError(f"event 'fell' lands on its own cell {event.source!r}")
