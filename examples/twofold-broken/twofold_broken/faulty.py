"""Modes ``faulty`` and ``misdrawn``: a tiny sliding counter whose rules go wrong.

Left, up and down each add one to the counter. In ``faulty`` right divides by zero; in
``misdrawn`` right reports a merge on a cell that is not on the board, an event no board
can draw. Used to check that either stops only that game and keeps its save.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.plugin import Event, Merged, Mode, Outcome, PositionError, Refused, hookimpl

WORDS = {"left": "left", "right": "right", "up": "up", "down": "down", "undo": "undo", "u": "undo"}


@dataclass(frozen=True)
class Counter:
    code: str
    moves: int = 0

    @property
    def board(self) -> tuple[tuple[int, ...], ...]:
        return ((self.moves + 1, 0), (0, 0))

    @property
    def score(self) -> int:
        return self.moves


def Counted(moves: int) -> Event:
    """A move made: the tile in the corner shows the count (core vocabulary)."""
    return Merged((0, 0), moves)


class FaultyRules:
    undo_depth = 10

    def new_game(self, code: str) -> Counter:
        return Counter(code)

    def from_position(self, data: Mapping[str, Any], code: str) -> Counter:
        raise PositionError("the faulty mode takes no positions")

    def parse(self, text: str) -> str:
        word = text.strip().lower()
        if word not in WORDS:
            raise Refused(f"unknown command {text.strip()!r}")
        return WORDS[word]

    #: what ``right`` does wrong: raise, or describe a cell off the board
    misdraws = False

    def apply(self, state: Counter, action: str) -> Outcome:
        if action == "right" and self.misdraws:
            after = replace(state, moves=state.moves + 1)
            return Outcome(after, (Merged((7, 7), 2),))  # the bug, on purpose: no cell (7, 7)
        if action == "right":
            return Outcome(state, (Counted(1 // 0),))  # the bug, on purpose
        after = replace(state, moves=state.moves + 1)
        return Outcome(after, (Counted(after.moves),))

    def undo(self, previous: Counter, current: Counter) -> Counter:
        return previous

    def is_over(self, state: Counter) -> bool:
        return False

    def report(self, state: Counter) -> dict[str, Any]:
        return {}

    def announce(self, before: Counter, outcome: Outcome) -> str:
        return f"Counted {outcome.state.moves}."

    def read_board(self, state: Counter) -> list[str]:
        return [f"Counter {state.moves}"]

    def render_text(self, state: Counter) -> str:
        return f"[{state.moves}]"

    def stats(self, state: Counter) -> dict[str, int]:
        return {}


class MisdrawnRules(FaultyRules):
    misdraws = True


FAULTY = Mode(id="faulty", title="Faulty", rules=FaultyRules(), controls="slide")
MISDRAWN = Mode(id="misdrawn", title="Misdrawn", rules=MisdrawnRules(), controls="slide")


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    register(FAULTY)
    register(MISDRAWN)
