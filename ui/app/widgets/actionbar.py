"""A line of the game's actions above the Footer, where the terminal is wide enough.

The Footer has room for the everyday keys only; Restart, Last game, Sample, Copy link,
Copy result and Watch the solver would otherwise be found only in Help and the
command palette. From :data:`WIDE` columns up they are listed here too, each with its
key, and a click runs it. Only the actions the screen offers right now are shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.markup import escape
from textual.widgets import Static

#: columns from which the line is shown
WIDE = 120
#: the actions listed, in order (the screen's action names)
ACTIONS = ("restart", "last_game", "sample", "copy_link", "copy_result", "watch_solver")


class ActionBar(Static):
    """The screen's less common actions, clickable, shown only in a wide terminal."""

    DEFAULT_CSS = """
    ActionBar {
        height: 1;
        width: 100%;
        padding: 0 1;
        background: $panel;
        display: none;
    }
    ActionBar.-wide {
        display: block;
    }
    """

    def __init__(self, actions: Sequence[str] = ACTIONS, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.actions = tuple(actions)

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self.update_actions())
        self.fit(self.screen.size.width)
        self.update_actions()

    def fit(self, width: int) -> None:
        self.set_class(width >= WIDE, "-wide")

    def listed(self) -> list[tuple[str, str, str]]:
        """``(action, label, key)`` of each action the screen offers now."""
        screen = self.screen
        found: list[tuple[str, str, str]] = []
        for action in self.actions:
            binding = next(
                (
                    b.binding
                    for b in screen.active_bindings.values()
                    if b.binding.action.removeprefix("screen.") == action  # a game's own keys
                ),
                None,
            )
            if binding is None or not screen.check_action(action, ()):
                continue
            found.append((action, binding.description, self.app.get_key_display(binding)))
        return found

    def update_actions(self) -> None:
        parts = [
            f"[b]{escape(key)}[/b] [@click=screen.{action}]{escape(label)}[/]"
            for action, label, key in self.listed()
        ]
        self.update("  ".join(parts))
