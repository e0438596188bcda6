"""Threes, as a player wrote it against the plugin docs of contract 1.1: a 4x4 slide where
a 1 and a 2 make 3 and, from 3 up, two equal tiles make their sum. It imports the contract
from the core modules it then lived in, as the docs of that time allowed."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.core.deal import below, chance
from twofold.core.events import Appeared, Cell, Event, Merged, Moved
from twofold.core.i18n import _
from twofold.core.rules import Mode, Outcome, PositionError, Refused
from twofold.plugin import hookimpl

SIZE = 4
WORDS = {
    **{w: w for w in ("left", "right", "up", "down", "undo")},
    **{"h": "left", "j": "down", "k": "up", "l": "right", "u": "undo", "z": "undo"},
    **{"a": "left", "s": "down", "w": "up", "d": "right"},
}


@dataclass(frozen=True)
class ThreesState:
    code: str
    board: tuple[tuple[int, ...], ...]
    score: int = 0
    moves: int = 0
    draws: int = 0


def joins(a: int, b: int) -> int:
    if {a, b} == {1, 2}:
        return 3
    return a + b if a == b >= 3 else 0


def lines(direction: str) -> list[list[Cell]]:
    near, far = list(range(SIZE)), list(range(SIZE - 1, -1, -1))
    order = far if direction in ("right", "down") else near
    if direction in ("left", "right"):
        return [[(r, c) for c in order] for r in near]
    return [[(r, c) for r in order] for c in near]


class ThreesRules:
    undo_depth = 50

    def new_game(self, code: str) -> ThreesState:
        state = ThreesState(code, tuple((0,) * SIZE for _ in range(SIZE)))
        for _tile in range(3):
            state, _new = self.deal(state)
        return state

    def deal(self, state: ThreesState) -> tuple[ThreesState, Appeared]:
        empty = [(r, c) for r in range(SIZE) for c in range(SIZE) if not state.board[r][c]]
        r, c = empty[below(state.code, state.draws, len(empty))]
        value = 1 if chance(state.code, state.draws + 1) < 0.5 else 2
        rows = [list(row) for row in state.board]
        rows[r][c] = value
        board = tuple(tuple(row) for row in rows)
        return replace(state, board=board, draws=state.draws + 2), Appeared((r, c), value)

    def from_position(self, data: Mapping[str, Any], code: str) -> ThreesState:
        rows = data.get("board")
        if not (
            isinstance(rows, list)
            and len(rows) == SIZE
            and all(isinstance(row, list) and len(row) == SIZE for row in rows)
            and all(type(v) is int and v >= 0 for row in rows for v in row)
        ):
            raise PositionError(_("a Threes board is 4 rows of 4 whole numbers"))
        return ThreesState(code, tuple(tuple(row) for row in rows))

    def parse(self, text: str) -> str:
        word = text.strip().lower()
        if word not in WORDS:
            raise Refused(_("unknown command '{command}'").format(command=text.strip()))
        return WORDS[word]

    def apply(self, state: ThreesState, action: str) -> Outcome:
        if action not in ("left", "right", "up", "down"):
            raise Refused(_("unknown command '{command}'").format(command=action))
        rows = [list(row) for row in state.board]
        events: list[Event] = []
        gained = 0
        for cells in lines(action):
            kept: list[int] = []
            fresh: list[bool] = []
            for origin in cells:
                value = state.board[origin[0]][origin[1]]
                if not value:
                    continue
                made = joins(kept[-1], value) if kept and not fresh[-1] else 0
                if made:
                    kept[-1], fresh[-1] = made, True
                    gained += made
                    events.append(Moved(origin, cells[len(kept) - 1], value))
                    events.append(Merged(cells[len(kept) - 1], made))
                    continue
                kept.append(value)
                fresh.append(False)
                if origin != cells[len(kept) - 1]:
                    events.append(Moved(origin, cells[len(kept) - 1], value))
            kept += [0] * (SIZE - len(kept))
            for (r, c), value in zip(cells, kept, strict=True):
                rows[r][c] = value
        if not events:
            return Outcome(state)
        board = tuple(tuple(row) for row in rows)
        pushed = replace(state, board=board, score=state.score + gained, moves=state.moves + 1)
        after, new = self.deal(pushed)
        return Outcome(after, (*events, new))

    def undo(self, previous: ThreesState, current: ThreesState) -> ThreesState:
        return previous

    def is_over(self, state: ThreesState) -> bool:
        return all(not self.apply(state, d).events for d in ("left", "right", "up", "down"))

    def report(self, state: ThreesState) -> dict[str, Any]:
        return {}

    def announce(self, before: ThreesState, outcome: Outcome) -> str:
        if not outcome.changed:
            return _("Nothing moved.")
        return _("Score {score}.").format(score=outcome.state.score)

    def read_board(self, state: ThreesState) -> list[str]:
        return [", ".join(str(v) if v else _("empty") for v in row) for row in state.board]

    def render_text(self, state: ThreesState) -> str:
        return "\n".join(" ".join(f"{v or '.':>3}" for v in row) for row in state.board)

    def stats(self, state: ThreesState) -> dict[str, int]:
        return {}


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    register(
        Mode(
            id="threes",
            title=_("Threes"),
            rules=ThreesRules(),
            size=SIZE,
            controls="slide",
            description=_("A 1 and a 2 make 3; from 3 up, equal tiles join."),
        )
    )
