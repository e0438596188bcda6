"""twofold-hex: 2048 on a hexagon of 19 cells, slid in six directions.

twofold finds this module through the entry point ``hex = "twofold_hex"`` in the
``twofold`` group and calls ``twofold_register_modes``. The modes declare their board's
shape (``layout``: a hexagon) and their six directions (``directions``: keys, glyphs and
swipe angles), so the app, the browser, ``--plain``, ``--json`` and the learning
environment all play it as a hexagon, with no widget of our own.
"""

from __future__ import annotations

from collections.abc import Callable

from twofold.plugin import (
    HEX_DIRECTIONS,
    Autoplayer,
    Hint,
    Mode,
    _,
    empty_cells,
    games_reaching,
    hookimpl,
    slide,
)
from twofold_hex.rules import GOAL, HEX, LINES, HexRules, HexState

__all__ = ["GOAL", "MODE_ID", "modes"]

MODE_ID = "hex"
RULES = HexRules()


def help_text() -> str:
    """The rules in the game's own words, for Help (Markdown)."""
    return "\n\n".join(
        [
            _("The board is a hexagon of 19 cells. Slide every tile as far as it goes in "
              "one of six directions: **7 9** up-left and up-right, **4 6** (or the arrows) "
              "left and right, **1 3** down-left and down-right, as on the number pad. "
              "Two equal tiles that meet merge into their sum."),
            _("After every move that changes the board a new tile appears: a 2, or one "
              "time in ten a 4. Make {goal} to win; the game is over when no push moves "
              "a tile.").format(goal=GOAL),
        ]
    )  # fmt: skip


def hint(state: HexState) -> Hint | None:
    """The push that makes the most points, then leaves the most room (no peek at the deal)."""
    best: tuple[int, int, str] | None = None
    for direction, lines in LINES.items():
        board, events, points = slide(state.board, lines)
        if events and (best is None or (points, len(empty_cells(board))) > best[:2]):
            best = (points, len(empty_cells(board)), direction)
    return Hint(best[2]) if best else None


class TakeTheHint:
    """The autoplayer: plays the hint until the game is over (Watch the solver, solve)."""

    def choose(self, state: HexState) -> str | None:
        best = hint(state)
        return best.action if best else None


def autoplayer(depth: int | None) -> Autoplayer:
    return TakeTheHint()  # it looks one push ahead, whatever --depth says


def modes() -> list[Mode]:
    """Hex and its daily board, titled in the current language (the hook runs after it is set)."""
    shared = {
        "rules": RULES,
        "controls": "slide",
        "goal": GOAL,
        "help": help_text(),
        "statistics": (games_reaching(GOAL),),
        "hint": hint,
        "autoplayer": autoplayer,
        "directions": HEX_DIRECTIONS,
        "layout": HEX,
    }
    return [
        Mode(
            id=MODE_ID,
            title=_("Hex 2048"),
            description=_("2048 on a hexagon: slide in six directions."),
            **shared,  # type: ignore[arg-type]
        ),
        Mode(
            id=f"{MODE_ID}-daily",
            title=_("Hex 2048 Daily"),
            description=_("Today's Hex board, the same for everyone."),
            daily=True,
            **shared,  # type: ignore[arg-type]
        ),
    ]


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
