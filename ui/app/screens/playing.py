"""What the chain screen's parts may ask of the game screen that holds them, declared here.

The chain screen's parts (power-ups, pause, the end of a game) are plain objects it owns
and calls; :class:`Playing` is what they see of the game screen, ``chain.playing`` adds
the chain screen's own. (The game screen's own features are its actions and workers.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.app import App
from textual.binding import ActiveBinding
from textual.timer import Timer
from textual.worker import Worker

from twofold.core._capabilities import Hint
from twofold.core._presentation import Status
from twofold.core._rules import Mode
from twofold.core.game import Game, Step
from twofold.core.plugins import PluginFault
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.ui.app.seams import AppHost


class Playing(Protocol):
    """A game screen, as its parts see it (``GameScreen`` is one)."""

    session: Session
    mode: Mode
    rules: Any

    @property
    def app(self) -> App[Any]: ...

    @property
    def game(self) -> Game: ...

    @property
    def state(self) -> Any: ...

    @property
    def status(self) -> Status: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def closed(self) -> bool:
        """Whether the screen has let its session go (left, or quitting)."""
        ...

    @property
    def host(self) -> AppHost | None:
        """The twofold app the screen is on, or None on another app."""
        ...

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]: ...

    @property
    def is_current(self) -> bool: ...

    def call_after_refresh(self, callback: Callable[[], Any]) -> bool: ...

    def run_worker(self, work: Callable[[], Any], **options: Any) -> Worker[Any]: ...

    def set_interval(self, interval: float, callback: Callable[[], Any]) -> Timer: ...

    def notify(self, message: str, **options: Any) -> None: ...

    def announce(self, text: str) -> None:
        """Say ``text`` on the announcement line."""
        ...

    def refused(self, reason: str) -> None:
        """Say why something was refused."""
        ...

    def act(self, action: str) -> Step | None:
        """Play one command through the session, shown; None if refused."""
        ...

    def stop(self, fault: PluginFault) -> None:
        """The mode failed: say so and leave the game, kept as it was."""
        ...

    def finish_animation(self) -> None: ...

    def take_in(self) -> None:
        """Take the session's game into the screen's reactives (what shows them follows)."""
        ...

    def refresh_best(self) -> None: ...

    def refresh_bindings(self) -> None: ...

    def stop_solver(self) -> None:
        """The solver stops playing, if it plays."""
        ...

    def start_new_game(self) -> None:
        """A new game at once, unasked (after the end was seen)."""
        ...

    @property
    def result_sendable(self) -> bool:
        """Whether Send to leaderboard is offered (a finished game, a leaderboard set)."""
        ...

    def share_chosen(self, choice: str | None) -> bool:
        """Copy result or Send, chosen at the end of a game: done, and True; else False."""
        ...

    def game_replaced(self) -> None:
        """Another game is on the board now: redraw it."""
        ...

    def game_over(self) -> None:
        """Show the end of the game."""
        ...

    def after_tutorial(self) -> None:
        """The tutorial was read or skipped: the game goes on."""
        ...

    def hint_asked(self) -> None:
        """A hint is being looked for (a screen may say so)."""
        ...

    def show_hint(self, hint: Hint | None) -> None:
        """Show the hint found (None: no move to suggest)."""
        ...
