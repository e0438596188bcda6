"""``twofold solve``: a mode's autoplayer plays games headless and reports how far it got.

Any mode that offers an autoplayer can be solved (2048 by default). Games run in worker
processes (every core by default) or on a Dask cluster; the table and the JSON list
them in the order of their codes, the same however they were spread. Autoplayer games
are never recorded: they are played on the rules directly, with no session and no
store. Ctrl+C stops every worker and still prints the table of the games finished.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

from twofold.core._i18n import _, ngettext
from twofold.core._rules import Mode
from twofold.core.autoplay import PlayedGame, milestones, play_out, summarise
from twofold.core.codes import CodeError, code_from_text, new_code, parse_code
from twofold.core.plugins import PluginFault, owner_of, registry
from twofold.core.session import rules_faults
from twofold.ui.command import completion
from twofold.ui.command.about import slow_search_line

if TYPE_CHECKING:
    from rich.table import Table

DEFAULT_MODE = "2048"
USAGE_ERROR = 2
INTERRUPTED = 130


def every_core() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = _("Let a mode's autoplayer play games headless and report how far it got.")
    mode = parser.add_argument(
        "mode",
        nargs="?",
        default=DEFAULT_MODE,
        metavar=_("MODE"),
        help=_("a mode with an autoplayer, such as 2048 or 2248 (default 2048)"),
    )
    completion.complete_modes(mode)
    parser.add_argument(
        "--size", type=int, metavar=_("N"), help=_("board size, for modes that have sizes")
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
        help=_("how far the autoplayer looks ahead (default: the mode's own choice)"),
    )
    parser.add_argument(
        "--stop-at",
        type=int,
        metavar=_("TILE"),
        help=_("end each game when it makes this tile"),
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar=_("N"),
        help=_("games played side by side in processes (default: every core)"),
    )
    parser.add_argument(
        "--cluster",
        metavar=_("ADDRESS"),
        help=_("play the games on a Dask cluster (tcp://host:8786)"),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object instead of a table")
    )


def codes(first: str | None, count: int) -> list[str]:
    """The games' codes: ``first`` then codes derived from it, or fresh ones."""
    if first is None:
        return [new_code() for _ in range(count)]
    return [first] + [code_from_text(f"twofold-solve:{first}:{n}") for n in range(1, count)]


def _checked(args: argparse.Namespace) -> tuple[Mode, Any, str | None]:
    """The mode, its autoplayer and the first code; ValueError in one line."""
    from twofold.ui.command.cli import UsageError, resolve_mode

    try:
        mode = resolve_mode(registry(), args.mode, args.size)
    except UsageError as error:
        raise ValueError(str(error)) from None
    if mode.autoplayer is None:
        raise ValueError(_("mode {mode!r} has no autoplayer to solve it").format(mode=mode.id))
    if args.games < 1:
        raise ValueError(_("--games must be at least 1"))
    if args.workers is not None and args.workers < 1:
        raise ValueError(_("--workers must be at least 1"))
    if args.stop_at is not None and args.stop_at < 2:
        raise ValueError(_("--stop-at must be a tile of 2 or more"))
    try:
        autoplayer = mode.autoplayer(args.depth)
    except ValueError as error:  # the autoplayer refuses this --depth: a usage error
        raise ValueError(
            _("--depth {depth}: {reason}").format(depth=args.depth, reason=error)
        ) from None
    except Exception as error:  # anything else is the mode's fault: one line, status 1
        raise PluginFault(mode.id, error, owner_of(mode.id)) from error
    first = parse_code(args.code) if args.code else None
    return mode, autoplayer, first


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    from twofold.ui.command import solve_runners

    out = out or sys.stdout
    err = err or sys.stderr
    try:
        mode, autoplayer, first = _checked(args)
    except (ValueError, CodeError) as error:
        print(f"twofold: {error}", file=err)
        return USAGE_ERROR
    slow = slow_search_line(mode, autoplayer)
    if slow is not None:
        print(slow, file=err)
    client = None
    if args.cluster:
        try:  # connect before any game, so an unreachable scheduler is one line at once
            client = solve_runners.connect(args.cluster)
        except solve_runners.ClusterUnavailable as error:
            print(f"twofold: {error}", file=err)
            return USAGE_ERROR
    games = codes(first, args.games)
    workers = min(args.workers or every_core(), len(games))
    finished: dict[int, PlayedGame] = {}
    interrupted = False
    stopped_by: list[int] = []
    # rich only when games are played: every command builds this module's parser
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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
        with progress, _sigterm_as_ctrl_c(stopped_by):
            task = progress.add_task(_("Solving"), total=len(games), status="")

            def done(index: int, game: PlayedGame) -> None:
                finished[index] = game
                status = _("last: largest {largest}, score {score}").format(
                    largest=game.largest, score=game.score
                )
                progress.update(task, advance=1, status=status)

            if client is not None:
                solve_runners.on_cluster(
                    client, mode.id, games, args.depth, args.stop_at, done, args.json
                )
            elif workers > 1:
                solve_runners.in_processes(
                    mode.id, games, args.depth, args.stop_at, workers, done, args.json
                )
            else:

                def moved(state: Any) -> None:
                    if state.moves % 50 == 0:  # redrawing on every move would slow the solver
                        status = _("game {number}: move {moves}, score {score}").format(
                            number=len(finished) + 1, moves=state.moves, score=state.score
                        )
                        progress.update(task, status=status)

                for index, code in enumerate(games):
                    with rules_faults(mode, owner_of(mode.id)):  # a failing autoplayer: exit 1
                        game = play_out(
                            mode, code, autoplayer, args.stop_at, on_move=moved, prove=args.json
                        )
                    done(index, game)
    except KeyboardInterrupt:
        interrupted = True
    played = [finished[i] for i in sorted(finished)]
    summary = summarise(played, milestones(mode))
    summary.update(mode=mode.id, depth=args.depth, stop_at=args.stop_at, interrupted=interrupted)
    if args.json:
        summary["results"] = [game.result() for game in played]
        print(json.dumps(summary), file=out)
    else:
        Console(file=out).print(_table(mode, summary))
        if interrupted:
            stopped = ngettext(
                "Stopped: {count} game finished.", "Stopped: {count} games finished.", len(played)
            )
            print(stopped.format(count=len(played)), file=out)
    if stopped_by:
        return 128 + stopped_by[0]
    return INTERRUPTED if interrupted else 0


@contextlib.contextmanager
def _sigterm_as_ctrl_c(stopped_by: list[int]) -> Iterator[None]:
    """SIGTERM stops the games as ctrl+c does (every worker stopped, the table printed).

    Its number goes into ``stopped_by``, for the exit status (128 + 15, as a shell says).
    """

    def stop(number: int, _frame: Any) -> None:
        stopped_by.append(number)
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave SIGTERM as it is
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _label(mode: Mode, key: str) -> str:
    """A per-game number's name: the mode's own statistic label, else its key in words."""
    for statistic in mode.statistics:
        if statistic.key == key and statistic.aggregate != "reached":
            return statistic.label
    return key.replace("_", " ")


def _table(mode: Mode, summary: dict[str, Any]) -> Table:
    # One fact a row, so the table fits an 80-column terminal.
    from rich.table import Table

    table = Table(title=_("The autoplayer on {mode}").format(mode=summary["mode"]))
    table.add_column(_("games"))
    table.add_column(str(summary["games"]), justify="right")
    for tile, share in summary["reached"].items():
        table.add_row(_("reached {tile}").format(tile=tile), f"{share:.0%}")
    table.add_row(_("mean score"), f"{summary['mean_score']:,.0f}")
    table.add_row(_("median score"), f"{summary['median_score']:,.0f}")
    table.add_row(_("largest tile"), str(summary["largest"]))
    for key, numbers in summary["stats"].items():
        table.add_row(
            _("{name}: mean, best").format(name=_label(mode, key)),
            f"{numbers['mean']:,.1f}, {numbers['best']:,}",
        )
    table.add_row(_("moves per second"), f"{summary['moves_per_second']:,.1f}")
    return table
