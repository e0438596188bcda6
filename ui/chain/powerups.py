"""The row of buttons under the 2248 board: power-ups with their counts, Hint and Pause."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Button

from twofold.core.i18n import _

#: power-up, its key, and the action a click runs
POWERUP_KEYS: tuple[tuple[str, str], ...] = (
    ("hammer", "1"),
    ("swap", "2"),
    ("shuffle", "3"),
    ("undo", "u"),
)


def powerup_title(name: str) -> str:
    return {
        "hammer": _("Hammer"),
        "swap": _("Swap"),
        "shuffle": _("Shuffle"),
        "undo": _("Undo"),
    }[name]


class PowerUpButton(Button):
    """A button that never takes focus, so the board keeps the keyboard."""

    def __init__(self, label: str, *, action: str, id: str) -> None:
        super().__init__(label, action=action, id=id, compact=True)
        self.can_focus = False


class PowerUpBar(HorizontalGroup):
    """Power-up buttons with count badges; the armed one is lit."""

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

    def compose(self) -> ComposeResult:
        for name, _key in POWERUP_KEYS:
            action = "screen.undo" if name == "undo" else f"screen.arm('{name}')"
            yield PowerUpButton(powerup_title(name), action=action, id=f"powerup-{name}")
        yield PowerUpButton(_("H Hint"), action="screen.hint", id="powerup-hint")
        yield PowerUpButton(_("P Pause"), action="screen.pause", id="powerup-pause")

    def update_counts(
        self,
        held: Mapping[str, int],
        *,
        armed: str | None,
        shown: Mapping[str, bool],
        free_shuffle: bool = False,
    ) -> None:
        """Show each power-up's count; hide those this mode does not offer right now."""
        for name, key in POWERUP_KEYS:
            button = self.query_one(f"#powerup-{name}", Button)
            count = held.get(name, 0)
            free = name == "shuffle" and free_shuffle
            button.display = shown.get(name, True)
            badge = _("free") if free else f"×{count}"
            button.label = f"{key.upper()} {powerup_title(name)} {badge}"
            button.disabled = not free and count < 1
            button.set_class(armed == name, "-armed")
            button.set_class(free, "-offered")
