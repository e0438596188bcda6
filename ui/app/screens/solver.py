"""The solver that plays a game while the player watches: a widget that shows nothing.

It owns the mode's autoplayer while it plays, the timer of its turns and the worker that
thinks; each move it chooses comes back as a :class:`SolverChose` (its failure as a
:class:`SolverFailed`) that the game screen handles with ``@on`` by playing the move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual import on, work
from textual.message import Message
from textual.reactive import var
from textual.timer import Timer
from textual.widget import Widget

from twofold.core._capabilities import Autoplayer, AutoplayerFactory

#: seconds between the solver's moves while watching it
SOLVER_PAUSE = 0.15


class SolverChose(Message):
    """The solver's action for ``state`` (None: it has none and stops)."""

    def __init__(self, state: Any, action: str | None) -> None:
        super().__init__()
        self.state = state
        self.action = action


class SolverFailed(Message):
    """The solver raised ``error``: the watching stops, the app goes on."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class Solver(Widget):
    """The mode's autoplayer playing the game on the screen, one move per turn."""

    DEFAULT_CSS: ClassVar[str] = "Solver { display: none; }"

    #: the solver plays this game (any key takes the board back)
    watching: var[bool] = var(False)

    def __init__(self, read_state: Callable[[], Any]) -> None:
        super().__init__()
        #: the state of the game on the board, which the solver moves from
        self._read_state = read_state
        #: the autoplayer while it plays, whether it is thinking, and its turns' timer
        self._player: Autoplayer | None = None
        self._thinking = False
        self._timer: Timer | None = None
        #: the state it last thought about: it waits for the screen to play that move
        self._asked: Any = None

    def start(self, make: AutoplayerFactory) -> None:
        """Make the autoplayer and let it play (what ``make`` raises, the caller handles)."""
        self._player = make(None)
        self._asked = None
        self.watching = True
        self._timer = self.set_interval(SOLVER_PAUSE, self._turn)

    def stop(self) -> bool:
        """Stop playing; whether the solver was playing."""
        if self._player is None:
            return False
        self._player = None
        self.watching = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        return True

    def _turn(self) -> None:
        player, state = self._player, self._read_state()
        if player is None or self._thinking or state is self._asked:
            return
        if self.app.screen is not self.screen:
            return
        self._thinking, self._asked = True, state
        self._think(player, state)

    @work(thread=True, group="solver", exit_on_error=False)
    def _think(self, player: Autoplayer, state: Any) -> None:
        try:
            action = player.choose(state)
        except Exception as error:  # a solver fault stops the watching, not the app
            self.post_message(SolverFailed(error))
            return
        self.post_message(SolverChose(state, action))

    @on(SolverChose)
    @on(SolverFailed)
    def _thought(self) -> None:
        # the next turn may think again; the message goes on up to the screen
        self._thinking = False
