"""The three 2248 modes: Classic, Daily and Blitz."""

from __future__ import annotations

from twofold.core.i18n import _
from twofold.core.presentation import Statistic
from twofold.core.rules import Mode
from twofold.variants.chain2248.rules import ChainRules

#: the Daily's merges; SPEC 4 asks for 30 unless play-testing finds a better number
DAILY_MERGES = 30
BLITZ_SECONDS = 180.0

CLASSIC = ChainRules(start={"hammer": 1, "swap": 1, "shuffle": 1, "undo": 1}, grants=True)
DAILY = ChainRules(start={"hammer": 1, "swap": 1}, merge_budget=DAILY_MERGES)
BLITZ = ChainRules(free_shuffle=True)


def statistics() -> tuple[Statistic, ...]:
    """What Statistics and ``twofold stats`` show for 2248, read from ``ChainRules.stats``."""
    return (
        Statistic("longest_chain", _("Longest chain"), "best"),
        Statistic("merges", _("Merges"), "total"),
    )


def modes() -> list[Mode]:
    """The modes, titled in the current language (the hook runs after it is set)."""
    return [
        Mode(
            id="2248",
            title=_("2248"),
            rules=CLASSIC,
            description=_("Chain equal tiles into bigger ones; no timer, no final tile."),
            controls="chain",
            statistics=statistics(),
        ),
        Mode(
            id="2248-daily",
            title=_("2248 Daily"),
            rules=DAILY,
            description=_("Today's board for everyone: 30 merges, 1 Hammer and 1 Swap."),
            daily=True,
            controls="chain",
            statistics=statistics(),
        ),
        Mode(
            id="2248-blitz",
            title=_("2248 Blitz"),
            rules=BLITZ,
            description=_("Three minutes on the clock; a free Shuffle when you are stuck."),
            time_limit=BLITZ_SECONDS,
            controls="chain",
            statistics=statistics(),
        ),
    ]
