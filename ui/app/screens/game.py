"""What every game screen shares, whatever the mode's controls.

A game screen plays one :class:`~twofold.core.session.Session`. This base owns its life
(greeting, pause on focus loss, save on leaving, a plugin's fault), the top bar (the mode's
gauges), the announcement line, the keys every game has (the same key for the same action
on every screen), and the mode's optional capabilities: Hint, Watch the solver and Sample
appear only where the mode offers them. Subclasses add their board and their controls.

Its parts are objects it holds (``screens/playing.py`` declares what they may ask of it):
the hint and the solver (:class:`Assisting`), another game on the same screen
(:class:`Replacing`), what it tells beyond the board (:class:`Telling`), the tutorial
(:class:`Tutoring`) and the goal reached (:class:`Winning`). Each key's action goes to one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.reactive import var
from textual.widget import Widget
from textual.worker import Worker

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core._presentation import Status
from twofold.core._rules import Mode, Refused
from twofold.core.codes import format_code
from twofold.core.game import Game, Step
from twofold.core.plugins import PluginFault
from twofold.core.session import Session, rules_faults
from twofold.core.settings import Settings
from twofold.ui.app.controls import offered_action, offered_bindings, palette_commands
from twofold.ui.app.screens.assist import Assisting
from twofold.ui.app.screens.gauges import clock_seconds, code_words, gauge_texts
from twofold.ui.app.screens.replacing import Replacing
from twofold.ui.app.screens.telling import Telling
from twofold.ui.app.screens.tutoring import Tutoring
from twofold.ui.app.screens.winning import Winning
from twofold.ui.app.seams import TwofoldHost, TwofoldScreen
from twofold.ui.app.textual_private import node_bindings, set_node_bindings
from twofold.ui.app.widgets.actionbar import ActionBar
from twofold.ui.app.widgets.announce import AnnouncementLine
from twofold.ui.app.widgets.footer import Footer
from twofold.ui.app.widgets.topbar import TopBar
from twofold.ui.cells import for_people
from twofold.ui.practice import practice_words


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

    def __init__(
        self,
        session: Session,
        *,
        settings: Settings | None = None,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.session = session
        self.mode: Mode = session.mode
        self.rules: Any = session.mode.rules
        self._settings = settings
        self._session_closed = False
        set_node_bindings(self, offered_bindings(self.mode, node_bindings(self)))
        self.assisting = Assisting(self)
        self.replacing = Replacing(self)
        self.telling = Telling(self)
        self.tutoring = Tutoring(self)
        self.winning = Winning(self)

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

    def board_widget(self) -> Widget:
        """The board (Max shows it alone)."""
        raise NotImplementedError

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        keys = [gauge.key for gauge in self.mode.gauges]
        yield TopBar(self.mode.title, keys, id=self.TOPBAR_ID).data_bind(GameScreen.gauges)
        yield from self.compose_play()
        yield ActionBar(id="actions")
        yield Footer()

    def compose_play(self) -> Iterable[Widget]:
        """The board and what goes with it, the announcement line among them."""
        yield AnnouncementLine(id=self.ANNOUNCE_ID)

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
        self.mounted()

    def mounted(self) -> None:
        """What a kind of screen adds once the game is set up (each calls super() first).
        Not on_mount: Textual calls every class's own on_mount, so each would run again."""

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
        return _("Game {code}.").format(code=format_code(self.game.code))

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

    def clock_may_run(self) -> bool:
        """Whether the clock may run again when the screen or the focus comes back."""
        return not self.game.over

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
        """The clock ran out (subclasses show the end)."""

    # -- acting ---------------------------------------------------------------------------------

    def finish_animation(self) -> None:
        """Any input finishes the board's animation at once."""

    def action_command(self, word: str) -> None:
        """A command the mode declares (its key, or the palette), played as it is typed."""
        self.act(word)

    def command_extras(self) -> list[tuple[str, str, Callable[[], Any]]]:
        """The palette's entry for each of the mode's commands that takes nothing and has
        no key of its own (with a key, it is in the palette with its key)."""
        return [
            (description or word, _("Command: {word}").format(word=word),
             partial(self.action_command, word))
            for word, description in palette_commands(self.mode)
        ]  # fmt: skip

    def act(self, action: str) -> Step | None:
        """Play one command through the session; show what it did, or why it was refused."""
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
        self.announce(reason)

    def after_step(self, before: Any, step: Step) -> None:
        """Draw, announce, flash and ring for an action; subclasses draw their board first."""
        after = self.state
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
            self.winning.show(after.score)
        elif step.changed and self.game.over:
            self.stop_solver()
            self.game_over()

    def game_over(self) -> None:
        """The game has ended (subclasses show how)."""

    # -- the parts' actions ---------------------------------------------------------------------

    def action_tutorial(self) -> None:
        self.tutoring.show()

    def keep_settings(self, settings: Settings) -> None:
        self._settings = settings

    def action_hint(self) -> None:
        self.assisting.hint()

    def hint_asked(self) -> None:
        """The hint is being looked for (subclasses may say so)."""

    def show_hint(self, hint: Hint | None) -> None:
        if hint is None:
            self.refused(_("No move to suggest"))
            return
        self.game.flags.hinted = True  # the result's proof says hints were shown
        self.announce(_("Hint: {action}.").format(action=self.hint_words(hint)))

    def hint_words(self, hint: Hint) -> str:
        return for_people(hint.action)  # people count cells from 1

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.assisting.worker_changed(event)

    def action_watch_solver(self) -> None:
        self.assisting.watch()

    def stop_solver(self) -> None:
        self.assisting.stop()

    def on_key(self, event: events.Key) -> None:
        if self.assisting.key_pressed(event.key):
            event.stop()  # one thing per key: Esc took the board back, it does not pause too

    def action_new_game(self) -> None:
        self.replacing.new_game()

    def action_restart(self) -> None:
        self.replacing.restart()

    def action_last_game(self) -> None:
        self.replacing.last_game()

    def action_sample(self) -> None:
        self.replacing.sample()

    def start_new_game(self) -> None:
        """A new game at once, unasked (after the end, or the win, was seen)."""
        self.replacing.start(self.session.new_game)

    def game_replaced(self) -> None:
        """Another game is on the board now (subclasses redraw and reset their input)."""

    def action_copy_link(self) -> None:
        self.telling.copy_link()

    def action_copy_result(self) -> None:
        self.telling.copy_result()

    @property
    def result_sendable(self) -> bool:
        return self.telling.sendable

    def share_chosen(self, choice: str | None) -> bool:
        return self.telling.end_chosen(choice)

    def action_read_board(self) -> None:
        self.telling.read_board()

    def after_tutorial(self) -> None:
        """The game, once its tutorial is read: its end, if it is over."""
        if self.game.over:
            self.call_after_refresh(self.game_over)

    def stop(self, fault: PluginFault) -> None:
        """The mode failed: say so in one line and leave the game, kept as it was."""
        if self._session_closed:
            return  # told once: a failing status may be asked for again before it is left
        self.app.notify(str(fault), severity="error", timeout=10)
        self.close_session()
        self.dismiss()

    # -- games ----------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return offered_action(self.mode, action)

    def action_escape(self) -> None:
        """Esc, the same in every game: close what is open, else leave Max, else pause."""
        self.finish_animation()
        if self.close_open():
            return
        if self.maximized is not None:
            self.minimize()
        else:
            self.pause_game()

    def close_open(self) -> bool:
        """Close what is open on the board (a chain drawn, a power-up armed); True if any."""
        return False

    def pause_game(self) -> None:
        """Pause in a dialog with Resume and Menu (the clock stops while it is up)."""
        from twofold.ui.app.dialogs import PauseDialog

        clock = any(gauge.key == "clock" for gauge in self.mode.gauges)
        self.app.push_screen(PauseDialog(clock=clock), self.after_pause)

    def after_pause(self, choice: str | None) -> None:
        if choice == "menu":
            self.action_menu()

    def action_maximize_board(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximize(self.board_widget())

    # -- other places -----------------------------------------------------------------------------

    def action_help(self) -> None:
        from twofold.ui.app.screens.help import HelpScreen, screen_keys

        # the very bindings this screen runs, with the player's keys: Help cannot disagree
        self.app.push_screen(HelpScreen(self.mode, screen_keys(self)))

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
            self.stop_solver()
            self.assisting.let_go()
            self.finish_animation()
            self.game.pause()
            self.session.save()

    def close_session(self) -> None:
        """Save the game and let it go (leaving the screen or quitting)."""
        if not self._session_closed:
            self._session_closed = True
            self.assisting.let_go()
            self.finish_animation()
            self.session.close()

    def on_unmount(self) -> None:
        self.close_session()

    def action_menu(self) -> None:
        self.close_session()
        self.dismiss()
