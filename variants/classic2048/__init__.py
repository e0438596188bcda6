"""Classic 2048, the sliding variant: registered through the plugin hooks like any plugin.

Modes: ``2048`` (4x4), ``2048-5x5``, ``2048-6x6`` and ``2048-daily`` (4x4, one code per
UTC date). The rules live in :mod:`.rules`, the move engine in :mod:`.slide`.
"""

from __future__ import annotations

from collections.abc import Callable

from twofold.core import hookimpl
from twofold.core.i18n import _
from twofold.core.rules import Mode
from twofold.variants.classic2048.rules import GOAL, ClassicRules

FAMILY = "2048"
DAILY_FAMILY = "2048-daily"


def modes() -> list[Mode]:
    """The modes classic 2048 adds, 4x4 first."""
    found = [
        Mode(
            id="2048",
            title=_("2048"),
            rules=ClassicRules(4),
            family=FAMILY,
            size=4,
            description=_("The classic: slide and merge on 4x4 to make a 2048 tile."),
            controls="slide",
            goal=GOAL,
        )
    ]
    for size in (5, 6):
        found.append(
            Mode(
                id=f"2048-{size}x{size}",
                title=_("2048 {size}x{size}").format(size=size),
                rules=ClassicRules(size),
                family=FAMILY,
                size=size,
                description=_("More room: 2048 on a {size}x{size} board.").format(size=size),
                controls="slide",
                goal=GOAL,
            )
        )
    found.append(
        Mode(
            id="2048-daily",
            title=_("2048 Daily"),
            rules=ClassicRules(4),
            family=DAILY_FAMILY,
            size=4,
            description=_("Today's 4x4 game, the same deal for every player."),
            daily=True,
            controls="slide",
            goal=GOAL,
        )
    )
    return found


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
