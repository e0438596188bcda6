"""twofold-stones: 2048 on a board with stones, the plugin contract's blocked cells.

twofold finds this module through the entry point ``stones = "twofold_stones"`` in
the ``twofold`` group and calls ``twofold_register_modes``. The mode uses
``controls="slide"``, so the app plays it on its one board, which draws the stones the
rules put on it (``STONE``): no widget of our own.
"""

from __future__ import annotations

from collections.abc import Callable

from twofold.plugin import Mode, _, games_reaching, hookimpl
from twofold_stones.rules import GOAL, StonesRules

__all__ = ["GOAL", "MODE_ID", "modes"]

MODE_ID = "stones"


def help_text() -> str:
    """The rules in the game's own words, for Help (Markdown)."""
    return "\n\n".join(
        [
            _("Slide every tile as far as it goes; two equal tiles that meet merge into "
              "their sum. Three **stones** (the grey grained cells) stand on the board: "
              "tiles stop at them, as at a wall, and they never move or merge."),
            _("After every move that changes the board a new tile appears: a 2, or one "
              "time in ten a 4. Make {goal} to win; the game is over when no push moves "
              "a tile.").format(goal=GOAL),
        ]
    )  # fmt: skip


def modes() -> list[Mode]:
    """The mode, titled in the current language (the hook runs after it is set)."""
    return [
        Mode(
            id=MODE_ID,
            title=_("Stones"),
            rules=StonesRules(),
            description=_("Slide and merge around three stones that never move."),
            controls="slide",
            goal=GOAL,
            help=help_text(),
            statistics=(games_reaching(GOAL),),
        )
    ]


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
