"""A tiny variant for testing the core without any real game: a one-cell tally."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from twofold.core._deal import below
from twofold.core._events import Merged
from twofold.core._rules import Mode, Outcome, PositionError, Refused
from twofold.plugin import hookimpl


@dataclass(frozen=True)
class Tally:
    code: str
    value: int = 0
    score: int = 0
    moves: int = 0
    draws: int = 0

    @property
    def board(self) -> tuple[tuple[int, ...], ...]:
        return ((self.value,),)


class TallyRules:
    undo_depth = 3

    def new_game(self, code: str) -> Tally:
        return Tally(code)

    def from_position(self, data: Mapping[str, Any], code: str) -> Tally:
        try:
            return Tally(code, value=int(data["board"][0][0]))
        except (KeyError, IndexError, TypeError, ValueError):
            raise PositionError("a tally position is [[n]]") from None

    def parse(self, text: str) -> str:
        word = text.strip().lower()
        if word in ("add", "a", "stay", "undo", "u"):
            return {"a": "add", "u": "undo"}.get(word, word)
        raise Refused(f"unknown command {text.strip()!r}")

    def apply(self, state: Tally, action: str) -> Outcome:
        if state.value >= 12:
            raise Refused("the tally is full")
        if action == "stay":
            return Outcome(state)
        amount = below(state.code, state.draws, 3) + 1
        new = replace(
            state,
            value=state.value + amount,
            score=state.score + amount,
            moves=state.moves + 1,
            draws=state.draws + 1,
        )
        return Outcome(new, (Merged((0, 0), new.value),))

    def undo(self, previous: Tally, current: Tally) -> Tally:
        return previous

    def is_over(self, state: Tally) -> bool:
        return state.value >= 12

    def report(self, state: Tally) -> dict[str, Any]:
        return {"tally": state.value}

    def announce(self, before: Tally, outcome: Outcome) -> str:
        return f"Tally {outcome.state.value}." if outcome.changed else "Nothing happened."

    def read_board(self, state: Tally) -> list[str]:
        return [f"Tally {state.value}"]

    def render_text(self, state: Tally) -> str:
        return f"[{state.value}]"

    def stats(self, state: Tally) -> dict[str, int]:
        return {"adds": state.moves}


TALLY = Mode(id="tally", title="Tally", rules=TallyRules(), goal=8)
TIMED = Mode(
    id="tally-timed", title="Timed tally", rules=TallyRules(), family="tally", time_limit=10.0
)


class TallyPlugin:
    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register(TALLY)
        register(TIMED)
