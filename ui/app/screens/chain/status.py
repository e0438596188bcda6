"""The line above a chain board: what the chain would make, a refusal, praise, the hint."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.timer import Timer
from textual.widgets import Static

from twofold.core._i18n import _
from twofold.core._presentation import PowerUp
from twofold.ui.app.widgets.tiles import vivid_style as tile_style

#: how long a message (praise, a new tile) and a refusal stay on the line
MESSAGE_SECONDS = 3.0
REFUSAL_SECONDS = 1.5

REFUSAL_STYLE = Style(color="red", bold=True)


def armed_prompt(powerup: PowerUp, picked: int) -> str:
    """What an armed power-up waits for, by what it is aimed at."""
    if powerup.target == "pair":
        if picked:
            return _("{powerup}: pick a neighbour to swap with (Esc cancels)").format(
                powerup=powerup.name
            )
        return _("{powerup}: pick the first of two touching tiles (Esc cancels)").format(
            powerup=powerup.name
        )
    return _("{powerup}: pick the tile (Esc cancels)").format(powerup=powerup.name)


def tile_count(value: int, length: int) -> Text:
    """`` 8  ×3``: a tile in its colour and how many tiles the chain has."""
    text = Text()
    text.append(f" {value} ", style=tile_style(value))
    text.append(f" ×{length}", style="bold")
    return text


class StatusLine(Static):
    """One line of words over the board; messages and refusals fade after a while."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.message: Text | None = None
        self.refusal = ""
        self._message_timer: Timer | None = None
        self._refusal_timer: Timer | None = None
        #: what to show when nothing else is said (the screen sets it)
        self.resting = Text()

    def say(self, message: Text) -> None:
        """Show ``message`` for a while (praise, a new tile, a retirement)."""
        self.message = message
        if self._message_timer is not None:
            self._message_timer.stop()
        self._message_timer = self.set_timer(MESSAGE_SECONDS, self._clear_message)

    def refuse(self, reason: str) -> None:
        """Show why something was refused, for a moment."""
        self.refusal = reason
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
        self._refusal_timer = self.set_timer(REFUSAL_SECONDS, self.clear_refusal)

    def clear(self) -> None:
        self.message = None
        self.refusal = ""

    def _clear_message(self) -> None:
        self.message = None
        self._message_timer = None
        self.show(self.resting)

    def clear_refusal(self) -> None:
        self.refusal = ""
        self._refusal_timer = None
        self.show(self.resting)

    def show(self, resting: Text, *, prompt: str = "") -> None:
        """Draw the line: a prompt first, then a refusal, a message, the rest."""
        self.resting = resting
        refusal = "✗ " + self.refusal if self.refusal else ""
        if prompt:
            text = Text(refusal, style=REFUSAL_STYLE) if refusal else Text(prompt, style="bold")
        elif refusal:
            text = Text(refusal, style=REFUSAL_STYLE)
        elif self.message is not None:
            text = self.message
        else:
            text = resting
        self.update(text)
