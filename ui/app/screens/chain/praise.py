"""What a chain step earns in words over the board: praise, a new highest tile (from the
mode's milestone, with the power-up it grants) and a retired tile."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from twofold.core._events import Earned, Event, Merged, Praised, Removed
from twofold.core._i18n import _
from twofold.core._rules import Board, Mode, largest_tile
from twofold.ui.app.widgets.tiles import vivid_style as tile_style

Cell = tuple[int, int]


def celebration(
    mode: Mode, before: Board, events: Sequence[Event]
) -> tuple[Text | None, list[Cell]]:
    """The words for a step's events (None: nothing to say) and the cells to celebrate."""
    parts: list[tuple[str, Style]] = []
    cells: list[Cell] = []
    earned = {e.tile: e.powerup for e in events if isinstance(e, Earned)}
    names = {p.id: p.name for p in mode.powerups}
    highest = largest_tile(before)
    milestone = mode.milestone
    for event in events:
        if isinstance(event, Praised):
            parts.append((_(event.word) + "!", Style(bold=True, italic=True)))
        elif isinstance(event, Merged) and milestone and event.value > highest:
            if event.value >= milestone:
                banner = _("New tile: {value}").format(value=event.value)
                powerup = earned.get(event.value)
                if powerup:
                    banner += " · " + _("one more {powerup}").format(
                        powerup=names.get(powerup, powerup)
                    )
                parts.append((f" {banner} ", tile_style(event.value)))
                cells.append(event.cell)
        elif isinstance(event, Removed) and event.reason == "retired":
            parts.append(
                (
                    _("The {value} has retired: no more {value}s.").format(value=event.value),
                    Style(bold=True),
                )
            )
    if not parts:
        return None, cells
    text = Text()
    for i, (words, style) in enumerate(parts):
        if i:
            text.append("   ")
        text.append(words, style=style)
    return text, cells
