"""Statistics per mode: records, the strip of tiles reached, and recent scores."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Label, Select, Sparkline, Static

from twofold.core._i18n import _, ngettext
from twofold.core._rules import Mode
from twofold.core.records import Records
from twofold.ui.app.seams import TwofoldHost, TwofoldScreen
from twofold.ui.app.widgets.footer import Footer
from twofold.ui.app.widgets.tiles import tile_style


def duration(seconds: float) -> str:
    """``1h 02m``, ``3m 07s`` or ``12s``."""
    total = int(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return _("{h}h {m:02d}m").format(h=hours, m=minutes)
    if minutes:
        return _("{m}m {s:02d}s").format(m=minutes, s=secs)
    return _("{s}s").format(s=secs)


def records_table(mode: Mode, records: Records) -> Table:
    table = Table.grid(padding=(0, 3))
    table.add_column(justify="left", style="bold")
    table.add_column(justify="right")
    rows: list[tuple[str, str]] = [
        (_("Games played"), str(records.played)),
        (_("Best score"), str(records.best)),
        (_("Average score"), f"{round(records.average)}"),
        (_("Largest tile"), str(records.largest or "-")),
    ]
    for statistic in mode.statistics:
        value = records.values.get(statistic.field, 0)
        rows.append((statistic.label, f"{value:.1f}" if isinstance(value, float) else str(value)))
    rows.append((_("Time played"), duration(records.play_time)))
    if mode.daily:
        rows += [
            (_("Daily streak"), str(records.current_streak)),
            (_("Longest daily streak"), str(records.longest_streak)),
        ]
    for name, value in rows:
        table.add_row(name, value)
    return table


def tile_strip(tiles: tuple[int, ...]) -> Text:
    """Every tile value reached, each in its own colours."""
    if not tiles:
        return Text(_("No tiles yet: finish a game to start the strip."), style="italic")
    strip = Text()
    for value in tiles:
        strip.append(f" {value} ", style=tile_style(value))
        strip.append(" ")
    return strip


#: the columns of the recent-scores plot each game takes
GAME_COLUMNS = 2


class StatisticsScreen(TwofoldScreen[None]):
    """Records of one mode at a time; pick the mode in the list or with [ and ]."""

    DEFAULT_CSS = """
    StatisticsScreen #stats {
        padding: 0 2;
    }
    StatisticsScreen #stats-title {
        text-style: bold;
        color: $primary;
    }
    StatisticsScreen #stats-mode {
        width: 40;
        margin-bottom: 1;
    }
    StatisticsScreen .stats--heading {
        text-style: bold;
        color: $primary;
        margin-top: 1;
    }
    StatisticsScreen #stats-scores {
        height: 4;
        max-width: 100%;
        margin-top: 1;
    }
    StatisticsScreen #stats-scores-range {
        color: $foreground-muted;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "step(1)", _("Next mode"), key_display="]",
                id="stats.next"),
        Binding("left_square_bracket", "step(-1)", _("Previous mode"), key_display="[",
                id="stats.previous"),
        Binding("escape,q", "back", _("Back"), tooltip=_("Back to where you were"),
                id="stats.back"),
    ]  # fmt: skip

    def __init__(self, mode_id: str | None = None) -> None:
        super().__init__()
        self.start_mode = mode_id

    @property
    def twofold(self) -> TwofoldHost:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        modes = list(self.twofold.registry.modes.values())
        first = self.start_mode if self.start_mode in self.twofold.registry.modes else None
        if first is None and modes:
            first = modes[0].id
        with VerticalScroll(id="stats"):
            yield Label(_("Statistics"), id="stats-title")
            yield Select(
                [(m.title, m.id) for m in modes],
                value=first if first is not None else Select.NULL,
                allow_blank=False,
                id="stats-mode",
            )
            yield Static("", id="stats-records")
            yield Label(_("Tiles reached"), classes="stats--heading")
            yield Static("", id="stats-tiles")
            yield Label(_("Recent scores"), classes="stats--heading")
            yield Sparkline([], id="stats-scores")
            yield Label("", id="stats-scores-range")
        yield Footer()

    def on_mount(self) -> None:
        self.show_mode()

    @property
    def mode_id(self) -> str | None:
        value = self.query_one("#stats-mode", Select).value
        return value if isinstance(value, str) else None

    @on(Select.Changed, "#stats-mode")
    def _changed(self) -> None:
        self.show_mode()

    def show_mode(self) -> None:
        mode_id = self.mode_id
        if mode_id is None:
            self.query_one("#stats-records", Static).update(_("No modes are installed."))
            return
        mode = self.twofold.registry.mode(mode_id)
        store = self.twofold.store
        records = store.records(mode_id, mode.statistics)
        self.query_one("#stats-records", Static).update(records_table(mode, records))
        self.query_one("#stats-tiles", Static).update(tile_strip(tuple(records.tiles)))
        scores = store.recent_scores(mode_id, limit=30)
        sparkline = self.query_one("#stats-scores", Sparkline)
        sparkline.data = [float(s) for s in scores]
        # an empty plot is its sentence alone (a Sparkline of nothing draws a solid block)
        sparkline.display = bool(scores)
        # a bar a game, never stretched: one game (a Sparkline of one value fills its
        # whole width) is one bar, and equal scores a short flat line, not a wall
        sparkline.styles.width = GAME_COLUMNS * len(scores)
        if scores:
            summary = ngettext(
                "{count} recent game, lowest {low}, highest {high}, last {last}",
                "{count} recent games, lowest {low}, highest {high}, last {last}",
                len(scores),
            ).format(count=len(scores), low=min(scores), high=max(scores), last=scores[-1])
        else:
            summary = _("No finished games yet.")
        self.query_one("#stats-scores-range", Label).update(summary)

    def action_step(self, delta: int) -> None:
        ids = list(self.twofold.registry.modes)
        if not ids:
            return
        current = self.mode_id
        index = ids.index(current) if current in ids else 0
        self.query_one("#stats-mode", Select).value = ids[(index + delta) % len(ids)]

    def action_back(self) -> None:
        self.dismiss()
