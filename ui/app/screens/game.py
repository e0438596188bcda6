"""The one game screen, whatever the mode's controls.

A game screen plays one :class:`~twofold.core.session.Session`. It owns its life
(greeting, pause on focus loss, save on leaving, a plugin's fault), the top bar (the mode's
gauges), the actions every game has (the same key for the same action in every game), and
the mode's optional capabilities: Hint, Watch the solver and Sample appear only where the
mode offers them. The board, its controls and the announcement line are the play widget of
the mode's kind of controls (``screens.play``), which the screen composes.

The game's numbers are reactives the top bar is bound to. What takes time runs in a widget's
worker whose news comes back as a Message the screen handles with ``@on``: the hint of the
:class:`~.hints.HintFinder` (:class:`~.hints.HintFound`), the moves of the
:class:`~.solver.Solver` (:class:`~.solver.SolverChose`), both widgets the screen composes;
a result sent (:class:`Sent`); the end of a game is a Message too (:class:`Over`). Another
game on the same screen (New game, Restart, Last game, the Sample), what the game tells
beyond the board (Copy link, Copy result, Send, Read), the tutorial and the goal reached
are the screen's actions and their dialogs' callbacks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget

from twofold.core._capabilities import AutoplayerFactory, Hint
from twofold.core._i18n import _
from twofold.core._presentation import Status, upcoming_words
from twofold.core._rules import Mode, Refused, largest_tile
from twofold.core.codes import format_code
from twofold.core.game import Game, Step
from twofold.core.plugins import PluginFault
from twofold.core.result import result_text
from twofold.core.session import Session, rules_faults
from twofold.core.settings import Settings
from twofold.ui.app.controls import offered_action, palette_commands
from twofold.ui.app.dialogs import (
    BoardReading,
    ConfirmDialog,
    GameOverDialog,
    ResultDialog,
    WinDialog,
)
from twofold.ui.app.links import game_link
from twofold.ui.app.screens.gauges import clock_seconds, code_words, gauge_texts
from twofold.ui.app.screens.hints import HintFailed, HintFinder, HintFound
from twofold.ui.app.screens.play import Play, Shown
from twofold.ui.app.screens.solver import Solver, SolverChose, SolverFailed
from twofold.ui.app.seams import TwofoldHost, TwofoldScreen
from twofold.ui.app.widgets.actionbar import ActionBar
from twofold.ui.app.widgets.announcement import AnnouncementLine
from twofold.ui.app.widgets.footer import Footer
from twofold.ui.app.widgets.topbar import TopBar
from twofold.ui.cells import for_people
from twofold.ui.practice import practice_words
from twofold.ui.submission import SendError, send_result


class GameScreen(TwofoldScreen[None]):
    """One game of one mode: its life, its top bar and announcements, its common keys."""

    #: ids of the top bar and the announcement line (tests and styles find them by these)
    TOPBAR_ID: ClassVar[str] = "topbar"
    ANNOUNCE_ID: ClassVar[str] = "announce"
    #: Esc cancels what is in progress first, Max or not (``action_escape``)
    ESCAPE_TO_MINIMIZE: ClassVar[bool | None] = False

    # The game as the screen shows it: taken from the session after every change
    # (``take_in``); the widgets that show it are bound to these, or watch them.
    #: the score and the moves of the game on the board
    score: var[int] = var(0)
    moves: var[int] = var(0)
    #: the mode's status (its own gauges, power-ups, what comes next, why it ended)
    status: var[Status] = var(Status)
    #: the game's code in words ("practice", "not counted"), and the clock's whole seconds
    code: var[str] = var("")
    clock: var[int] = var(0)
    #: the records' Best less this game's own score, and whether this game may claim it
    records_best: var[int] = var(0)
    counted: var[bool] = var(True)
    #: the records' Best as it stands with this game in it (computed)
    best: var[int] = var(0)
    #: the top bar's words, gauge by gauge (computed; the top bar is bound to them)
    gauges: var[tuple[tuple[str, str], ...]] = var(())
    #: what the board shows and the step that made it (the play widget is bound to it)
    shown: var[Shown | None] = var(None, always_update=True)

    class Sent(Message):
        """A result was sent: the rank, or the server's reason, in words."""

        def __init__(self, words: str) -> None:
            super().__init__()
            self.words = words

    class Over(Message):
        """The game has ended: the screen shows how."""

    def __init__(
        self,
        session: Session,
        *,
        play: type[Play],
        settings: Settings | None = None,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id or play.SCREEN_ID)
        self.session = session
        self.mode: Mode = session.mode
        self.rules: Any = session.mode.rules
        self._settings = settings
        self._session_closed = False
        #: the board and its controls, of the mode's kind (its keys are this game's)
        self.play: Play = play(self.mode, self.state)
        self.TOPBAR_ID, self.ANNOUNCE_ID = play.TOPBAR_ID, play.ANNOUNCE_ID
        #: the hint looked for in the background, when the player asks
        self.hints = HintFinder()
        #: the mode's solver, when the player watches it play this game
        self.solver = Solver(lambda: self.state)

    # -- the pieces -------------------------------------------------------------------------

    @property
    def twofold(self) -> TwofoldHost:
        return self.app  # type: ignore[return-value]

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def state(self) -> Any:
        return self.session.game.state

    def read_status(self) -> Status:
        """The mode's status now; a failing ``status`` is the mode's fault: told, the game
        left."""
        try:
            with rules_faults(self.mode):
                return self.mode.status_of(self.state)
        except PluginFault as fault:
            if not self._session_closed:
                self.call_later(self.stop, fault)
            return Status()

    @property
    def settings(self) -> Settings:
        """The app's settings as they are now (a screen given its own keeps those)."""
        if self._settings is not None:
            return self._settings
        return self.host.settings if self.host is not None else Settings()

    @property
    def closed(self) -> bool:
        """Whether this screen has let its session go (left, or quitting)."""
        return self._session_closed

    @property
    def reduced_motion(self) -> bool:
        return self.settings.reduced_motion or self.app.animation_level == "none"

    @property
    def topbar(self) -> TopBar:
        return self.query_one(f"#{self.TOPBAR_ID}", TopBar)

    @property
    def announcer(self) -> AnnouncementLine:
        return self.query_one(f"#{self.ANNOUNCE_ID}", AnnouncementLine)

    @property
    def board(self) -> Any:
        """The board on the screen (its play widget's; Max shows it alone)."""
        return self.play.board

    @property
    def keys_node(self) -> Widget:
        """Where this game's keys are: its play widget's bindings."""
        return self.play

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        keys = [gauge.key for gauge in self.mode.gauges]
        yield TopBar(self.mode.title, keys, id=self.TOPBAR_ID).data_bind(GameScreen.gauges)
        yield self.play.data_bind(GameScreen.shown, GameScreen.status)
        yield ActionBar(id="actions")
        yield Footer()
        yield self.hints
        yield self.solver

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(ActionBar).fit(event.size.width)

    def on_mount(self) -> None:
        self.records_best = self._records_best()
        self.apply_settings()
        self.take_in()
        self.announce(self.greeting())
        if self.session.notice:
            self.notify(self.session.notice, severity="warning")
            self.session.notice = None
        self.game.resume()
        self.watch(self.app, "app_focus", self._focus_changed, init=False)
        if self.mode.time_limit is not None:
            self.set_interval(1.0, self.tick)
        self.play.board.focus()
        if not self.show_first_tutorial():  # the tutorial comes first; the game after it
            self.game_ready()

    def greeting(self) -> str:
        if self.session.notice:
            return self.session.notice
        game = self.game
        if game.started:
            return _("Welcome back: game {code}, score {score}.").format(
                code=format_code(game.code), score=game.state.score
            )
        text = self.opening_words()
        return f"{text} {practice_words(self.session)}" if game.flags.practice else text

    def opening_words(self) -> str:
        return self.play.opening_words(self.game.code)

    def _focus_changed(self, focused: bool) -> None:
        # The play time counts only while the terminal has the player's attention.
        if self._session_closed:
            return
        if focused and self.app.screen is self and self.clock_may_run():
            self.game.resume()
        elif not focused:
            self.focus_lost()

    def focus_lost(self) -> None:
        self.game.pause()
        self.play.focus_lost()

    def clock_may_run(self) -> bool:
        """Whether the clock may run again when the screen or the focus comes back."""
        return not self.game.over and self.play.clock_may_run()

    def on_screen_resume(self) -> None:
        if not self._session_closed:
            self.apply_settings()
            if not self.session.seated:  # the other window may have played on meanwhile
                self.refresh_best()
            if self.clock_may_run():
                self.game.resume()

    def on_screen_suspend(self) -> None:
        self.game.pause()

    def apply_settings(self) -> None:
        """The settings changed (reduced motion, auto-hint): take them up."""
        self.play.animate = not self.reduced_motion

    # -- the numbers --------------------------------------------------------------------------

    def compute_best(self) -> int:
        """The records' Best: the finished games' and this game's score now, as the records
        take the game in progress in. A game that is not counted (a position, the Sample)
        never claims it."""
        return max(self.records_best, self.score) if self.counted else self.records_best

    def compute_gauges(self) -> tuple[tuple[str, str], ...]:
        """The top bar's words: every gauge the mode names, built-in or its own."""
        if getattr(self, "mode", None) is None:  # computed once before __init__ sets it
            return ()
        return gauge_texts(
            self.mode,
            score=self.score,
            best=self.best,
            moves=self.moves,
            code=self.code,
            clock=self.clock,
            own=self.status.gauges,
        )

    def take_in(self) -> None:
        """The session's game into the screen's reactives (what shows them follows)."""
        game = self.game
        self.status = self.read_status()
        self.score = game.state.score
        self.moves = game.state.moves
        self.counted = not game.flags.uncounted
        self.code = code_words(game)
        self.clock = clock_seconds(game)

    def _records_best(self) -> int:
        """The records' Best less this game's own score (``best`` adds it as it changes).

        The game in progress the records take in is this window's, or, in a second window
        on the mode, the first window's: its score stands, as Statistics shows it.
        """
        return self.twofold.best_score(self.mode.id, live=not self.session.seated)

    def refresh_best(self) -> None:
        """Read the records' best score again (a game was recorded, another window played,
        the game stopped counting); ``best`` and the top bar follow."""
        self.records_best = self._records_best()

    def announce(self, text: str) -> None:
        self.announcer.announce(text)

    def tick(self) -> None:
        """Once a second in a timed mode: the clock, and the end when time is up."""
        self.clock = clock_seconds(self.game)
        if self.game.time_up and not self._session_closed:
            self.time_up()

    def time_up(self) -> None:
        """The clock ran out: the play widget shows the end."""
        self.play.time_up()

    # -- acting ---------------------------------------------------------------------------------

    def finish_animation(self) -> None:
        """Any input finishes the board's animation at once."""
        self.play.finish_animation()

    def action_command(self, word: str) -> None:
        """A command the mode declares (the palette), played as it is typed."""
        self.stop_solver()
        self.act(word)

    def action_undo(self) -> None:
        self.stop_solver()
        self.act("undo")

    def palette_extras(self) -> Iterable[tuple[str, str, Callable[[], Any]]]:
        """The play widget's actions with no key, then the mode's commands with none."""
        return [*self.play.palette_extras(), *self.command_extras()]

    def command_extras(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """The palette's entry for each of the mode's commands that takes nothing and has
        no key of its own (with a key, it is in the palette with its key)."""
        return [
            (description or word, _("Command: {word}").format(word=word),
             partial(self.action_command, word))
            for word, description in palette_commands(self.mode)
        ]  # fmt: skip

    @on(Play.Chosen)
    def play_chosen(self, message: Play.Chosen) -> None:
        """The player's action: it takes over from the solver, then is played."""
        self.stop_solver()
        self.act(message.action)

    @on(Play.NewGame)
    def _new_game_chosen(self) -> None:
        self.start_new_game()

    @on(Play.Share)
    def _share_chosen(self, message: Play.Share) -> None:
        self.share_chosen(message.choice)

    @on(Play.Failed)
    def _play_failed(self, message: Play.Failed) -> None:
        self.call_later(self.stop, message.fault)

    def act(self, action: str) -> Step | None:
        """Play one command through the session; show what it did, or why it was refused.

        Once a game is over, its end is shown again instead, for any action but Undo (unless
        the kind shows its end itself)."""
        ended = not self.play.OWN_END and self.game.over
        if ended and action != "undo":
            self.finish_animation()
            self.show_game_over()
            return None
        self.finish_animation()
        before = self.state
        try:
            step = self.session.act(action)
        except Refused as refusal:
            # the rules count cells from 0 (the protocol's count); people count from 1
            self.refused(for_people(str(refusal)))
            return None
        except PluginFault as fault:
            self.stop(fault)
            return None
        self.take_in()
        self.after_step(before, step)
        return step

    def refused(self, reason: str) -> None:
        self.play.refused(reason)
        self.announce(reason)

    def after_step(self, before: Any, step: Step) -> None:
        """Draw, announce, flash and ring for an action."""
        after = self.state
        if step.changed:
            self.game.resume()  # before the play widget draws: an end it finds pauses again
        self.shown = Shown(after, step, before)  # the play widget draws it
        scored = step.changed and step.action != "undo" and after.score > before.score
        if not self.session.seated:
            self.refresh_best()  # a second window: the first one's game may have gone higher
        if scored and not self.reduced_motion:
            self.topbar.flash("score")  # a flash is motion too: reduced motion goes without
        text = step.announcement
        if step.reached_goal:
            text = " ".join([text, _("You reached {goal}!").format(goal=self.mode.goal)]).strip()
        self.announce(text)
        if self.settings.sound and (scored or step.reached_goal):
            self.app.bell()
        if step.reached_goal and not self.game.flags.kept_going:
            self.show_win(after.score)
        elif step.changed and self.game.over:
            self.stop_solver()
            self.post_message(self.Over())

    def game_over(self) -> None:
        """The game has ended: the kind shows it, or the game-over dialog does."""
        if self.play.OWN_END:
            self.play.show_end()
        else:
            self.show_game_over()

    def show_game_over(self) -> None:
        """The end of a slide or place game: the result, and New game or Undo."""
        game = self.game
        if not game.over or isinstance(self.app.screen, GameOverDialog):
            return
        state = game.state
        dialog = GameOverDialog(
            state.score,
            self.best,
            largest_tile(state.board),
            state.moves,
            game.can_undo,
            self.status.over,
            sendable=self.result_sendable,
        )
        self.app.push_screen(dialog, self._game_over_chosen)

    def _game_over_chosen(self, choice: str | None) -> None:
        if self.share_chosen(choice):
            return
        if choice == "new":
            self.start_new_game()
        elif choice == "undo":
            self.stop_solver()  # the player takes over from the solver
            self.act("undo")

    @on(Over)
    def _over(self) -> None:
        self.game_over()

    # -- the goal reached -------------------------------------------------------------------------

    def show_win(self, score: int) -> None:
        """The solver stops and the win dialog asks: a new game, or keep going."""
        self.stop_solver()
        mode = self.mode
        self.app.push_screen(WinDialog(mode.goal or 0, score, mode.aim_after_goal()), self._won)

    def _won(self, choice: str | None) -> None:
        if choice == "new":
            self.start_new_game()
            return
        self.game.flags.kept_going = True
        self.session.save()
        aim = self.mode.aim_after_goal()
        if aim is None:
            self.announce(_("Keep going!"))
        else:
            self.announce(_("Keep going: on towards {next}!").format(next=aim))
        if self.game.over:
            self.post_message(self.Over())

    # -- the tutorial ---------------------------------------------------------------------------

    def show_first_tutorial(self) -> bool:
        """Show the mode's tutorial if this is the first game of its family; True if shown."""
        if self.mode.tutorial and not self.tutorial_seen():
            self.call_after_refresh(self._first_tutorial)
            return True
        return False

    def tutorial_seen(self) -> bool:
        """Whether this game's tutorial was shown: for the mode's family, or for any mode that
        shows the very same pages (2248's Daily and Blitz teach what Classic taught)."""
        mode = self.mode
        modes = self.host.registry.modes.values() if self.host is not None else ()
        families = {mode.family} | {m.family for m in modes if m.tutorial == mode.tutorial}
        return any(self.settings.has_seen_tutorial(family) for family in families)

    def _first_tutorial(self) -> None:
        # never over a dialog (the dialog has the game's attention): it waits for an opening
        if self.app.screen is self:
            self.action_tutorial()

    def action_tutorial(self) -> None:
        """Show the mode's tutorial (its first game, and from Help)."""
        from twofold.ui.app.screens.tutorial import TutorialScreen

        if self.mode.tutorial:
            self.app.push_screen(TutorialScreen(self.mode.tutorial), self._tutorial_read)

    def _tutorial_read(self, _finished: bool | None = None) -> None:
        """Read or skipped: the tutorial is not shown by itself again for the family."""
        settings = self.settings
        family = self.mode.family
        if not settings.has_seen_tutorial(family):
            seen = dataclasses.replace(settings, tutorials_seen=(*settings.tutorials_seen, family))
            if self.host is not None:
                self.host.save_settings(seen)
            else:
                self._settings = seen
        self.game_ready()

    def game_ready(self) -> None:
        """The game has the player's attention (no tutorial first, or the tutorial read):
        the play widget takes it up, and an ended game shows its end."""
        self.play.game_ready()
        if self.game.over:
            self.post_message(self.Over())

    # -- the hint ---------------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the mode for a hint in a worker, so the board never waits for the search."""
        hint = self.mode.hint
        if hint is None:
            return
        self.finish_animation()
        self.hints.look(hint, self.state)

    @on(HintFailed)
    def _hint_failed(self, message: HintFailed) -> None:
        self.refused(_("The hint failed: {error}").format(error=message.error))

    @on(HintFound)
    def _hint_found(self, message: HintFound) -> None:
        if message.state is self.state and message.state is self.hints.asked:
            self.show_hint(message.hint)  # else the board changed meanwhile: no hint for it

    def show_hint(self, hint: Hint | None) -> None:
        """The play widget marks the hint and gives its words (or nothing, now)."""
        words = self.play.hint_words(hint) if hint is not None else self.play.no_hint_words()
        if hint is None and words:
            self.refused(words)
        elif hint is not None and words is not None:
            self.game.flags.hinted = True  # the result's proof says hints were shown
            self.announce(words)

    # -- the solver -------------------------------------------------------------------------------

    def action_watch_solver(self) -> None:
        """Start the mode's autoplayer, or stop it when it already plays."""
        if self.solver.watching:
            self.stop_solver()
            return
        make = self.mode.autoplayer
        if make is None:
            self.announce(_("This mode has no solver."))
            return
        if self.game.over:
            self.post_message(self.Over())
            return
        game = self.game
        if game.flags.uncounted or not game.started:
            self._start_solver(make)
            return
        # a counted game stops counting for good: asked first, as the Sample asks
        self.app.push_screen(
            ConfirmDialog(
                _("Let the solver play?"),
                _(
                    "This game counts for your records. Once the solver plays it, it never"
                    " counts: its score stays out of Best and Statistics."
                ),
                yes=_("Watch the solver"),
            ),
            lambda answer: self._start_solver(make) if answer == "yes" else None,
        )

    def _start_solver(self, make: AutoplayerFactory) -> None:
        if self.solver.watching or self.game.over:
            return
        try:
            self.solver.start(make)
        except Exception as error:  # a plugin's autoplayer that cannot start is a fault
            self.stop(PluginFault(self.mode.id, error))
            return
        self.game.flags.solver = True
        self.game.flags.uncounted = True  # a game the solver played never counts
        self.session.save()
        self.take_in()  # the top bar's code says so
        self.refresh_best()  # nor does its score stand as Best, on the bar or anywhere
        self.announce(_("The solver is playing. Press any key to take over."))

    def stop_solver(self) -> None:
        """The solver stops playing and the player has the board, if it played."""
        if self.solver.stop() and not self._session_closed:
            self.announce(_("You have the board again."))

    @on(SolverFailed)
    def _solver_failed(self, message: SolverFailed) -> None:
        self.stop_solver()
        self.announce(_("The solver stopped: {error}").format(error=message.error))

    @on(SolverChose)
    def _solver_chose(self, message: SolverChose) -> None:
        if not self.solver.watching or message.state is not self.state:
            return  # the player took over, or the game changed while the solver thought
        if message.action is None:
            self.stop_solver()
            return
        if self.act(message.action) is None or self.game.over:
            self.stop_solver()

    def on_key(self, event: events.Key) -> None:
        """Any key takes the board back from the solver; its own key toggles it instead."""
        if not self.solver.watching:
            return
        bound = self.active_bindings.get(event.key)
        action = bound.binding.action.removeprefix("screen.") if bound is not None else ""
        if action != "watch_solver":
            self.stop_solver()
        if action == "escape":
            event.stop()  # one thing per key: Esc took the board back, it does not pause too

    # -- another game on the same screen ----------------------------------------------------------

    def replace_game(self, begin: Callable[[], Game]) -> Game | None:
        """Replace the game (New game, Restart, Sample) and draw the new one."""
        self.finish_animation()
        self.stop_solver()
        try:
            game = begin()
        except PluginFault as fault:
            self.stop(fault)
            return None
        game.resume()
        self.refresh_best()
        self.take_in()
        self.game_replaced()
        self.refresh_bindings()
        text = _("New game {code}.").format(code=format_code(game.code))
        if game.flags.practice:
            text += " " + practice_words(self.session)
        self.announce(text)
        return game

    def confirm_replacing(self, title: str, yes: str, replace: Callable[[], object]) -> None:
        """Ask before an action (New game, Restart, Sample...) replaces a game with points."""
        self.finish_animation()
        if self.state.score > 0 and not self.game.over:
            self.app.push_screen(
                ConfirmDialog(
                    title,
                    _("This game has {score} points. Last game (B) can bring it back.").format(
                        score=self.state.score
                    ),
                    yes=yes,
                ),
                lambda answer: replace() if answer == "yes" else None,
            )
        else:
            replace()

    def start_new_game(self) -> None:
        """A new game at once, unasked (after the end, or the win, was seen)."""
        self.replace_game(self.session.new_game)

    def action_new_game(self) -> None:
        self.confirm_replacing(_("Start a new game?"), _("New game"), self.start_new_game)

    def action_restart(self) -> None:
        self.confirm_replacing(_("Restart this game?"), _("Restart"), self._restart)

    def _restart(self) -> None:
        if self.replace_game(self.session.restart) is not None:
            text = _("Restarted game {code} from its first move.").format(
                code=format_code(self.game.code)
            )
            if self.game.flags.practice:
                text += " " + practice_words(self.session)
            self.announce(text)

    def action_last_game(self) -> None:
        self.finish_animation()
        back = self.session.last_game()
        if back is None:
            self.announce(_("There is no earlier game to bring back."))
            return
        back.resume()
        self.take_in()
        self.game_replaced()
        self.refresh_bindings()
        self.announce(
            _("Back to game {code}, score {score}.").format(
                code=format_code(back.code), score=back.state.score
            )
        )

    def action_sample(self) -> None:
        load = self.mode.sample
        try:
            with rules_faults(self.mode):
                sample = load() if load is not None else None
        except PluginFault as fault:  # the game in play is untouched: it stays
            self.app.notify(str(fault), severity="error", timeout=10)
            return
        if sample is None:
            self.announce(_("This mode has no Sample."))
            return

        def open_sample() -> Game:
            game = Game.replay(self.mode, sample.code, list(sample.actions))
            game.flags.uncounted = True  # its tiles are known in advance
            return self.session.adopt(game)

        def opened() -> None:
            if self.replace_game(open_sample) is not None:
                self.announce(
                    _("The Sample: a stored game, {moves} moves in. It never counts.").format(
                        moves=self.state.moves
                    )
                )

        self.confirm_replacing(_("Open the Sample?"), _("Sample"), opened)

    def game_replaced(self) -> None:
        """Another game is on the board now: the play widget shows it anew."""
        self.shown = Shown(self.state)

    # -- what the game tells beyond the board -----------------------------------------------------
    # The result is three lines to paste and compare the day with friends: the mode, the date
    # of a daily, the score, the highest tile and what the mode counts; the link that starts
    # the same game from its first move; and the proof (``twofold verify`` replays it).

    def share_link(self) -> str:
        # in a browser, a link that opens this game; in a terminal, the share string
        return game_link(self.mode.id, self.game.code)

    def result_text(self) -> str:
        """The headline (the mode and day, score, tile, what it counts), the link, the proof."""
        return result_text(self.game, link=self.share_link(), day=self.session.today())

    def action_copy_link(self) -> None:
        if self.game.position is not None:
            # a link carries a code only: it would open an ordinary game, not this board
            self.announce(
                _("A game begun from a position cannot travel as a link; nothing was copied.")
            )
            return
        link = self.share_link()
        self.announce(_("Copied the link {link}.").format(link=link))
        self.show_copied(_("Link copied"), link)

    def action_copy_result(self) -> None:
        self.announce(_("Copied the result."))

        def chosen(choice: str | None) -> None:
            if choice == "send":
                self.send()

        self.show_copied(
            _("Result copied"), self.result_text(), sendable=self.result_sendable, chosen=chosen
        )

    def show_copied(
        self,
        title: str,
        text: str,
        *,
        sendable: bool = False,
        chosen: Callable[[str | None], None] | None = None,
    ) -> None:
        """Copy ``text`` and show it whole, in one dialog for every copy (link and result)."""
        self.app.copy_to_clipboard(text)
        self.app.push_screen(ResultDialog(title, text, sendable=sendable), chosen)

    @property
    def result_sendable(self) -> bool:
        """Whether Send is offered: a finished game, once the player has set where and as
        whom."""
        settings = self.settings
        return bool(
            self.game.over and settings.leaderboard.strip() and settings.leaderboard_name.strip()
        )

    def share_chosen(self, choice: str | None) -> bool:
        """Copy result or Send, chosen at the end of a game; True if it was one of them."""
        if choice == "copy":
            self.action_copy_result()
        elif choice == "send":
            self.send()
        else:
            return False
        return True

    def send(self) -> None:
        """Send this game's result to the leaderboard the settings name, in a worker."""
        settings = self.settings
        self._send(settings.leaderboard, self.result_text(), settings.leaderboard_name.strip())

    @work(thread=True, group="send", exit_on_error=False)
    def _send(self, address: str, text: str, name: str) -> None:
        try:
            words = send_result(address, text, name).words
        except SendError as error:
            words = str(error)
        self.post_message(self.Sent(words))

    @on(Sent)
    def _sent(self, message: Sent) -> None:
        self.announce(message.words)
        self.notify(message.words, title=_("Leaderboard"), timeout=8)

    def read_lines(self) -> list[str]:
        """The board row by row in the mode's words, then what comes next, if anything."""
        lines = list(self.rules.read_board(self.state))
        words = upcoming_words(self.status.upcoming)
        return [*lines, words[:1].upper() + words[1:] + "."] if words else lines

    def action_read_board(self) -> None:
        """The board in words in a dialog, one way in every mode (never a toast that
        outlives its screen)."""
        self.finish_animation()
        self.app.push_screen(BoardReading(self.read_lines()))

    def stop(self, fault: PluginFault) -> None:
        """The mode failed: say so in one line and leave the game, kept as it was."""
        if self._session_closed:
            return  # told once: a failing status may be asked for again before it is left
        self.app.notify(str(fault), severity="error", timeout=10)
        self.close_session()
        self.dismiss()

    # -- games ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (allowed := self.play.allows(action)) is not True:
            return allowed
        return offered_action(self.mode, action)

    def action_escape(self) -> None:
        """Esc, the same in every game: close what is open, else leave Max, else pause."""
        self.finish_animation()
        if self.play.close_open():
            return
        if self.maximized is not None:
            self.minimize()
        else:
            self.pause_game()

    def pause_game(self) -> None:
        """Pause in a dialog with Resume and Menu (the clock stops while it is up)."""
        from twofold.ui.app.dialogs import PauseDialog

        self.play.pausing(True)
        clock = any(gauge.key == "clock" for gauge in self.mode.gauges)
        self.app.push_screen(PauseDialog(clock=clock), self.after_pause)

    def after_pause(self, choice: str | None) -> None:
        if choice == "menu":
            self.action_menu()
        else:
            self.play.pausing(False)

    def action_maximize_board(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximize(self.board)

    # -- other places -----------------------------------------------------------------------------

    def action_help(self) -> None:
        from twofold.ui.app.screens.help import HelpScreen, screen_keys

        # the very bindings this screen runs, with the player's keys: Help cannot disagree
        self.app.push_screen(HelpScreen(self.mode, screen_keys(self.keys_node)))

    def action_statistics(self) -> None:
        from twofold.ui.app.screens.statistics import StatisticsScreen

        self.app.push_screen(StatisticsScreen(self.mode.id))

    def action_settings(self) -> None:
        from twofold.ui.app.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def keep_session(self) -> None:
        """Leave without closing the session: another screen takes the same game on."""
        if not self._session_closed:
            self._session_closed = True
            self.solver.stop()
            self.finish_animation()
            self.game.pause()
            self.session.save()

    def close_session(self) -> None:
        """Save the game and let it go (leaving the screen or quitting)."""
        if not self._session_closed:
            self._session_closed = True
            self.solver.stop()
            self.finish_animation()
            self.session.close()

    def on_unmount(self) -> None:
        self.close_session()

    def action_menu(self) -> None:
        self.close_session()
        self.dismiss()
