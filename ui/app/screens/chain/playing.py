"""What the chain screen's parts may ask of the screen that holds them, declared here.

The chain screen holds power-up arming (``arming``), pause and the automatic hint
(``pause``) and the end of a game (``ending``); each reaches the screen only through
:class:`ChainPlaying`, never through another part.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.timer import Timer

from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.screens.playing import Playing


class ChainPlaying(Playing, Protocol):
    """The chain screen, as its parts see it (``ChainScreen`` is one)."""

    #: the quiet seconds before the automatic hint
    auto_hint_seconds: float

    @property
    def board(self) -> ChainBoard: ...

    #: paused: the board hidden and the keys that play on it off
    paused: bool

    @property
    def armed(self) -> str | None:
        """The power-up waiting for its tiles, or None."""
        ...

    @property
    def best(self) -> int: ...

    def set_class(self, add: bool, *class_names: str) -> Any: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    def action_arm(self, name: str) -> None:
        """Arm a power-up (again to disarm)."""
        ...

    def disarm(self, *, refresh: bool = True) -> None: ...

    def action_undo(self) -> None: ...

    def action_hint(self) -> None: ...

    def refresh_all(self) -> None:
        """The top bar, the power-ups' counts and the status line, drawn again."""
        ...

    def refresh_status(self) -> None:
        """The status line over the board, drawn again."""
        ...
