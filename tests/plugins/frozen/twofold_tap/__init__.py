"""Tap Ten, as a player wrote it against the plugin docs of contract 1.1: a 5x5 board
always full of numbers; tap a tile in a group of two or more equal touching tiles (not
across) and the group becomes one tile, one higher, where it was tapped; tiles fall into
the gaps and new ones drop in from the top. It imports the contract from the core modules
it then lived in, as the docs of that time allowed."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.core.deal import below
from twofold.core.events import Appeared, Cell, Event, Fell, Merged
from twofold.core.i18n import _
from twofold.core.rules import Mode, Outcome, PositionError, Refused
from twofold.plugin import hookimpl

SIZE = 5
_TAP = re.compile(r"place\s+(\d+)\s*,\s*(\d+)")


@dataclass(frozen=True)
class TapState:
    code: str
    board: tuple[tuple[int, ...], ...]
    score: int = 0
    moves: int = 0
    draws: int = 0


def group(board: tuple[tuple[int, ...], ...], start: Cell) -> list[Cell]:
    value = board[start[0]][start[1]]
    found, todo = [start], [start]
    while todo:
        r, c = todo.pop()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            inside = 0 <= near[0] < SIZE and 0 <= near[1] < SIZE
            if inside and near not in found and board[near[0]][near[1]] == value:
                found.append(near)
                todo.append(near)
    return found


def settle(code: str, draws: int, grid: list[list[int]]) -> tuple[int, list[Event]]:
    events: list[Event] = []
    for c in range(SIZE):
        target = SIZE - 1
        for r in range(SIZE - 1, -1, -1):
            if grid[r][c]:
                if r != target:
                    grid[target][c], grid[r][c] = grid[r][c], 0
                    events.append(Fell((r, c), (target, c), grid[target][c]))
                target -= 1
        for r in range(target, -1, -1):
            grid[r][c] = below(code, draws, 4) + 1
            draws += 1
            events.append(Appeared((r, c), grid[r][c]))
    return draws, events


class TapRules:
    undo_depth = 10

    def new_game(self, code: str) -> TapState:
        grid = [[0] * SIZE for _ in range(SIZE)]
        draws, _events = settle(code, 0, grid)
        return TapState(code, tuple(tuple(row) for row in grid), draws=draws)

    def from_position(self, data: Mapping[str, Any], code: str) -> TapState:
        raise PositionError(_("Tap Ten takes no starting position"))

    def parse(self, text: str) -> str:
        word = text.strip().lower()
        if word in ("undo", "u", "z"):
            return "undo"
        found = _TAP.fullmatch(word)
        if found is None:
            raise Refused(_("write a tap as: place R,C"))
        return f"place {int(found[1])},{int(found[2])}"

    def apply(self, state: TapState, action: str) -> Outcome:
        found = _TAP.fullmatch(action)
        if found is None:
            raise Refused(_("write a tap as: place R,C"))
        cell = (int(found[1]), int(found[2]))
        if not (0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE):
            raise Refused(_("that cell is off the board"))
        cells = group(state.board, cell)
        if len(cells) < 2:
            raise Refused(_("tap a tile with an equal neighbour"))
        made = state.board[cell[0]][cell[1]] + 1
        grid = [list(row) for row in state.board]
        for r, c in cells:
            grid[r][c] = 0
        grid[cell[0]][cell[1]] = made
        draws, settled = settle(state.code, state.draws, grid)
        after = replace(
            state,
            board=tuple(tuple(row) for row in grid),
            score=state.score + made * len(cells),
            moves=state.moves + 1,
            draws=draws,
        )
        return Outcome(after, (Merged(cell, made, tuple(cells[1:] + cells[:1])), *settled))

    def undo(self, previous: TapState, current: TapState) -> TapState:
        return previous

    def is_over(self, state: TapState) -> bool:
        b = state.board
        return not any(
            (c + 1 < SIZE and b[r][c] == b[r][c + 1]) or (r + 1 < SIZE and b[r][c] == b[r + 1][c])
            for r in range(SIZE)
            for c in range(SIZE)
        )

    def report(self, state: TapState) -> dict[str, Any]:
        return {"largest": max(max(row) for row in state.board)}

    def announce(self, before: TapState, outcome: Outcome) -> str:
        made = [e.value for e in outcome.events if isinstance(e, Merged)]
        if not made:
            return _("Taken back.")
        return _("Made {value}. Score {score}.").format(value=made[0], score=outcome.state.score)

    def read_board(self, state: TapState) -> list[str]:
        return [", ".join(str(v) for v in row) for row in state.board]

    def render_text(self, state: TapState) -> str:
        return "\n".join(" ".join(f"{v:>2}" for v in row) for row in state.board)

    def stats(self, state: TapState) -> dict[str, int]:
        return {}


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    register(
        Mode(
            id="tap-ten",
            title=_("Tap Ten"),
            rules=TapRules(),
            size=SIZE,
            controls="place",
            place="cell",
            description=_("Tap a group of equal tiles: it becomes one tile, one higher."),
        )
    )
