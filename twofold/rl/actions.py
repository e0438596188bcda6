"""What each action of an environment means, read off the mode's kind of controls.

Every environment's action space is ``Discrete(n)``: first the actions of its controls,
then one action per *tool* (a power-up, or a command of the mode's own):

| controls | the first actions | then |
|---|---|---|
| ``slide`` | ``0 1 2 3``: left, right, up, down (or its ``directions``) | tools taking nothing |
| ``place`` (``cell``) | ``r * cols + c``: ``place r,c`` | every tool |
| ``place`` (``column``) | ``c``: ``place c`` | tools that take nothing or a column |
| ``chain`` | ``r * cols + c``: a tap on cell ``(r, c)`` | every tool |

A chain is built tap by tap, as on a touch screen: a tap adds a cell, a tap on the last
cell again sends ``chain ...``. A tool that takes nothing (``shuffle``, ``undo``) is one
action; one that takes cells is aimed by its action, then given its cells by taps on
the board (``hammer``: one tap; ``swap``: two; a ``cells`` command: taps, then the last
again; a ``column`` command: a tap on any cell of the column, or the column itself).
"""

from __future__ import annotations

from dataclasses import dataclass

from twofold.core._rules import Mode
from twofold.core.commands import controls_commands

DIRECTIONS = ("left", "right", "up", "down")
#: what a power-up's target takes as its cells ("undo" is the game's own undo)
TARGET_TAKES = {"none": "none", "tile": "cell", "pair": "pair", "undo": "undo"}
#: the tool shapes each kind of first actions can give their cells to
TAKEN_BY = {
    "directions": ("none", "undo"),
    "cells": ("none", "undo", "cell", "pair", "cells", "column"),
    "columns": ("none", "undo", "column"),
}


@dataclass(frozen=True)
class Tool:
    """An action beyond the controls: the command's word and the shape of its cells."""

    word: str
    takes: str
    #: a power-up's, whose count ``Mode.status`` gives (not the game's undo)
    powerup: bool = False


@dataclass(frozen=True)
class Table:
    """The actions of one mode's environment on a ``rows`` x ``cols`` board."""

    controls: str
    #: what the first actions are: "directions", "cells" (taps or places) or "columns"
    kind: str
    rows: int
    cols: int
    tools: tuple[Tool, ...]
    #: the slide actions, in order: 2048's four, or the mode's own directions
    directions: tuple[str, ...] = DIRECTIONS

    @property
    def first(self) -> int:
        """How many actions the controls have (before the tools)."""
        if self.kind == "directions":
            return len(self.directions)
        return self.cols if self.kind == "columns" else self.rows * self.cols

    @property
    def size(self) -> int:
        return self.first + len(self.tools)

    def cell(self, action: int) -> tuple[int, int]:
        return divmod(action, self.cols)

    def name(self, action: int) -> str:
        """The action in words, as the documentation's table gives it."""
        if action >= self.first:
            tool = self.tools[action - self.first]
            return tool.word if tool.takes in ("none", "undo") else f"aim {tool.word}"
        if self.kind == "directions":
            return self.directions[action]
        if self.kind == "columns":
            return f"place {action}"
        r, c = self.cell(action)
        return f"tap {r},{c}" if self.controls == "chain" else f"place {r},{c}"


def tools_of(mode: Mode, kind: str) -> tuple[Tool, ...]:
    """The mode's power-ups, then its own commands, each word once, that ``kind`` can aim."""
    found: dict[str, Tool] = {}
    taken = {command.word for command in controls_commands(mode)}
    for powerup in mode.powerups:
        takes = TARGET_TAKES.get(powerup.target)
        word = "undo" if powerup.target == "undo" else powerup.id
        if takes is not None and word not in taken:
            found.setdefault(word, Tool(word, takes, powerup=powerup.target != "undo"))
    for command in mode.commands:
        if command.word not in taken:
            found.setdefault(command.word, Tool(command.word, command.takes))
    return tuple(tool for tool in found.values() if tool.takes in TAKEN_BY[kind])


def table_of(mode: Mode, rows: int, cols: int) -> Table:
    """The action table of ``mode`` on a board of ``rows`` x ``cols``."""
    directions = tuple(d.name for d in mode.directions) or DIRECTIONS
    if mode.controls == "slide":
        kind = "directions"
    elif mode.controls == "place" and mode.place == "column":
        kind = "columns"
    else:
        kind = "cells"
    return Table(mode.controls, kind, rows, cols, tools_of(mode, kind), directions)
