"""twofold-fibonacci: a sliding game where neighbouring Fibonacci numbers add up.

This module is the plugin: twofold finds it through the entry point
``fibonacci = "twofold_fibonacci"`` in the ``twofold`` group (see pyproject.toml) and
calls the two functions marked ``@hookimpl``:

* ``twofold_register_modes`` adds the modes ``fib`` and ``fib-daily``;
* ``twofold_game_finished`` writes every finished Fibonacci game to a journal.

The rules live in :mod:`twofold_fibonacci.rules`. Both modes use ``controls="slide"``,
so twofold's app plays them on its generic sliding board: no widget of our own. What
the app shows of them comes from the modes too: the Help text, the statistics, and
the top bar (with a gauge of our own, the sums made so far).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twofold.plugin import Gauge, Mode, Statistic, Status, _, games_reaching, hookimpl
from twofold_fibonacci.rules import GOAL, FibonacciRules, FibState

__all__ = ["GOAL", "MODE_IDS", "journal_path", "modes"]

MODE_IDS = ("fib", "fib-daily")
#: the journal keeps these fields of a finished game, one JSON object a line
JOURNAL_FIELDS = ("game_id", "mode_id", "code", "score", "largest", "moves", "counted", "day")


def help_text(undo: str) -> str:
    """The rules in the game's own words, for Help (Markdown); ``undo`` says how far back."""
    return "\n\n".join(
        [
            _("Slide every tile as far as it goes. Two tiles that meet **add up** when they "
              "are neighbours in the Fibonacci sequence (1, 2, 3, 5, 8, 13, ...) or both "
              "are 1: 1 and 2 make 3, 3 and 5 make 8. Two equal tiles other than 1s never "
              "join, and a tile made in a move does not add up again in the same move."),
            _("After every move that changes the board a new tile is born: a 1, or one "
              "time in ten a 2. The score grows by every tile made."),
            _("Make {goal} to win, then keep going if you like. The game is over when the "
              "board is full and no two neighbours add up.").format(goal=GOAL),
            undo,
        ]
    )  # fmt: skip


def statistics() -> tuple[Statistic, ...]:
    """What Statistics and ``twofold stats`` show for these modes, besides the usual."""
    return (
        games_reaching(GOAL),
        Statistic("sums", _("Sums made, all games"), "total", name="sums"),
        Statistic("sums", _("Most sums in a game"), "best", name="most_sums"),
    )


#: the top bar: the usual items and one of our own, read from ``status``
GAUGES = (Gauge("score"), Gauge("best"), Gauge("moves"), Gauge("sums", _("Sums")), Gauge("code"))


def status(state: FibState) -> Status:
    """The value of our own gauge for a state."""
    return Status(gauges={"sums": str(state.sums)})


def modes() -> list[Mode]:
    """The modes this plugin adds."""
    shown = {"statistics": statistics(), "gauges": GAUGES, "status": status}
    return [
        Mode(
            id="fib",
            title=_("Fibonacci"),
            rules=FibonacciRules(4, undo_depth=500),
            family="fib",
            size=4,
            description=_("Slide, and neighbours in the Fibonacci sequence add up: reach 2584."),
            controls="slide",
            goal=GOAL,
            help=help_text(_("Undo (U) goes back as far as you like.")),
            **shown,
        ),
        Mode(
            id="fib-daily",
            title=_("Fibonacci Daily"),
            # one step of undo: today's board is the same for everyone, keep it honest
            rules=FibonacciRules(4, undo_depth=1),
            family="fib-daily",
            size=4,
            description=_("Today's Fibonacci board, the same for every player."),
            daily=True,
            controls="slide",
            goal=GOAL,
            help=help_text(
                _("Today's board is the same for everyone: Undo (U) takes back one move only.")
            ),
            **shown,
        ),
    ]


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)


def journal_path() -> Path:
    """Where the journal lives: beside twofold's database, in a folder of our own."""
    from twofold.plugin import data_dir

    return data_dir() / "plugins" / "twofold-fibonacci" / "journal.jsonl"


@hookimpl
def twofold_game_finished(mode_id: str, result: dict[str, Any]) -> None:
    if mode_id not in MODE_IDS:
        return  # every plugin hears about every game; we only keep our own
    entry = {key: result.get(key) for key in JOURNAL_FIELDS}
    entry["sums"] = dict(result.get("stats") or {}).get("sums", 0)
    path = journal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as journal:
        journal.write(json.dumps(entry, sort_keys=True) + "\n")
