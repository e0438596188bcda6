"""Help from the mode while a game is played: its hint, and its autoplayer (Watch the solver).

Both run in worker threads, so a slow search never holds up the board; both are the
mode's optional capabilities, offered only where the mode has them.
"""

from __future__ import annotations

from typing import Any

from textual.timer import Timer
from textual.worker import Worker, WorkerState

from twofold.core._capabilities import Autoplayer, AutoplayerFactory
from twofold.core._i18n import _
from twofold.core.plugins import PluginFault
from twofold.ui.app.dialogs import ConfirmDialog
from twofold.ui.app.screens.playing import Playing

#: seconds between the autoplayer's moves while watching it
SOLVER_PAUSE = 0.15


class Assisting:
    """The hint and the autoplayer of one game screen (a part it holds)."""

    def __init__(self, screen: Playing) -> None:
        self.screen = screen
        self._autoplayer: Autoplayer | None = None
        self._autoplayer_thinking = False
        self._autoplayer_timer: Timer | None = None
        self._hint_worker: Worker[Any] | None = None
        self._hint_state: Any = None

    # -- the hint ---------------------------------------------------------------------------

    def hint(self) -> None:
        """Ask the mode for a hint in a thread, so the board never waits for the search."""
        screen = self.screen
        hint = screen.mode.hint
        if hint is None:
            return
        screen.finish_animation()
        state = screen.state
        self._hint_state = state
        self._hint_worker = screen.run_worker(
            lambda: hint(state), name="hint", group="hint", exclusive=True, thread=True,
            exit_on_error=False,
        )  # fmt: skip
        screen.hint_asked()

    @property
    def hint_pending(self) -> bool:
        worker = self._hint_worker
        return worker is not None and not worker.is_finished

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A worker of the screen changed state: the hint's, once finished, is shown."""
        worker = event.worker
        if worker is not self._hint_worker or not worker.is_finished:
            return
        self._hint_worker = None
        screen = self.screen
        if event.state == WorkerState.ERROR:
            screen.refused(_("The hint failed: {error}").format(error=worker.error))
        elif event.state == WorkerState.SUCCESS and screen.state is self._hint_state:
            screen.show_hint(worker.result)
        else:
            screen.hint_asked()

    # -- the autoplayer --------------------------------------------------------------------------

    @property
    def watching(self) -> bool:
        return self._autoplayer is not None

    def watch(self) -> None:
        """Start the mode's autoplayer, or stop it when it already plays."""
        screen = self.screen
        if self._autoplayer is not None:
            self.stop()
            return
        make = screen.mode.autoplayer
        if make is None:
            screen.announce(_("This mode has no solver."))
            return
        if screen.game.over:
            screen.game_over()
            return
        game = screen.game
        if game.flags.uncounted or not game.started:
            self._start(make)
            return
        # a counted game stops counting for good: asked first, as the Sample asks
        screen.app.push_screen(
            ConfirmDialog(
                _("Let the solver play?"),
                _(
                    "This game counts for your records. Once the solver plays it, it never"
                    " counts: its score stays out of Best and Statistics."
                ),
                yes=_("Watch the solver"),
            ),
            lambda answer: self._start(make) if answer == "yes" else None,
        )

    def _start(self, make: AutoplayerFactory) -> None:
        screen = self.screen
        if self._autoplayer is not None or screen.game.over:
            return
        try:
            self._autoplayer = make(None)
        except Exception as error:  # a plugin's autoplayer that cannot start is a fault
            screen.stop(PluginFault(screen.mode.id, error))
            return
        screen.game.flags.solver = True
        screen.game.flags.uncounted = True  # a game the solver played never counts
        screen.session.save()
        screen.take_in()  # the top bar's code says so
        screen.refresh_best()  # nor does its score stand as Best, on the bar or anywhere
        screen.announce(_("The solver is playing. Press any key to take over."))
        self._autoplayer_timer = screen.set_interval(SOLVER_PAUSE, self._autoplayer_turn)

    def stop(self) -> None:
        """The solver stops playing and the player has the board, if it played."""
        if self._autoplayer is None:
            return
        self._autoplayer = None
        if self._autoplayer_timer is not None:
            self._autoplayer_timer.stop()
            self._autoplayer_timer = None
        if not self.screen.closed:
            self.screen.announce(_("You have the board again."))

    def let_go(self) -> None:
        """The screen lets its game go: the solver plays no more, without a word."""
        self._autoplayer = None

    def _autoplayer_turn(self) -> None:
        screen = self.screen
        player = self._autoplayer
        if player is None or self._autoplayer_thinking or screen.app.screen is not screen:
            return
        self._autoplayer_thinking = True
        state = screen.state
        screen.run_worker(
            lambda: self._think(player, state), thread=True, group="solver", exit_on_error=False
        )

    def _think(self, player: Autoplayer, state: Any) -> None:
        """In a worker thread: the autoplayer's action, handed back to the app's thread."""
        app = self.screen.app
        try:
            action = player.choose(state)
        except Exception as error:  # a solver fault stops the watching, not the app
            app.call_from_thread(self._autoplayer_failed, error)
            return
        app.call_from_thread(self._autoplayer_moves, state, action)

    def _autoplayer_failed(self, error: Exception) -> None:
        self._autoplayer_thinking = False
        self.stop()
        self.screen.announce(_("The solver stopped: {error}").format(error=error))

    def _autoplayer_moves(self, state: Any, action: str | None) -> None:
        self._autoplayer_thinking = False
        screen = self.screen
        if self._autoplayer is None or state is not screen.state:
            return  # the player took over, or the game changed while the solver thought
        if action is None:
            self.stop()
            return
        if screen.act(action) is None or screen.game.over:
            self.stop()

    def key_pressed(self, key: str) -> bool:
        """Any key takes the board back from the solver; its own key toggles it instead.

        True when that is all the key does: Esc, whose other work (pause) would come too.
        """
        if self._autoplayer is None:
            return False
        bound = self.screen.active_bindings.get(key)
        action = bound.binding.action if bound is not None else ""
        if action != "watch_solver":
            self.stop()
        return action == "escape"
