"""The line above a board: the mode's title and its numbers (score, best, moves, code)."""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Label

#: how long the score keeps the accent colour after a merge moved it
FLASH_SECONDS = 0.35


class TopBar(HorizontalGroup):
    """A title and named fields; ``set`` updates one, ``flash`` lights one up for a beat."""

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
    """

    def __init__(self, title: str, fields: Iterable[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._bar_title = title
        self._bar_fields = tuple(fields)

    def compose(self) -> ComposeResult:
        yield Label(self._bar_title, classes="topbar--title", id="topbar-title")
        for name in self._bar_fields:
            yield Label("", classes="topbar--field", id=f"topbar-{name}")

    def set_title(self, title: str) -> None:
        self.query_one("#topbar-title", Label).update(title)

    def set(self, name: str, text: str) -> None:
        self.query_one(f"#topbar-{name}", Label).update(text)

    def flash(self, name: str) -> None:
        label = self.query_one(f"#topbar-{name}", Label)
        label.add_class("-flash")
        self.set_timer(FLASH_SECONDS, lambda: label.remove_class("-flash"))
