"""The key capture: a small dialog that waits for one key press and gives it back.

:class:`~twofold.ui.app.keys.KeyBindingsScreen` opens it to take a new key for an action.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from twofold.core._i18n import _
from twofold.ui.app.seams import TwofoldScreen


class KeyCapture(TwofoldScreen[str | None], ModalScreen[str | None]):
    """Waits for one key press and gives it back; Esc gives None."""

    #: the app lets even its priority keys (ctrl+q, ctrl+p) through to this screen
    CAPTURES_KEYS: ClassVar[bool] = True

    DEFAULT_CSS = """
    KeyCapture {
        align: center middle;
    }
    KeyCapture #capture {
        width: 60;
        max-width: 100%;
        height: auto;
        padding: 1 2;
        border: round $accent;
        background: $surface;
    }
    KeyCapture Label {
        width: 100%;
    }
    """

    def __init__(self, prompt: str) -> None:
        super().__init__()
        self.prompt = prompt

    def compose(self) -> ComposeResult:
        with Vertical(id="capture"):
            yield Label(self.prompt)
            yield Label(_("Esc cancels."), classes="muted")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None if event.key == "escape" else event.key)
