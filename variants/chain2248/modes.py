"""The three 2248 modes, Classic, Daily and Blitz, and what each tells the app to show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from twofold.plugin import Cell, Gauge, Hint, Mode, PowerUp, Refused, Statistic, Status, Verdict, _
from twofold.variants.chain2248.autoplay import autoplayer_for
from twofold.variants.chain2248.codec import ChainCodec
from twofold.variants.chain2248.guide import help_text, tutorial
from twofold.variants.chain2248.powerups import POWERUPS
from twofold.variants.chain2248.proof import ChainCoder
from twofold.variants.chain2248.rules import GRANT_FROM, ChainRules, check_chain
from twofold.variants.chain2248.state import ChainState

#: the Daily's merges: 30 until play-testing finds a better number
DAILY_MERGES = 30
BLITZ_SECONDS = 180.0

CLASSIC = ChainRules(start={"hammer": 1, "swap": 1, "shuffle": 1, "undo": 1}, grants=True)
DAILY = ChainRules(start={"hammer": 1, "swap": 1}, merge_budget=DAILY_MERGES)
#: against the clock there is no going back: no Undo, and no key offering one
BLITZ = ChainRules(free_shuffle=True, undo_depth=0)


def powerups(*names: str, offered_only: bool = False) -> tuple[PowerUp, ...]:
    """The named power-ups as the app shows them, with their keys (from ``POWERUPS``)."""
    return tuple(
        PowerUp(
            kind.id,
            _(kind.name),
            kind.key,
            kind.target,
            _(kind.description),
            offered_only=offered_only,
        )
        for kind in (POWERUPS[name] for name in names)
    )


def statistics() -> tuple[Statistic, ...]:
    return (
        Statistic("longest_chain", _("Longest chain"), "best"),
        Statistic("merges", _("Merges"), "total"),
    )


class Presenter:
    """What a 2248 state shows beyond its board: power-ups, merges left, why it ended."""

    def __init__(self, rules: ChainRules) -> None:
        self.rules = rules

    def status(self, state: ChainState) -> Status:
        rules = self.rules
        gauges = {}
        if state.merges_left is not None:
            gauges["merges_left"] = str(state.merges_left)
        rescues = tuple(rules.rescues(state))
        free = ("shuffle",) if rules.free_shuffle and "shuffle" in rescues else ()
        over = ""
        if rules.is_spent(state):
            over = _("No merges left")
        elif rules.stuck(state) and not rescues:
            over = _("No more moves")
        return Status(
            gauges=gauges, powerups=dict(state.powerups), rescues=rescues, free=free, over=over
        )

    def hint(self, state: ChainState) -> Hint | None:
        cells = self.rules.hint(state)
        if not cells:
            return None
        return Hint("chain " + " ".join(f"{r},{c}" for r, c in cells), tuple(cells))

    @staticmethod
    def judge(state: Any, cells: Sequence[Cell]) -> Verdict:
        """A partial chain by 2248's rule: its rounded value, or why the last tile cannot join."""
        if len(cells) < 2:
            return Verdict()
        try:
            return Verdict(check_chain(state.board, cells))
        except Refused as refused:
            return Verdict(reason=str(refused))


def _mode(
    id: str,
    title: str,
    rules: ChainRules,
    description: str,
    gauges: tuple[Gauge, ...],
    offered: tuple[PowerUp, ...],
    **extra: Any,
) -> Mode:
    presenter = Presenter(rules)
    return Mode(
        id=id,
        title=title,
        rules=rules,
        description=description,
        controls="chain",
        help=help_text(),
        statistics=statistics(),
        gauges=gauges,
        powerups=offered,
        tutorial=tutorial(),
        milestone=1 << GRANT_FROM,
        status=presenter.status,
        hint=presenter.hint,
        judge=presenter.judge,
        autoplayer=autoplayer_for(rules),
        codec=ChainCodec(),
        proof=ChainCoder(),
        **extra,
    )


def modes() -> list[Mode]:
    """The modes, titled in the current language (the hook runs after it is set)."""
    every = tuple(POWERUPS)
    return [
        _mode(
            "2248",
            _("2248"),
            CLASSIC,
            _("Chain equal tiles into bigger ones; no timer, no final tile."),
            (Gauge("score"), Gauge("best"), Gauge("code")),
            powerups(*every),
        ),
        _mode(
            "2248-daily",
            _("2248 Daily"),
            DAILY,
            _("Today's board for everyone: 30 merges, 1 Hammer and 1 Swap."),
            (Gauge("score"), Gauge("best"), Gauge("merges_left", _("Merges left")), Gauge("code")),
            powerups(*every),
            daily=True,
        ),
        _mode(
            "2248-blitz",
            _("2248 Blitz"),
            BLITZ,
            _("Three minutes on the clock; a free Shuffle when you are stuck."),
            (Gauge("score"), Gauge("best"), Gauge("clock"), Gauge("code")),
            powerups("shuffle", offered_only=True),
            time_limit=BLITZ_SECONDS,
        ),
    ]
