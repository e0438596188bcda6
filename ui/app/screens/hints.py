"""The hint looked for while the game goes on: a widget that shows nothing.

It asks the mode's hint in a thread worker, so the board never waits for the search; the
answer comes back as a :class:`HintFound` (a failure as a :class:`HintFailed`) that the game
screen handles with ``@on`` by showing it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on, work
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget
from textual.worker import get_current_worker

from twofold.core._capabilities import Hint, HintFunction


class HintFound(Message):
    """The hint worker's answer for ``state`` (None: no move to suggest)."""

    def __init__(self, state: Any, hint: Hint | None) -> None:
        super().__init__()
        self.state = state
        self.hint = hint


class HintFailed(Message):
    """The mode's hint raised ``error``."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class HintFinder(Widget):
    """Looks for one hint at a time; a newer question replaces the one in progress."""

    DEFAULT_CSS: ClassVar[str] = "HintFinder { display: none; }"

    #: a hint is being looked for (a play widget may say so while it waits)
    pending: var[bool] = var(False)

    def __init__(self) -> None:
        super().__init__()
        #: the state the hint being looked for is for
        self.asked: Any = None

    def look(self, hint: HintFunction, state: Any) -> None:
        """Look for a hint for ``state``; the answer comes as a Message."""
        self.asked = state
        self.pending = True
        self._find(hint, state)

    @work(thread=True, exclusive=True, group="hint", exit_on_error=False)
    def _find(self, hint: HintFunction, state: Any) -> None:
        try:
            found = hint(state)
        except Exception as error:  # a failing hint is told in one line; the game goes on
            if not get_current_worker().is_cancelled:
                self.post_message(HintFailed(error))
            return
        if not get_current_worker().is_cancelled:  # a newer question replaced this one
            self.post_message(HintFound(state, found))

    @on(HintFound)
    @on(HintFailed)
    def _answered(self) -> None:
        # the message goes on up to the screen, which shows the answer
        self.pending = False
