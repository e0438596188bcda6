"""Classic 2048, the sliding variant: registered through the plugin hooks like any plugin.

Modes: ``2048`` (4x4), ``2048-5x5``, ``2048-6x6`` and ``2048-daily`` (4x4, one code per
UTC date). The rules live in :mod:`.rules`, the move engine in :mod:`.slide`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twofold.plugin import (
    Autoplayer,
    Gauge,
    LegalActions,
    Mode,
    Sample,
    Statistic,
    _,
    games_reaching,
    hookimpl,
)
from twofold.variants.classic2048.codec import SlideCodec
from twofold.variants.classic2048.rules import GOAL, ClassicRules

FAMILY = "2048"
DAILY_FAMILY = "2048-daily"


def help_text() -> str:
    """The rules in 2048's words, for Help (Markdown)."""
    return "\n\n".join(
        [
            _("Slide every tile as far as it goes in one direction. Two equal tiles that "
              "meet merge into one of double value, and the score grows by the new tile. "
              "A tile made by a merge does not merge again in the same move; where three "
              "equal tiles line up, the two nearest the wall merge."),
            _("After every move that changes the board one new tile appears: a 2, or "
              "one time in ten a 4. A move that changes nothing is no move."),
            _("Make the goal tile to win, then keep going if you like. The game is over "
              "when the board is full and no two neighbours (not diagonals) are equal."),
            _("Drag across the board with the mouse to swipe, or click the arrows under it. "
              "Undo is unlimited and never changes the tile that comes next. The game code "
              "in the top bar replays the same game anywhere: `twofold play MODE/CODE`."),
        ]
    )  # fmt: skip


def statistics() -> tuple[Statistic, ...]:
    return (games_reaching(GOAL),)


def autoplayer(size: int) -> Callable[[int | None], Autoplayer]:
    """The expectimax solver as the mode's autoplayer (``--depth`` picks its look-ahead)."""

    def make(depth: int | None) -> Autoplayer:
        from twofold.variants.classic2048.solver import Solver

        return Solver(size, depth)

    return make


def sampler(size: int) -> Callable[[], Sample | None]:
    """The stored Sample game of a ``size`` x ``size`` board, if there is one."""

    def sample() -> Sample | None:
        from twofold.variants.classic2048.sample import samples

        found = samples().get(str(size))
        if found is None:
            return None
        return Sample(found["code"], tuple(found["moves"]))

    return sample


#: raised whenever a logged move would play differently (a proof names it)
RULES_VERSION = 1


def _contract(size: int) -> dict[str, Any]:
    """What every 2048 mode of this size offers beyond its rules."""
    rules = ClassicRules(size)
    return {
        "rules": rules,
        # a move is its rank among the legal ones: under two bits in a proof
        "proof": LegalActions(rules.legal, RULES_VERSION, rules.advance),
        "help": help_text(),
        "statistics": statistics(),
        "gauges": (Gauge("score"), Gauge("best"), Gauge("moves"), Gauge("code")),
        "autoplayer": autoplayer(size),
        "sample": sampler(size),
        "codec": SlideCodec(size),
        # no per-move hint in 2048: that is the app playing instead of you; Watch stays
    }


def modes() -> list[Mode]:
    """The modes classic 2048 adds, 4x4 first."""
    found = [
        Mode(
            id="2048",
            title=_("2048"),
            family=FAMILY,
            size=4,
            description=_("The classic: slide and merge on 4x4 to make a 2048 tile."),
            controls="slide",
            goal=GOAL,
            **_contract(4),
        )
    ]
    for size in (5, 6):
        found.append(
            Mode(
                id=f"2048-{size}x{size}",
                title=_("2048 {size}x{size}").format(size=size),
                family=FAMILY,
                size=size,
                description=_("More room: 2048 on a {size}x{size} board.").format(size=size),
                controls="slide",
                goal=GOAL,
                **_contract(size),
            )
        )
    found.append(
        Mode(
            id="2048-daily",
            title=_("2048 Daily"),
            family=DAILY_FAMILY,
            size=4,
            description=_("Today's 4x4 game, the same deal for every player."),
            daily=True,
            controls="slide",
            goal=GOAL,
            **{**_contract(4), "sample": None},  # today's board has no stored game to watch
        )
    )
    return found


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
