"""Help from the mode while a game is played: its hint, and its autoplayer (Watch the solver).

Both run in worker threads, so a slow search never holds up the board; both are the
mode's optional capabilities, offered only where the mode has them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from twofold.core.capabilities import Autoplayer, Hint
from twofold.core.i18n import _
from twofold.core.plugins import PluginFault
from twofold.ui.cells import for_people

if TYPE_CHECKING:
    from twofold.ui.app.screens.game import GameScreen

#: seconds between the autoplayer's moves while watching it
SOLVER_PAUSE = 0.15


class Assisting:
    """The hint and the autoplayer of :class:`GameScreen` (a part of it)."""

    _autoplayer: Autoplayer | None = None
    _autoplayer_thinking = False
    _autoplayer_timer: Timer | None = None
    _hint_worker: Worker[Any] | None = None
    _hint_state: Any = None

    # -- the hint ---------------------------------------------------------------------------

    def action_hint(self: GameScreen) -> None:
        """Ask the mode for a hint in a thread, so the board never waits for the search."""
        hint = self.mode.hint
        if hint is None:
            return
        self.finish_animation()
        state = self.state
        self._hint_state = state
        self._hint_worker = self.run_worker(
            lambda: hint(state), name="hint", group="hint", exclusive=True, thread=True,
            exit_on_error=False,
        )  # fmt: skip
        self.hint_asked()

    @property
    def hint_pending(self: GameScreen) -> bool:
        worker = self._hint_worker
        return worker is not None and not worker.is_finished

    def hint_asked(self: GameScreen) -> None:
        """The hint is being looked for (subclasses may say so)."""

    def on_worker_state_changed(self: GameScreen, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is not self._hint_worker or not worker.is_finished:
            return
        self._hint_worker = None
        if event.state == WorkerState.ERROR:
            self.refused(_("The hint failed: {error}").format(error=worker.error))
        elif event.state == WorkerState.SUCCESS and self.state is self._hint_state:
            self.show_hint(worker.result)
        else:
            self.hint_asked()

    def show_hint(self: GameScreen, hint: Hint | None) -> None:
        if hint is None:
            self.refused(_("No move to suggest"))
            return
        self.game.flags.hinted = True  # the result's proof says hints were shown
        self.announce(_("Hint: {action}.").format(action=self.hint_words(hint)))

    def hint_words(self: GameScreen, hint: Hint) -> str:
        return for_people(hint.action)  # people count cells from 1

    # -- the autoplayer --------------------------------------------------------------------------

    @property
    def watching(self: GameScreen) -> bool:
        return self._autoplayer is not None

    def action_watch_solver(self: GameScreen) -> None:
        """Start the mode's autoplayer, or stop it when it already plays."""
        if self._autoplayer is not None:
            self.stop_solver()
            return
        make = self.mode.autoplayer
        if make is None:
            self.announce(_("This mode has no solver."))
            return
        if self.game.over:
            self.game_over()
            return
        try:
            self._autoplayer = make(None)
        except Exception as error:  # a plugin's autoplayer that cannot start is a fault
            self.stop(PluginFault(self.mode.id, error))
            return
        self.game.flags.solver = True
        self.game.flags.uncounted = True  # a game the solver played never counts
        self.session.save()
        self.refresh_best()  # nor does its score stand as Best, on the bar or anywhere
        self.announce(_("The solver is playing. Press any key to take over."))
        self._autoplayer_timer = self.set_interval(SOLVER_PAUSE, self._autoplayer_turn)

    def stop_solver(self: GameScreen) -> None:
        if self._autoplayer is None:
            return
        self._autoplayer = None
        if self._autoplayer_timer is not None:
            self._autoplayer_timer.stop()
            self._autoplayer_timer = None
        if not self._session_closed:
            self.announce(_("You have the board again."))

    def _autoplayer_turn(self: GameScreen) -> None:
        player = self._autoplayer
        if player is None or self._autoplayer_thinking or self.app.screen is not self:
            return
        self._autoplayer_thinking = True
        state = self.state
        self.run_worker(
            lambda: self._think(player, state), thread=True, group="solver", exit_on_error=False
        )

    def _think(self: GameScreen, player: Autoplayer, state: Any) -> None:
        """In a worker thread: the autoplayer's action, handed back to the app's thread."""
        try:
            action = player.choose(state)
        except Exception as error:  # a solver fault stops the watching, not the app
            self.app.call_from_thread(self._autoplayer_failed, error)
            return
        self.app.call_from_thread(self._autoplayer_moves, state, action)

    def _autoplayer_failed(self: GameScreen, error: Exception) -> None:
        self._autoplayer_thinking = False
        self.stop_solver()
        self.announce(_("The solver stopped: {error}").format(error=error))

    def _autoplayer_moves(self: GameScreen, state: Any, action: str | None) -> None:
        self._autoplayer_thinking = False
        if self._autoplayer is None or state is not self.state:
            return  # the player took over, or the game changed while the solver thought
        if action is None:
            self.stop_solver()
            return
        if self.act(action) is None or self.game.over:
            self.stop_solver()

    def on_key(self: GameScreen, event: events.Key) -> None:
        # Any key takes the board back from the solver; its own key toggles it instead.
        if self._autoplayer is None:
            return
        bound = self.active_bindings.get(event.key)
        if bound is None or bound.binding.action != "watch_solver":
            self.stop_solver()
