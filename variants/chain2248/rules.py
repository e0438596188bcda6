"""The rules of 2248: chains, rounding, gravity, retirement and power-ups.

Pure functions of an immutable :class:`ChainState` and an action in the words of
the JSON protocol (``chain R,C R,C ...``, ``hammer R,C``, ``swap R,C R,C``,
``shuffle``, ``undo``). Every new tile comes from the deal (see ``spawn``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from twofold.plugin import (
    Earned,
    Event,
    Merged,
    Outcome,
    Praised,
    Refused,
    Removed,
    _,
    doubling_chain,
)
from twofold.variants.chain2248 import position, spawn, words
from twofold.variants.chain2248.board import (
    CELLS,
    COLS,
    ROWS,
    Cell,
    board_of,
    exponent,
    grid_of,
    has_pair,
    touching,
)
from twofold.variants.chain2248.hint import best_chain
from twofold.variants.chain2248.powerups import GRANT_ORDER, POWERUPS
from twofold.variants.chain2248.state import MAX_POWERUP, ChainState
from twofold.variants.chain2248.words import RETIRED

#: the first new highest tile that grants a power-up (2**9 = 512)
GRANT_FROM = 9
#: reaching 2**(k + 10) retires 2**k: 2048 retires 2, 4096 retires 4, ...
RETIRE_FROM = 11
RETIRE_GAP = 10

# ASCII digits only (no Arabic-Indic or full-width ones); the length is checked below.
# A number starts at a "-" or after a non-digit, and no part is given back: a long run of
# digits is read once, not once from each of its digits (which took time quadratic in it)
_CELL = re.compile(r"((?:-|(?<![0-9]))[0-9]++)\s*+,\s*+(-?[0-9]++)")
#: the most digits read in a coordinate: anything longer is off the board anyway
_DIGITS = 6


def _cell_text(cell: Cell) -> str:
    # a reason speaks the protocol (from 0, as "rows 0 to 7" does); people's fronts shift it
    return f"({cell[0]},{cell[1]})"


def read_cells(text: str) -> list[Cell]:
    """The ``R,C`` cells in ``text`` (brackets and spaces allowed); Refused otherwise."""
    cleaned = text.translate(str.maketrans("()[]", "    "))
    pairs = _CELL.findall(cleaned)
    rest = _CELL.sub(" ", cleaned).strip()
    if rest:
        shown = rest if len(rest) <= 40 else rest[:39] + "…"
        raise Refused(_("cannot read {text!r}: write cells as ROW,COL").format(text=shown))
    for r, c in pairs:
        if len(r.lstrip("-")) > _DIGITS or len(c.lstrip("-")) > _DIGITS:
            raise Refused(_("a cell number is far off the board (rows 0 to 7, columns 0 to 4)"))
    cells = [(int(r), int(c)) for r, c in pairs]
    for r, c in cells:
        if not 0 <= r < ROWS:
            raise Refused(_("row {row} is off the board (rows 0 to 7)").format(row=r))
        if not 0 <= c < COLS:
            raise Refused(_("column {col} is off the board (columns 0 to 4)").format(col=c))
    return cells


def check_chain(board: Sequence[Sequence[int]], cells: Sequence[Cell]) -> int:
    """The tile a legal chain makes (its sum rounded up to a power of two); Refused with a
    short reason for an illegal one."""
    if len(cells) < 2:
        raise Refused(_("a chain needs at least 2 tiles"))
    seen: set[Cell] = set()
    for i, cell in enumerate(cells):
        if cell in seen:
            raise Refused(_("cell {cell} is used twice").format(cell=_cell_text(cell)))
        seen.add(cell)
        if i and not touching(cells[i - 1], cell):
            raise Refused(
                _("cells {a} and {b} do not touch").format(
                    a=_cell_text(cells[i - 1]), b=_cell_text(cell)
                )
            )
    return doubling_chain([board[r][c] for r, c in cells])


@dataclass(frozen=True, eq=False)
class ChainRules:
    """The rules of one 2248 mode; the modes differ only in these settings."""

    #: power-ups held at the start
    start: Mapping[str, int] = field(default_factory=dict)
    #: merges allowed in a game (Daily), or None
    merge_budget: int | None = None
    #: whether new highest tiles from 512 up grant power-ups (Classic)
    grants: bool = False
    #: whether Shuffle is free, and only offered, when the board is stuck (Blitz)
    free_shuffle: bool = False
    undo_depth: int = 1

    # -- starting ---------------------------------------------------------------------

    def new_game(self, code: str) -> ChainState:
        draws, grid = spawn.opening(code)
        board = board_of(grid)
        return ChainState(
            code=code,
            board=board,
            draws=draws,
            highest=max(v for row in board for v in row),
            merges_left=self.merge_budget,
            powerups={name: self.start.get(name, 0) for name in POWERUPS},
        )

    def from_position(self, data: Mapping[str, Any], code: str) -> ChainState:
        return position.read_position(data, code, start=self.start, merge_budget=self.merge_budget)

    # -- commands ---------------------------------------------------------------------

    def parse(self, text: str) -> str:
        """``"Chain 0,0  (0,1)"`` → ``"chain 0,0 0,1"``; Refused for anything else."""
        parts = text.strip().lower().split(None, 1)
        if not parts:
            raise Refused(_("empty command"))
        word = parts[0]
        if word != "chain" and word not in POWERUPS:
            raise Refused(_("unknown command {word!r}").format(word=word))
        cells = read_cells(parts[1] if len(parts) > 1 else "")
        if word == "chain":
            if len(cells) < 2:
                raise Refused(_("a chain needs at least 2 tiles"))
        elif len(cells) != POWERUPS[word].cells:
            raise Refused(_(POWERUPS[word].usage).format(word=word))
        return " ".join([word, *(f"{r},{c}" for r, c in cells)])

    def apply(self, state: ChainState, action: str) -> Outcome:
        action = self.parse(action)
        word, *rest = action.split()
        cells = [(int(r), int(c)) for r, c in (p.split(",") for p in rest)]
        if state.merges_left == 0:
            raise Refused(_("no merges left today"))
        if word == "chain":
            return self._chain(state, cells)
        effect = POWERUPS[word].effect
        if effect is None:
            raise Refused(_("undo is taken care of by the game"))
        return effect(self, state, cells)

    def undo(self, previous: ChainState, current: ChainState) -> ChainState:
        """``previous`` with one Undo fewer than ``current`` held (so a power-up comes back)."""
        if current.held("undo") < 1:
            raise Refused(_("no Undo left"))
        return replace(previous, powerups={**previous.powerups, "undo": current.held("undo") - 1})

    # -- merging ----------------------------------------------------------------------

    def _chain(self, state: ChainState, cells: list[Cell]) -> Outcome:
        value = check_chain(state.board, cells)
        grid = grid_of(state.board)
        for r, c in cells[:-1]:
            grid[r][c] = 0
        end = cells[-1]
        grid[end[0]][end[1]] = value
        events: list[Event] = [Merged(end, value, tuple(cells))]
        praise = words.praise_for(len(cells))
        if praise:
            events.append(Praised(len(cells), praise))
        held = dict(state.powerups)
        highest = max(state.highest, value)
        new_exps = (
            range(exponent(state.highest) + 1, exponent(highest) + 1)
            if value > state.highest
            else range(0)
        )
        if self.grants:
            for e in new_exps:
                if e >= GRANT_FROM:
                    name = GRANT_ORDER[(e - GRANT_FROM) % len(GRANT_ORDER)]
                    if held.get(name, 0) < MAX_POWERUP:
                        held[name] = held.get(name, 0) + 1
                        events.append(Earned(name, 1 << e))
        retiring = [
            1 << (e - RETIRE_GAP)
            for e in new_exps
            if e >= RETIRE_FROM and (1 << (e - RETIRE_GAP)) not in state.retired
        ]
        retired = tuple(sorted({*state.retired, *retiring}))
        draws = spawn.settle(state.code, state.draws, grid, retired, events)
        for gone in retiring:
            spots = tuple(cell for cell in CELLS if grid[cell[0]][cell[1]] == gone)
            # announced even when no such tile is on the board at the moment
            events.append(Removed(spots, gone, RETIRED))
            if spots:
                for r, c in spots:
                    grid[r][c] = 0
                draws = spawn.settle(state.code, draws, grid, retired, events)
        new = replace(
            state,
            board=board_of(grid),
            score=state.score + value,
            moves=state.moves + 1,
            draws=draws,
            retired=retired,
            merges=state.merges + 1,
            longest_chain=max(state.longest_chain, len(cells)),
            highest=highest,
            merges_left=None if state.merges_left is None else state.merges_left - 1,
            powerups=held,
        )
        return Outcome(new, tuple(events))

    # -- the end ----------------------------------------------------------------------

    def stuck(self, state: ChainState) -> bool:
        """Whether no two equal tiles touch, so no chain can start."""
        return not has_pair(state.board)

    def rescues(self, state: ChainState) -> list[str]:
        """The power-ups that would open a chain on a stuck board (empty if not stuck).

        Each power-up's own rescue check decides (``powerups.POWERUPS``): Hammer and Swap
        are tried on every cell and pair (the Hammer's new tile is known from the deal),
        Shuffle always opens a chain when some value repeats, Undo is never one.
        """
        if self.is_spent(state) or not self.stuck(state):
            return []
        return [kind.id for kind in POWERUPS.values() if kind.rescue and kind.rescue(self, state)]

    def is_spent(self, state: ChainState) -> bool:
        """Whether the daily budget of merges is used up."""
        return state.merges_left is not None and state.merges_left <= 0

    def is_over(self, state: ChainState) -> bool:
        if self.is_spent(state):
            return True
        return self.stuck(state) and not self.rescues(state)

    # -- the hint ---------------------------------------------------------------------

    def hint(self, state: ChainState) -> tuple[Cell, ...] | None:
        """The chain that makes the biggest tile and, among those, the longest; None if stuck."""
        if self.is_spent(state):
            return None
        return best_chain(state.board)

    # -- reporting --------------------------------------------------------------------

    def report(self, state: ChainState) -> dict[str, Any]:
        data: dict[str, Any] = {
            "powerups": {name: state.held(name) for name in POWERUPS},
            "retired": list(state.retired),
            "highest": state.highest,
            "merges": state.merges,
            "longest_chain": state.longest_chain,
            "stuck": self.stuck(state),
            "rescues": self.rescues(state),
        }
        if state.merges_left is not None:
            data["merges_left"] = state.merges_left
        return data

    def stats(self, state: ChainState) -> dict[str, int]:
        return {"longest_chain": state.longest_chain, "merges": state.merges}

    def announce(self, before: ChainState, outcome: Outcome) -> str:
        return words.announce(self, before, outcome)

    def read_board(self, state: ChainState) -> list[str]:
        return words.read_board(state.board)

    def render_text(self, state: ChainState) -> str:
        return words.render_text(state.board)
