"""Which actions change the game now, and what each sends: the masks, exactly.

An action is legal when it changes the game: it sends a command the rules take, or it
adds a cell to what is being built (a chain, or the cells of an aimed tool) that some
command the rules take can still be made of. So a chain being built can always be
finished, and a masked action changes nothing. Building never goes past what the rules
take: a tap adds a cell only when the chain with it is one the rules take (the first
cell, when some touching second cell makes one). For a chain mode with a ``judge`` the
judge says so, as it does for a player drawing a chain in the app (the contract has the
judge and ``Rules.apply`` give one rule, and ``twofold.testing.check_masks`` holds a mode
to it); the tap that sends the chain asks the rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from twofold.rl.actions import Table
from twofold.rl.episode import Episode

Cell = tuple[int, int]
#: what ``Pending.tool`` is while a chain is built (a tool's index otherwise)
CHAIN = -1
#: masks a table keeps, one a pattern of legal actions (a bound on its memory)
MASKS_KEPT = 1 << 12


@dataclass(frozen=True)
class Pending:
    """What is being built: a chain (``tool`` CHAIN) or an aimed tool, and its cells."""

    tool: int
    cells: tuple[Cell, ...] = ()


@dataclass(frozen=True)
class Press:
    """What a legal action does: what is pending after it, and the command it sends."""

    pending: Pending | None
    command: str | None = None


def cells_text(cells: tuple[Cell, ...]) -> str:
    return " ".join(f"{r},{c}" for r, c in cells)


class Controls:
    """The legal actions of one mode's table, and what each does."""

    def __init__(self, table: Table, judge: object = None) -> None:
        self.table = table
        self.judge = judge if table.controls == "chain" else None
        rows, cols = table.rows, table.cols
        self.cells: tuple[Cell, ...] = tuple((r, c) for r in range(rows) for c in range(cols))
        #: each cell's touching cells (diagonals too): where a chain may go next
        self.touching = {
            (r, c): tuple(
                (r + dr, c + dc)
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols
            )
            for r, c in self.cells
        }
        #: every other cell, nearest first: where a pair's second cell is looked for
        self.nearest = {
            a: tuple(sorted((b for b in self.cells if b != a), key=lambda b: _distance(a, b)))
            for a in self.cells
        }
        #: the command each first action sends, where it sends one at once (not a chain's taps)
        self.sends: tuple[str, ...] | None = None
        if table.kind == "directions":
            self.sends = table.directions
        elif table.kind == "columns":
            self.sends = tuple(f"place {c}" for c in range(cols))
        elif table.controls != "chain":
            self.sends = tuple(f"place {r},{c}" for r, c in self.cells)
        #: each pattern of legal actions met, as its mask (each step is given a copy)
        self.masks: dict[tuple[bool, ...], np.ndarray] = {}
        #: the mask of each tuple of legal actions the mode listed (``Episode.legal_now``)
        self.listed: dict[tuple[str, ...], np.ndarray] = {}

    # -- the mask -----------------------------------------------------------------------

    def mask(self, episode: Episode, pending: Pending | None) -> np.ndarray:
        if pending is None and self.sends is not None:
            # the mask of every step of most modes: no Press made, one question an action
            listed = None if self.table.tools else episode.legal_now()
            found = self.listed.get(listed) if listed is not None else None
            if found is not None:
                return found.copy()  # new data each step (check_env): the caller may keep it
            legal = episode.accepted(self.sends)
            if self.table.tools:
                legal += [self._tool(episode, i) is not None for i in range(len(self.table.tools))]
            found = self._shared(tuple(legal))
            if listed is not None:
                if len(self.listed) >= MASKS_KEPT:
                    self.listed.clear()
                self.listed[listed] = found
            return found.copy()
        found = np.zeros(self.table.size, dtype=np.int8)
        for action in range(self.table.size):
            if self.press(episode, pending, action) is not None:
                found[action] = 1
        return found

    def _shared(self, legal: tuple[bool, ...]) -> np.ndarray:
        found = self.masks.get(legal)
        if found is None:
            if len(self.masks) >= MASKS_KEPT:
                self.masks.clear()
                self.listed.clear()
            found = self.masks[legal] = np.array(legal, dtype=np.int8)
        return found

    def press(self, episode: Episode, pending: Pending | None, action: int) -> Press | None:
        """What ``action`` does now, or None when it changes nothing (it is masked out)."""
        table = self.table
        if action >= table.first:
            return None if pending is not None else self._tool(episode, action - table.first)
        if pending is not None:
            return self._tap(episode, pending, self._place(action))
        if table.kind == "directions":
            return _send(episode, self.table.directions[action])
        if table.kind == "columns":
            return _send(episode, f"place {action}")
        cell = table.cell(action)
        if table.controls != "chain":
            return _send(episode, f"place {cell[0]},{cell[1]}")
        return Press(Pending(CHAIN, (cell,))) if self._starts(episode, "chain", cell) else None

    def _place(self, action: int) -> Cell:
        """The cell a tap names (a column's top cell for a table of columns)."""
        return (0, action) if self.table.kind == "columns" else self.table.cell(action)

    # -- tools --------------------------------------------------------------------------

    def _tool(self, episode: Episode, index: int) -> Press | None:
        tool = self.table.tools[index]
        if tool.powerup and not episode.holds(tool.word):
            return None  # none held, none free: the rules refuse it on every cell
        if tool.takes in ("none", "undo"):
            return _send(episode, tool.word)
        aimed = Pending(index)
        if any(self._tap(episode, aimed, cell) is not None for cell in self._targets(tool.takes)):
            return Press(aimed)
        return None

    def _targets(self, takes: str) -> Iterator[Cell]:
        if takes == "column":
            yield from ((0, c) for c in range(self.table.cols))
        else:
            yield from self.cells

    def _tap(self, episode: Episode, pending: Pending, cell: Cell) -> Press | None:
        if pending.tool == CHAIN:
            return self._chain_tap(episode, "chain", pending, cell)
        tool = self.table.tools[pending.tool]
        word, cells = tool.word, pending.cells
        if tool.takes == "cell":
            return _send(episode, f"{word} {cell[0]},{cell[1]}")
        if tool.takes == "column":
            return _send(episode, f"{word} {cell[1]}")
        if tool.takes == "pair":
            if not cells:
                pair = any(
                    episode.accepts(f"{word} {cells_text((cell, b))}") for b in self.nearest[cell]
                )
                return Press(Pending(pending.tool, (cell,))) if pair else None
            return (
                None if cell == cells[0] else _send(episode, f"{word} {cells_text((*cells, cell))}")
            )
        return self._chain_tap(episode, word, pending, cell)

    # -- chains -------------------------------------------------------------------------

    def _chain_tap(self, episode: Episode, word: str, pending: Pending, cell: Cell) -> Press | None:
        cells = pending.cells
        if cells and cell == cells[-1]:
            command = f"{word} {cells_text(cells)}"
            sent = (word != "chain" or len(cells) > 1) and episode.accepts(command)
            return Press(None, command) if sent else None
        if cell in cells:
            return None
        if not cells:
            return (
                Press(Pending(pending.tool, (cell,))) if self._starts(episode, word, cell) else None
            )
        if word == "chain" and cell not in self.touching[cells[-1]]:
            return None
        longer = (*cells, cell)
        return Press(Pending(pending.tool, longer)) if self._takes(episode, word, longer) else None

    def _starts(self, episode: Episode, word: str, cell: Cell) -> bool:
        """Whether some command the rules take starts with ``cell`` (then a second cell)."""
        if word != "chain" and self._takes(episode, word, (cell,)):
            return True
        seconds = self.touching[cell] if word == "chain" else self.nearest[cell]
        return any(self._takes(episode, word, (cell, second)) for second in seconds)

    def _takes(self, episode: Episode, word: str, cells: tuple[Cell, ...]) -> bool:
        """Whether the rules take ``word cells`` (for a chain: the judge's word, if any)."""
        if word == "chain":
            if len(cells) < 2:
                return False
            if self.judge is not None:
                return self._fits(episode, cells)
        return episode.accepts(f"{word} {cells_text(cells)}")

    def _fits(self, episode: Episode, cells: tuple[Cell, ...]) -> bool:
        return bool(self.judge(episode.state, cells).fits)  # type: ignore[operator]


def _send(episode: Episode, command: str) -> Press | None:
    return Press(None, command) if episode.accepts(command) else None


def _distance(a: Cell, b: Cell) -> tuple[int, int, int]:
    return (max(abs(a[0] - b[0]), abs(a[1] - b[1])), a[0] - b[0], a[1] - b[1])
