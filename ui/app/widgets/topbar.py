"""The line above a board: the mode's title and its numbers (score, best, moves, code).

Where they do not fit on one line, the title takes a line of its own and the numbers wrap
under it (``wrapping``): nothing is cut, whatever the width and the numbers.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.reactive import reactive
from textual.widgets import Label

from twofold.ui.app.widgets.bar_layout import wrap

#: how long the score keeps the accent colour after a merge moved it
FLASH_SECONDS = 0.35


class TopBar(HorizontalGroup):
    """A title and named fields, each field's words in ``gauges`` (a game screen binds its
    own to them); ``flash`` lights a field up for a beat."""

    DEFAULT_CSS = """
    TopBar {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
    TopBar > .topbar--title {
        text-style: bold;
        color: $primary;
        width: 1fr;
    }
    TopBar > .topbar--field {
        margin: 0 0 0 2;
        color: $foreground-muted;
    }
    TopBar > .topbar--field.-flash {
        color: $accent;
        text-style: bold reverse;
    }
    TopBar.-wrapped > .topbar--title {
        width: 100%;
    }
    TopBar.-wrapped > .topbar--field {
        margin: 0;
    }
    """

    #: the blanks between two fields on one line, and between the title and the first
    GAP = 2

    #: ``(field name, its words)``, in any order; a field not named keeps its words
    gauges: reactive[tuple[tuple[str, str], ...]] = reactive(())

    def __init__(self, title: str, fields: Iterable[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._bar_title = title
        self._bar_fields = tuple(fields)
        #: what each field says now, by name (measured to fit the bar)
        self._texts = dict.fromkeys(self._bar_fields, "")

    def compose(self) -> ComposeResult:
        yield Label(self._bar_title, classes="topbar--title", id="topbar-title")
        for name in self._bar_fields:
            yield Label(self._texts[name], classes="topbar--field", id=f"topbar-{name}")

    def watch_gauges(self, gauges: tuple[tuple[str, str], ...]) -> None:
        for name, text in gauges:
            self.set(name, text)

    def set_title(self, title: str) -> None:
        self._bar_title = title
        self.query_one("#topbar-title", Label).update(title)
        self.fit()

    def set(self, name: str, text: str) -> None:
        if self._texts.get(name) != text:
            self._texts[name] = text
            if self.is_mounted:  # before then, compose draws the words
                self.query_one(f"#topbar-{name}", Label).update(text)
                self.fit()

    def on_resize(self, event: events.Resize) -> None:
        self.fit()

    def fit(self) -> None:
        """One line when the title and every field fit it, else the title above the fields."""
        if self.size.width:
            widths = [cell_len(text) for text in self._texts.values()]
            wrap(self, widths, self.size.width, gap=self.GAP, title=cell_len(self._bar_title))

    def flash(self, name: str) -> None:
        label = self.query_one(f"#topbar-{name}", Label)
        label.add_class("-flash")
        self.set_timer(FLASH_SECONDS, lambda: label.remove_class("-flash"))
