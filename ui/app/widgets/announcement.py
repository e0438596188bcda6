"""The announcement line under a board: what the last action did, in words."""

from __future__ import annotations

from textual.widgets import Static


class AnnouncementLine(Static):
    """Shows the latest announcement; R's board reading fills it with several lines."""

    DEFAULT_CSS = """
    AnnouncementLine {
        height: auto;
        max-height: 8;
        min-height: 1;
        padding: 0 1;
        color: $foreground;
        text-align: center;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.text = ""

    def announce(self, text: str) -> None:
        self.text = text
        self.update(text)
