"""twofold-drop: a drop game where equal touching blocks merge, again and again.

This module is the plugin: twofold finds it through the entry point
``drop = "twofold_drop"`` in the ``twofold`` group (see pyproject.toml) and calls
``twofold_register_modes``, which adds the mode ``drop``.

The mode uses ``controls="place"`` with ``place="column"``: the action is a column,
``place C`` (from 0 in the protocol, from 1 in ``--plain``), and twofold's app plays it
by a click on a column or the cursor and Enter. Everything the app shows of it comes
from the :class:`~twofold.core.rules.Mode`: the Help text, the statistics, the top bar,
the next two blocks (``Status.upcoming``), the hint, the ``judge`` that previews a drop
while a column is aimed at, and the tutorial. Only twofold's public API
(``twofold.core``) is imported: no built-in variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from twofold.plugin import (
    Autoplayer,
    Cell,
    Gauge,
    Hint,
    Mode,
    Refused,
    Statistic,
    Status,
    TutorialPage,
    Verdict,
    _,
    games_reaching,
    hookimpl,
)
from twofold_drop.rules import COLUMNS, GOAL, DropRules, DropState, drop, landing

__all__ = ["GOAL", "MODE_ID", "hint", "judge", "modes", "status"]

MODE_ID = "drop"
RULES = DropRules()


def help_text() -> str:
    """The rules in the game's own words, for Help (Markdown)."""
    return "\n\n".join(
        [
            _("Pick a column: the next block falls to the lowest empty cell of it. Equal "
              "blocks that touch it (sideways, up or down) **merge** into it: two 4s make "
              "8, three 4s make 16. Blocks above fall into the gaps, and whatever fell or "
              "was made merges again, as long as equal blocks touch."),
            _("The next two blocks are shown beside the board. The score grows by every "
              "block made. Make {goal} to win, then keep going if you like. A full column "
              "takes no block; the game is over when every column is full.").format(goal=GOAL),
            _("Click a column, or move the cursor with the arrow keys and press Enter. H "
              "shows the column that makes the most points; U takes back a drop."),
        ]
    )  # fmt: skip


def statistics() -> tuple[Statistic, ...]:
    """What Statistics and ``twofold stats`` show for Twofold Drop, besides the usual."""
    return (
        games_reaching(GOAL),
        Statistic("combo", _("Most merges from one drop"), "best"),
        Statistic("merges", _("Merges made, all games"), "total"),
    )


def status(state: DropState) -> Status:
    """The top bar's own gauge, the next blocks, and why a finished game ended."""
    over = _("Every column is full") if RULES.is_over(state) else ""
    return Status(gauges={"combo": str(state.combo)}, over=over, upcoming=state.upcoming)


def judge(state: DropState, cells: Sequence[Cell]) -> Verdict:
    """A column aimed at (its top cell): the largest block the drop makes, or why not."""
    if len(cells) != 1:
        return Verdict(0, _("aim at one column"))
    column = cells[0][1]
    try:
        _after, events, _merges = drop(state, column)
    except Refused as refusal:
        return Verdict(0, str(refusal))
    made = [e.value for e in events if e.kind == "merged"]
    return Verdict(max(made, default=state.upcoming[0]))


def hint(state: DropState) -> Hint | None:
    """The column whose drop makes the most points (then leaves the most room)."""
    best: tuple[int, int, int] | None = None
    for column in range(COLUMNS):
        row = landing(state.board, column)
        if row is None:
            continue
        after, _events, _merges = drop(state, column)
        room = sum(1 for line in after.board for v in line if not v)
        choice = (after.score - state.score, room, -column)
        if best is None or choice > best:
            best = choice
    if best is None:
        return None
    column = -best[2]
    row = landing(state.board, column)
    return Hint(f"place {column}", ((row or 0, column),))


class TakeTheHint:
    """The autoplayer: plays the hint until the game is over (Watch the solver)."""

    def choose(self, state: DropState) -> str | None:
        best = hint(state)
        return best.action if best else None


def autoplayer(depth: int | None) -> Autoplayer:
    return TakeTheHint()  # it looks one drop ahead, whatever --depth says


def tutorial() -> tuple[TutorialPage, ...]:
    return (
        TutorialPage(
            _("Drop a block"),
            _("Pick a column: the next block falls as far down as it goes. The next two "
              "blocks are shown beside the board."),
        ),
        TutorialPage(
            _("Equal blocks merge"),
            _("Equal blocks that touch merge into the one that fell: three 4s make 16."),
            tiles=(4, 4, 4),
            makes=16,
        ),
        TutorialPage(
            _("Again and again"),
            _("Blocks above fall into the gaps, and whatever fell merges again. Keep a "
              "column free: the game ends when every column is full."),
        ),
    )  # fmt: skip


def modes() -> list[Mode]:
    """The modes this plugin adds."""
    return [
        Mode(
            id=MODE_ID,
            title=_("Twofold Drop"),
            rules=RULES,
            size=COLUMNS,
            description=_("Drop blocks in columns: equal touching blocks merge, again and again."),
            controls="place",
            place="column",
            goal=GOAL,
            help=help_text(),
            statistics=statistics(),
            gauges=(
                Gauge("score"),
                Gauge("best"),
                Gauge("moves"),
                Gauge("combo", _("Best combo")),
                Gauge("code"),
            ),
            tutorial=tutorial(),
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
