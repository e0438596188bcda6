"""``twofold stats [MODE] [--json]``: records per mode, tables for people or JSON for programs."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from twofold.core._i18n import _, ngettext
from twofold.core._presentation import Statistic
from twofold.core._rules import Mode
from twofold.core.plugins import registry
from twofold.core.records import Records
from twofold.core.store import SqliteStore, open_store
from twofold.ui.command import completion

if TYPE_CHECKING:
    from rich.table import Table

#: blocks from low to high for the line of recent scores
SPARK = "▁▂▃▄▅▆▇█"
RECENT = 30


def configure(parser: argparse.ArgumentParser) -> None:
    mode = parser.add_argument(
        "mode",
        nargs="?",
        metavar=_("MODE"),
        help=_("a mode id or family (2048, 2248, ...); every mode with finished games if left out"),
    )
    completion.complete_modes(mode)
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object instead of tables")
    )


def run(args: argparse.Namespace, *, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    modes = registry().modes
    store = open_store()
    try:
        chosen = _choose(args.mode, modes, store)
        if chosen is None:
            known = ", ".join(sorted(modes)) or "-"
            print(
                "twofold: "
                + _("unknown mode {name!r} (modes: {known})").format(name=args.mode, known=known),
                file=err,
            )
            return 2
        report = [
            (
                mode_id,
                store.records(mode_id, _statistics(modes.get(mode_id))),
                store.recent_scores(mode_id, RECENT),
            )
            for mode_id in chosen
        ]
        if store.notice:  # how the file opened, or rows that could not be read
            print(store.notice, file=err)
    finally:
        store.close()
    if args.json:
        data = {
            "modes": {
                mode_id: _as_json(records, modes.get(mode_id), recent)
                for mode_id, records, recent in report
            }
        }
        print(json.dumps(data), file=out)
        return 0
    from rich.console import Console  # rich only for a table: every command builds this parser

    console = Console(file=out, highlight=False)
    if not report:
        console.print(_("No finished games yet."))
        return 0
    for mode_id, records, recent in report:
        console.print(_table(records, modes.get(mode_id), recent))
    return 0


def _choose(name: str | None, modes: dict[str, Mode], store: SqliteStore) -> list[str] | None:
    """The mode ids to show, or None if ``name`` names no mode."""
    history = store.modes_with_history()
    if name is None:
        known = [mode_id for mode_id in modes if mode_id in history]
        return known + [mode_id for mode_id in history if mode_id not in modes]
    key = name.strip().lower()
    if key in modes:
        return [key]
    family = [mode_id for mode_id, mode in modes.items() if mode.family.lower() == key]
    if family:
        return family
    # A mode whose plugin is gone still has its records.
    if key in history:
        return [key]
    return None


def _statistics(mode: Mode | None) -> tuple[Statistic, ...]:
    # A mode whose plugin is gone shows the figures every mode has, nothing of its own.
    return mode.statistics if mode is not None else ()


def _is_daily(mode: Mode | None, records: Records) -> bool:
    return mode.daily if mode is not None else records.longest_streak > 0


def _as_json(records: Records, mode: Mode | None, recent: Sequence[int]) -> dict[str, Any]:
    fields = records.as_dict()
    data: dict[str, Any] = {
        "mode": fields.pop("mode_id"),
        "title": mode.title if mode is not None else records.mode_id,
    }
    data.update((name, value) for name, value in fields.items() if name not in data)
    data["daily"] = _is_daily(mode, records)
    data["recent_scores"] = list(recent)
    return data


def play_time(seconds: float) -> str:
    """``h:mm:ss`` (or ``m:ss`` under an hour)."""
    total = int(max(0.0, seconds))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def sparkline(scores: Sequence[int]) -> str:
    """Recent scores as a line of blocks, oldest on the left."""
    if not scores:
        return ""
    low, high = min(scores), max(scores)
    span = high - low
    if span == 0:
        return SPARK[len(SPARK) // 2] * len(scores)
    return "".join(SPARK[(s - low) * (len(SPARK) - 1) // span] for s in scores)


def _table(records: Records, mode: Mode | None, recent: Sequence[int]) -> Table:
    from rich.table import Table
    from rich.text import Text

    title = mode.title if mode is not None else records.mode_id
    table = Table(title=title, show_header=False, title_justify="left", min_width=40)
    table.add_column(_("Record"), style="bold")
    table.add_column(_("Value"), justify="right")
    rows: list[tuple[str, str | Text]] = [
        (_("Games played"), f"{records.played:,}"),
        (_("Best score"), f"{records.best:,}"),
        (_("Average score"), f"{round(records.average):,}"),
        (_("Largest tile"), str(records.largest) if records.largest else "-"),
    ]
    rows += [(s.label, _figure(s, records)) for s in _statistics(mode)]
    rows.append((_("Play time"), play_time(records.play_time)))
    if _is_daily(mode, records):
        rows.append((_("Current streak"), _days(records.current_streak)))
        rows.append((_("Longest streak"), _days(records.longest_streak)))
    rows.append((_("Tiles reached"), Text(" ".join(str(t) for t in records.tiles) or "-")))
    if recent:
        rows.append((_("Recent scores"), Text(sparkline(recent), style="cyan")))
    for label, value in rows:
        table.add_row(label, value)
    return table


def _figure(statistic: Statistic, records: Records) -> str:
    """A statistic's value for people: thousands grouped, a share for games that reached it."""
    value = records.values.get(statistic.field, 0)
    if statistic.aggregate == "reached" and records.played:
        return _("{count} ({share:.0%})").format(count=value, share=value / records.played)
    if isinstance(value, float):
        return f"{value:,.1f}"
    return f"{value:,}"


def _days(count: int) -> str:
    return ngettext("{count} day", "{count} days", count).format(count=count)
