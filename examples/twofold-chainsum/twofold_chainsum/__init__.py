"""twofold-chainsum: a chain game where N equal tiles of value v make one tile N*v.

This module is the plugin: twofold finds it through the entry point
``chainsum = "twofold_chainsum"`` in the ``twofold`` group (see pyproject.toml) and
calls ``twofold_register_modes``, which adds the mode ``chainsum``.

The mode uses ``controls="chain"``, so twofold's app plays it on its chain board, and
everything the app shows of it comes from the :class:`~twofold.plugin.Mode`: the
Help text, the statistics, the top bar, the hint, the autoplayer, and the ``judge``
that previews a chain while it is drawn (its tile, or why a tile cannot join). It has
no power-ups, so the app shows none. Only twofold's public API (``twofold.plugin``) is
imported: no built-in variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from twofold.plugin import Autoplayer, Cell, Gauge, Mode, Statistic, Status, Verdict, _, hookimpl
from twofold_chainsum.hint import hint
from twofold_chainsum.rules import ChainSumRules, SumState, chain_value, problem

__all__ = ["MODE_ID", "judge", "modes", "status"]

MODE_ID = "chainsum"


def help_text() -> str:
    """The rules in the game's own words, for Help (Markdown)."""
    return "\n\n".join(
        [
            _("Draw a chain through **equal** tiles, each touching the one before it "
              "(sideways, up, down or diagonally), no tile twice. A chain of N tiles of "
              "value v becomes one tile N × v on its last tile, exactly: four 3s make 12, "
              "two 5s make 10. The score grows by the tile made."),
            _("The tiles above fall into the gaps and new tiles (a 1, 2 or 3) drop in from "
              "the top. The game is over when no two equal tiles touch."),
            _("While you draw, the preview shows the tile the chain would make. H shows "
              "the chain that makes the largest tile; U takes back a chain (as far back as "
              "you like). There are no power-ups."),
        ]
    )  # fmt: skip


def statistics() -> tuple[Statistic, ...]:
    """What Statistics and ``twofold stats`` show for Chain Sum, besides the usual."""
    return (
        Statistic("longest", _("Longest chain"), "best"),
        Statistic("chains", _("Chains made, all games"), "total"),
        Statistic("chains", _("Chains per game"), "average", name="chains_per_game"),
    )


def status(state: SumState) -> Status:
    """The top bar's own gauge, and why a finished game ended."""
    over = _("No two equal tiles touch") if RULES.is_over(state) else ""
    return Status(gauges={"longest": str(state.longest)}, over=over)


def judge(state: SumState, cells: Sequence[Cell]) -> Verdict:
    """A chain being drawn: the tile it would make, or why its last tile cannot join."""
    reason = problem(state.board, cells)
    return Verdict(0 if reason else chain_value(state.board, cells), reason)


class TakeTheHint:
    """The autoplayer: plays the hint until the game is over (Watch the solver)."""

    def choose(self, state: SumState) -> str | None:
        best = hint(state)
        return best.action if best else None


def autoplayer(depth: int | None) -> Autoplayer:
    return TakeTheHint()  # it looks no further ahead, whatever --depth says


RULES = ChainSumRules(undo_depth=100)


def modes() -> list[Mode]:
    """The modes this plugin adds."""
    return [
        Mode(
            id=MODE_ID,
            title=_("Chain Sum"),
            rules=RULES,
            size=6,
            description=_("Chain equal tiles: N tiles of value v make one tile N × v."),
            controls="chain",
            help=help_text(),
            statistics=statistics(),
            gauges=(
                Gauge("score"),
                Gauge("best"),
                Gauge("moves"),
                Gauge("longest", _("Longest chain")),
                Gauge("code"),
            ),
            status=status,
            hint=hint,
            autoplayer=autoplayer,
            judge=judge,
        )
    ]


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
