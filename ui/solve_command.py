"""``twofold solve``: the 2048 solver plays games headless and reports how far it got.

Solver games are never recorded: they are played on the rules directly, with no session
and no store. Ctrl+C stops early and still prints the table of the games finished.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO, cast

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from twofold.core.codes import CodeError, code_from_text, new_code, parse_code
from twofold.core.i18n import _, ngettext
from twofold.core.plugins import registry
from twofold.core.rules import Mode
from twofold.variants.classic2048.rules import ClassicRules, SlideState
from twofold.variants.classic2048.solver import (
    MAX_DEPTH,
    MILESTONES,
    SolvedGame,
    Solver,
    play_out,
    summarise,
)

FAMILY = "2048"
USAGE_ERROR = 2
INTERRUPTED = 130


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = _("Let the 2048 solver play games headless and report how far it got.")
    parser.add_argument(
        "--size", type=int, default=4, metavar=_("N"), help=_("board size (4, 5, 6)")
    )
    parser.add_argument(
        "--games", type=int, default=10, metavar=_("N"), help=_("how many games (default 10)")
    )
    parser.add_argument(
        "--code",
        metavar=_("CODE"),
        help=_("the first game's code; later games' codes follow from it (default: fresh codes)"),
    )
    parser.add_argument(
        "--depth",
        type=int,
        metavar=_("D"),
        help=_("moves to look ahead, 1 to {most} (default: more as the board fills)").format(
            most=MAX_DEPTH
        ),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object instead of a table")
    )


def codes(first: str | None, count: int) -> list[str]:
    """The games' codes: ``first`` then codes derived from it, or fresh ones."""
    if first is None:
        return [new_code() for _ in range(count)]
    return [first] + [code_from_text(f"twofold-solve:{first}:{n}") for n in range(1, count)]


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        mode = _mode(args.size)
        if args.games < 1:
            raise ValueError(_("--games must be at least 1"))
        if args.depth is not None and not 1 <= args.depth <= MAX_DEPTH:
            raise ValueError(_("--depth must be from 1 to {most}").format(most=MAX_DEPTH))
        first = parse_code(args.code) if args.code else None
    except (ValueError, CodeError) as error:
        print(f"twofold: {error}", file=err)
        return USAGE_ERROR
    rules = cast(ClassicRules, mode.rules)  # _mode picked a classic 2048 mode
    solver = Solver(rules.size, args.depth)
    finished: list[SolvedGame] = []
    interrupted = False
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        console=Console(file=err),
        transient=True,
    )
    try:
        with progress:
            task = progress.add_task(_("Solving"), total=args.games, status="")

            def moved(state: SlideState) -> None:
                if state.moves % 50 == 0:  # redrawing on every move would slow the solver
                    status = _("game {number}: move {moves}, largest {largest}").format(
                        number=len(finished) + 1, moves=state.moves, largest=state.largest
                    )
                    progress.update(task, status=status)

            for code in codes(first, args.games):
                finished.append(play_out(rules, code, solver, on_move=moved))
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    summary = summarise(finished)
    summary.update(mode=mode.id, depth=args.depth, interrupted=interrupted)
    if args.json:
        summary["results"] = [
            {"code": g.code, "score": g.score, "largest": g.largest, "moves": g.moves}
            for g in finished
        ]
        print(json.dumps(summary), file=out)
    else:
        Console(file=out).print(_table(summary))
        if interrupted:
            stopped = ngettext(
                "Stopped: {count} game finished.", "Stopped: {count} games finished.", len(finished)
            )
            print(stopped.format(count=len(finished)), file=out)
    return INTERRUPTED if interrupted else 0


def _mode(size: int) -> Mode:
    family = [m for m in registry().family(FAMILY) if isinstance(m.rules, ClassicRules)]
    for mode in family:
        if mode.size == size:
            return mode
    sizes = ", ".join(str(m.size) for m in family) or "-"
    raise ValueError(
        _("2048 has no {size}x{size} board (sizes: {sizes})").format(size=size, sizes=sizes)
    )


def _table(summary: dict[str, Any]) -> Table:
    # One fact a row, so the table fits an 80-column terminal.
    table = Table(title=_("The solver on {mode}").format(mode=summary["mode"]))
    table.add_column(_("games"))
    table.add_column(str(summary["games"]), justify="right")
    for tile in MILESTONES:
        share = summary["reached"][str(tile)]
        table.add_row(_("reached {tile}").format(tile=tile), f"{share:.0%}")
    table.add_row(_("mean score"), f"{summary['mean_score']:,.0f}")
    table.add_row(_("median score"), f"{summary['median_score']:,.0f}")
    table.add_row(_("largest tile"), str(summary["largest"]))
    table.add_row(_("moves per second"), f"{summary['moves_per_second']:,.1f}")
    return table
