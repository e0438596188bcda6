"""The row of buttons under a chain board: the mode's power-ups with their counts, Hint, Pause.

The bar shows what it is bound to (the mode's status, the armed power-up) and says what
was pressed in a message; the screen decides what a press does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.widgets import Button

from twofold.core._i18n import _
from twofold.core._presentation import PowerUp, Status
from twofold.ui.app.widgets.bar_layout import wrap


class PowerUpButton(Button):
    """A button that never takes focus, so the board keeps the keyboard."""

    def __init__(self, label: str, *, id: str) -> None:
        super().__init__(label, id=id, compact=True)
        self.can_focus = False

    def get_content_width(self, container: Size, viewport: Size) -> int:
        # in a narrow bar the label has no blank each side (the margin keeps them apart)
        width = super().get_content_width(container, viewport)
        narrow = self.parent is not None and self.parent.has_class("-narrow")
        return width - 2 if narrow else width


class PowerUpBar(HorizontalGroup):
    """The mode's power-ups with count badges (the armed one lit), then Hint and Pause."""

    DEFAULT_CSS = """
    PowerUpBar {
        height: 1;
        width: 100%;
        align-horizontal: center;
    }
    PowerUpBar > Button {
        margin: 0 1;
        min-width: 6;
    }
    PowerUpBar.-narrow > Button {
        margin: 0 0 0 1;
    }
    PowerUpBar.-wrapped {
        align-horizontal: left;
    }
    PowerUpBar > Button.-armed {
        background: $accent;
        color: $text;
        text-style: bold reverse;
    }
    PowerUpBar > Button.-offered {
        background: $success;
        color: $text;
    }
    """

    class Chosen(Message):
        """A power-up's button was pressed (to arm it, or play it at once)."""

        def __init__(self, powerup: str) -> None:
            super().__init__()
            #: the power-up's id
            self.powerup = powerup

    class Asked(Message):
        """Hint or Pause was pressed."""

        def __init__(self, action: Literal["hint", "pause"]) -> None:
            super().__init__()
            self.action: Literal["hint", "pause"] = action

    #: the mode's status: what each power-up counts, which are free now
    status: var[Status] = var(Status)
    #: the power-up waiting for its tiles (its button lit), or None
    armed: var[str | None] = var(None)

    def __init__(self, powerups: Sequence[PowerUp], *, hint: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self.powerups = tuple(powerups)
        self.hint = hint

    def compose(self) -> ComposeResult:
        for powerup in self.powerups:
            yield PowerUpButton(powerup.name, id=f"powerup-{powerup.id}")
        if self.hint:
            yield PowerUpButton(_("H Hint"), id="powerup-hint")
        yield PowerUpButton(_("P Pause"), id="powerup-pause")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button.id or ""
        if button == "powerup-hint":
            self.post_message(self.Asked("hint"))
        elif button == "powerup-pause":
            self.post_message(self.Asked("pause"))
        else:
            self.post_message(self.Chosen(button.removeprefix("powerup-")))

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width)

    def fit(self, width: int) -> None:
        """Buttons closer together when their padding and margins would cut the last off,
        and on two lines (or more) when even that is too wide: never a button cut."""
        if not width:
            return
        shown = [button for button in self.query(Button) if button.display]
        labels = [cell_len(str(button.label)) for button in shown]
        narrow = sum(labels) + 4 * len(shown) > width
        if narrow != self.has_class("-narrow"):
            self.set_class(narrow, "-narrow")
            for button in shown:
                button.styles.line_pad = 0 if narrow else 1
            self.refresh(layout=True)
        # narrow, a button is its label and the blank before it (its left margin)
        wrap(self, [label + (1 if narrow else 4) for label in labels], width)

    def on_mount(self) -> None:
        self._show_counts()

    def watch_status(self) -> None:
        self._show_counts()

    def watch_armed(self) -> None:
        self._show_counts()

    def _show_counts(self) -> None:
        """Show each power-up's count (or that it is free now); hide what is not offered."""
        if not self.is_mounted:
            return
        status, armed = self.status, self.armed
        for powerup in self.powerups:
            button = self.query_one(f"#powerup-{powerup.id}", Button)
            count = int(status.powerups.get(powerup.id, 0))
            free = powerup.id in status.free
            button.display = free or not powerup.offered_only
            badge = _("free") if free else f"×{count}"
            button.label = f"{powerup.key.upper()} {powerup.name} {badge}"
            button.disabled = not free and count < 1
            button.set_class(armed == powerup.id, "-armed")
            button.set_class(free, "-offered")
        self.fit(self.size.width)
