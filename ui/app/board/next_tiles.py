"""What comes next, beside the board of any mode: "Next: 8, then 4" in words, and the
same tiles drawn in the board's colours (``Status.upcoming``; hidden when it is empty)."""

from __future__ import annotations

from collections.abc import Callable

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from twofold.core._presentation import upcoming_words
from twofold.ui.app.widgets.tiles import tile_label


class Upcoming(Vertical):
    """The next tiles: their words (``#upcoming``, what a screen reader reads) and chips."""

    DEFAULT_CSS = """
    Upcoming {
        width: 22;
        height: auto;
        padding: 1 1;
        display: none;
    }
    Upcoming.-shown { display: block; }
    Upcoming > #upcoming { text-style: bold; }
    Upcoming > #upcoming-tiles { margin-top: 1; }
    """

    def __init__(self, palette: Callable[[int], Style], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.palette = palette
        self.values: tuple[int, ...] = ()
        self._shown = False

    def compose(self) -> ComposeResult:
        yield Static("", id="upcoming", markup=False)
        yield Static("", id="upcoming-tiles", markup=False)

    def show(self, values: tuple[int, ...]) -> None:
        """Show ``values`` (the nearest first), or hide when there are none."""
        values = tuple(values)
        if values == self.values and self._shown:
            return  # unchanged: no new layout for the screen (most steps of most modes)
        self.values, self._shown = values, True
        words = upcoming_words(self.values)
        self.query_one("#upcoming", Static).update(words[:1].upper() + words[1:])
        chips = Text()
        for value in self.values:
            chips.append(f" {tile_label(value, 6)} ", self.palette(value))
            chips.append(" ")
        self.query_one("#upcoming-tiles", Static).update(chips)
        self.set_class(bool(self.values), "-shown")
