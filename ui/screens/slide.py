"""The game screen of every slide mode (2048 of any size, and any plugin's slide mode)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer

from twofold.core.codes import format_code, share_string
from twofold.core.game import Game
from twofold.core.i18n import N_, _
from twofold.core.plugins import PluginFault
from twofold.core.rules import Mode, Refused, largest_tile
from twofold.core.session import Session
from twofold.ui.dialogs import ConfirmDialog, GameOverDialog, ResultDialog, WinDialog
from twofold.ui.widgets.announce import AnnouncementLine
from twofold.ui.widgets.board import SlideBoard
from twofold.ui.widgets.topbar import TopBar

if TYPE_CHECKING:
    from twofold.core.game import Step
    from twofold.ui.app import TwofoldApp

MOVE = Binding.Group(_("Move"), compact=True)
DIRECTIONS = ("left", "up", "down", "right")
#: the arrow buttons' tooltips, translated when drawn
MOVE_TIPS = {
    "left": N_("Move left"),
    "up": N_("Move up"),
    "down": N_("Move down"),
    "right": N_("Move right"),
}
ARROWS = {"left": "◀", "up": "▲", "down": "▼", "right": "▶"}


#: seconds between the solver's moves while watching it
SOLVER_PAUSE = 0.15


def sample_for(mode: Mode) -> Callable[[], Game] | None:
    """How to open the Sample of ``mode``, or None when it has none (plugin modes)."""
    try:
        from twofold.variants.classic2048.rules import ClassicRules
        from twofold.variants.classic2048.sample import sample_game, samples
    except ImportError:
        return None
    rules = mode.rules
    if not isinstance(rules, ClassicRules) or (mode.size or 4) != rules.size:
        return None
    if str(rules.size) not in samples():
        return None
    return lambda: sample_game(mode)


def solver_for(mode: Mode) -> Callable[[Any], str | None] | None:
    """The solver's choice of move for ``mode``'s states, or None when it has no solver."""
    try:
        from twofold.variants.classic2048.rules import ClassicRules
        from twofold.variants.classic2048.solver import choose
    except ImportError:
        return None
    return choose if isinstance(mode.rules, ClassicRules) else None


class SlideScreen(Screen[None]):
    """A slide-mode game: the board, its numbers, the arrows, the announcement line."""

    DEFAULT_CSS = """
    SlideScreen #play-area {
        height: 1fr;
        align-horizontal: center;
    }
    SlideScreen #arrows {
        width: 100%;
        height: 1;
        align-horizontal: center;
    }
    SlideScreen #arrows Button {
        margin: 0 1;
        min-width: 7;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,a,h", "move('left')", _("Move"), key_display="←", group=MOVE,
                tooltip=_("Move left"), id="slide.left"),
        Binding("up,w,k", "move('up')", _("Move"), key_display="↑", group=MOVE,
                tooltip=_("Move up"), id="slide.up"),
        Binding("down,s,j", "move('down')", _("Move"), key_display="↓", group=MOVE,
                tooltip=_("Move down"), id="slide.down"),
        Binding("right,d,l", "move('right')", _("Move"), key_display="→", group=MOVE,
                tooltip=_("Move right"), id="slide.right"),
        Binding("u,ctrl+z", "undo", _("Undo"), tooltip=_("Take back the last move"),
                id="slide.undo"),
        Binding("n", "new_game", _("New"), tooltip=_("Start a new game with a fresh code"),
                id="slide.new"),
        Binding("r", "read_board", _("Read"), tooltip=_("Read the whole board aloud"),
                id="slide.read"),
        Binding("ctrl+r", "restart", _("Restart"), show=False,
                tooltip=_("Play the same code again from its first move"), id="slide.restart"),
        Binding("b", "last_game", _("Last game"), show=False,
                tooltip=_("Bring back the game that New game or Restart replaced"),
                id="slide.last_game"),
        Binding("e", "sample", _("Sample"), show=False,
                tooltip=_("Open a game the solver played, 240 moves in (never counted)"),
                id="slide.sample"),
        Binding("v", "watch_solver", _("Watch the solver"), show=False,
                tooltip=_("Let the solver play; any key takes over (never counted)"),
                id="slide.watch_solver"),
        Binding("c", "copy_link", _("Copy link"), show=False,
                tooltip=_("Copy this game's share string"), id="slide.copy_link"),
        Binding("y", "copy_result", _("Copy result"), show=False,
                tooltip=_("Copy the score, largest tile, moves and share string"),
                id="slide.copy_result"),
        Binding("m", "maximize_board", _("Max"), tooltip=_("Maximise the board"),
                id="slide.maximize"),
        Binding("question_mark,f1", "help", _("Help"), tooltip=_("Rules and keys"),
                id="slide.help"),
        Binding("t", "statistics", _("Statistics"), show=False,
                tooltip=_("Records and recent scores"), id="slide.statistics"),
        Binding("comma", "settings", _("Settings"), show=False,
                tooltip=_("Theme, motion, sound"), id="slide.settings"),
        Binding("escape", "menu", _("Menu"), tooltip=_("Save and go back to the mode menu"),
                id="slide.menu"),
        Binding("q", "app.quit", _("Quit"), tooltip=_("Save and quit"), id="slide.quit"),
    ]  # fmt: skip

    def __init__(self, session: Session, *, name: str | None = None) -> None:
        super().__init__(name=name)
        self.session = session
        self.mode = session.mode
        self._best = 0
        self._session_closed = False
        #: the solver's move function while the player watches it play, else None
        self._solver: Callable[[Any], str | None] | None = None
        self._solver_thinking = False
        self._solver_timer: Timer | None = None

    @property
    def twofold(self) -> TwofoldApp:
        return self.app  # type: ignore[return-value]

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TopBar(self.mode.title, ("score", "best", "moves", "code"), id="topbar")
        with Vertical(id="play-area"):
            yield SlideBoard(self.session.game.state.board, id="board")
            with HorizontalGroup(id="arrows"):
                for direction in DIRECTIONS:
                    button = Button(
                        ARROWS[direction],
                        id=f"arrow-{direction}",
                        compact=True,
                        tooltip=_(MOVE_TIPS[direction]),
                    )
                    button.can_focus = False
                    yield button
            yield AnnouncementLine(id="announce")
        yield Footer()

    @property
    def board(self) -> SlideBoard:
        return self.query_one("#board", SlideBoard)

    @property
    def topbar(self) -> TopBar:
        return self.query_one("#topbar", TopBar)

    @property
    def announcer(self) -> AnnouncementLine:
        return self.query_one("#announce", AnnouncementLine)

    def on_mount(self) -> None:
        self._best = self.twofold.best_score(self.mode.id)
        self.apply_settings()
        self._show_numbers()
        game = self.session.game
        if self.session.notice:
            self.announce(self.session.notice)
            self.notify(self.session.notice, severity="warning")
            self.session.notice = None
        elif game.started:
            self.announce(
                _("Welcome back: game {code}, score {score}.").format(
                    code=format_code(game.code), score=game.state.score
                )
            )
        else:
            self.announce(
                _("Game {code}. Slide the tiles with the arrow keys.").format(
                    code=format_code(game.code)
                )
            )
        game.resume()
        self.watch(self.app, "app_focus", self._focus_changed, init=False)
        if game.over:
            self.call_after_refresh(self._show_game_over)

    def _focus_changed(self, focused: bool) -> None:
        # The play time counts only while the terminal has the player's attention.
        if self._session_closed:
            return
        if focused and self.app.screen is self:
            self.session.game.resume()
        elif not focused:
            self.session.game.pause()

    def apply_settings(self) -> None:
        """Take up a change of settings (reduced motion)."""
        self.board.animate_moves = not self.twofold.reduced_motion

    def on_screen_resume(self) -> None:
        if not self._session_closed:
            self.apply_settings()
            self.session.game.resume()

    def on_screen_suspend(self) -> None:
        self.session.game.pause()

    # -- the numbers ---------------------------------------------------------------------------

    @property
    def best(self) -> int:
        game = self.session.game
        # A game that is not counted (a position) never claims the best score.
        return self._best if game.flags.uncounted else max(self._best, game.state.score)

    def _show_numbers(self) -> None:
        game = self.session.game
        bar = self.topbar
        bar.set("score", _("Score {score}").format(score=game.state.score))
        bar.set("best", _("Best {best}").format(best=self.best))
        bar.set("moves", _("Moves {moves}").format(moves=game.state.moves))
        bar.set("code", format_code(game.code))

    def announce(self, text: str) -> None:
        self.announcer.announce(text)

    def refresh_best(self) -> None:
        """Read the best score again (a game was just recorded)."""
        self._best = self.twofold.best_score(self.mode.id)
        if self.is_mounted:
            self._show_numbers()

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        self.play(direction)

    @on(SlideBoard.Swiped)
    def _swiped(self, event: SlideBoard.Swiped) -> None:
        self.play(event.direction)

    @on(Button.Pressed, "#arrows Button")
    def _arrow(self, event: Button.Pressed) -> None:
        event.stop()
        direction = (event.button.id or "").removeprefix("arrow-")
        if direction in DIRECTIONS:
            self.play(direction)

    def action_undo(self) -> None:
        self.play("undo")

    def play(self, action: str) -> None:
        """The player's action: it takes over from the solver, then is applied."""
        if self._solver is not None:
            self.stop_solver()
        self._act(action)

    def _act(self, action: str) -> None:
        """Apply an action: finish any animation, act, then draw, announce and ask."""
        board = self.board
        board.finish_animation()
        game = self.session.game
        if game.over and action != "undo":
            self._show_game_over()
            return
        before = game.state
        try:
            step = self.session.act(action)
        except Refused as refusal:
            self.announce(str(refusal))
            return
        except PluginFault as fault:
            self.stop(fault)
            return
        self._after(before, step)

    def stop(self, fault: PluginFault) -> None:
        """The mode's rules failed: say so in one line and leave the game, kept as it was."""
        self.app.notify(str(fault), severity="error", timeout=10)
        self.close_session()
        self.dismiss()

    def _after(self, before: Any, step: Step) -> None:
        game = self.session.game
        after = game.state
        if step.changed:
            if step.action == "undo":
                self.board.show(after.board)
            else:
                self.board.play(before.board, after.board, step.events)
            game.resume()
        gained = after.score > before.score and step.action != "undo"
        self._show_numbers()
        if gained and not self.twofold.reduced_motion:
            self.topbar.flash("score")  # a flash is motion too: reduced motion goes without
        text = step.announcement
        if step.reached_goal:
            text = " ".join([text, _("You reached {goal}!").format(goal=self.mode.goal)]).strip()
        self.announce(text)
        if self.twofold.settings.sound and (gained or step.reached_goal):
            self.app.bell()
        self.refresh_bindings()
        if step.reached_goal and not game.flags.kept_going:
            self.app.push_screen(WinDialog(self.mode.goal or 0, after.score), self._won)
        elif step.changed and game.over:
            self._show_game_over()

    def _won(self, choice: str | None) -> None:
        game = self.session.game
        if choice == "new":
            self._start(self.session.new_game)
            return
        game.flags.kept_going = True
        self.session.save()
        self.announce(_("Keep going: on towards {next}!").format(next=(self.mode.goal or 0) * 2))
        if game.over:
            self._show_game_over()

    def _show_game_over(self) -> None:
        game = self.session.game
        if not game.over or isinstance(self.app.screen, GameOverDialog):
            return
        state = game.state
        dialog = GameOverDialog(
            state.score, self.best, largest_tile(state.board), state.moves, game.can_undo
        )
        self.app.push_screen(dialog, self._after_game_over)

    def _after_game_over(self, choice: str | None) -> None:
        if choice == "new":
            self._start(self.session.new_game)
        elif choice == "undo":
            self.play("undo")

    # -- games ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            return True if self.session.game.can_undo else None
        if action == "last_game":
            return True if self.session.previous is not None else None
        if action == "sample":
            return True if sample_for(self.mode) is not None else None
        if action == "watch_solver":
            return True if solver_for(self.mode) is not None else None
        return True

    def _start(self, begin: Any) -> None:
        """Replace the game (New game, Restart) and draw the new one."""
        self.board.finish_animation()
        try:
            game = begin()
        except PluginFault as fault:
            self.stop(fault)
            return
        game.resume()
        self.refresh_best()
        self.board.show(game.state.board)
        self._show_numbers()
        self.refresh_bindings()
        self.announce(_("New game {code}.").format(code=format_code(game.code)))

    def action_new_game(self) -> None:
        game = self.session.game
        if game.state.score > 0 and not game.over:
            self.app.push_screen(
                ConfirmDialog(
                    _("Start a new game?"),
                    _("This game has {score} points. Last game (B) can bring it back.").format(
                        score=game.state.score
                    ),
                    yes=_("New game"),
                ),
                lambda answer: self._start(self.session.new_game) if answer == "yes" else None,
            )
        else:
            self._start(self.session.new_game)

    def action_restart(self) -> None:
        self._start(self.session.restart)
        self.announce(
            _("Restarted game {code} from its first move.").format(
                code=format_code(self.session.game.code)
            )
        )

    def action_last_game(self) -> None:
        self.board.finish_animation()
        back = self.session.last_game()
        if back is None:
            self.announce(_("There is no earlier game to bring back."))
            return
        back.resume()
        self.board.show(back.state.board)
        self._show_numbers()
        self.refresh_bindings()
        self.announce(
            _("Back to game {code}, score {score}.").format(
                code=format_code(back.code), score=back.state.score
            )
        )

    def action_sample(self) -> None:
        open_sample = sample_for(self.mode)
        if open_sample is None:
            self.announce(_("This mode has no Sample."))
            return
        self.stop_solver()
        self._start(lambda: self.session.adopt(open_sample()))
        self.announce(
            _("The Sample: a game the solver played, {moves} moves in. It never counts.").format(
                moves=self.session.game.state.moves
            )
        )

    # -- the solver ----------------------------------------------------------------------------

    def action_watch_solver(self) -> None:
        """Start the solver playing, or stop it when it already is."""
        if self._solver is not None:
            self.stop_solver()
            return
        solver = solver_for(self.mode)
        if solver is None:
            self.announce(_("This mode has no solver."))
            return
        if self.session.game.over:
            self._show_game_over()
            return
        self._solver = solver
        self.session.game.flags.solver = True
        self.session.game.flags.uncounted = True  # a game the solver played never counts
        self.session.save()
        self.announce(_("The solver is playing. Press any key to take over."))
        self._solver_timer = self.set_interval(SOLVER_PAUSE, self._solver_turn)

    @property
    def watching(self) -> bool:
        return self._solver is not None

    def stop_solver(self) -> None:
        if self._solver is None:
            return
        self._solver = None
        if self._solver_timer is not None:
            self._solver_timer.stop()
            self._solver_timer = None
        self.announce(_("You have the board again."))

    def _solver_turn(self) -> None:
        if self._solver is None or self._solver_thinking or self.app.screen is not self:
            return
        self._solver_thinking = True
        state = self.session.game.state
        solver = self._solver
        self.run_worker(
            lambda: self._think(solver, state), thread=True, group="solver", exit_on_error=False
        )

    def _think(self, solver: Callable[[Any], str | None], state: Any) -> None:
        """In a worker thread: the solver's move, handed back to the app's thread."""
        try:
            direction = solver(state)
        except Exception as error:  # a solver fault stops the watching, not the app
            self.app.call_from_thread(self._solver_failed, error)
            return
        self.app.call_from_thread(self._solver_moves, state, direction)

    def _solver_failed(self, error: Exception) -> None:
        self._solver_thinking = False
        self.stop_solver()
        self.announce(_("The solver stopped: {error}").format(error=error))

    def _solver_moves(self, state: Any, direction: str | None) -> None:
        self._solver_thinking = False
        if self._solver is None or state is not self.session.game.state:
            return  # the player took over, or the game changed while the solver thought
        if direction is None:
            self.stop_solver()
            return
        self._act(direction)
        game = self.session.game
        if game.over or isinstance(self.app.screen, WinDialog):
            self.stop_solver()

    def on_key(self, event: events.Key) -> None:
        # Any key takes the board back from the solver; its own key toggles it instead.
        if self._solver is None:
            return
        bound = self.active_bindings.get(event.key)
        if bound is None or bound.binding.action != "watch_solver":
            self.stop_solver()

    # -- telling -------------------------------------------------------------------------------

    def share(self) -> str:
        return share_string(self.mode.id, self.session.game.code)

    def result_text(self) -> str:
        state = self.session.game.state
        return _(
            "twofold {mode}: score {score}, largest tile {largest}, {moves} moves. {share}"
        ).format(
            mode=self.mode.title,
            score=state.score,
            largest=largest_tile(state.board),
            moves=state.moves,
            share=self.share(),
        )

    def action_copy_link(self) -> None:
        link = self.share()
        self.app.copy_to_clipboard(link)
        self.announce(_("Copied the link {link}.").format(link=link))
        self.notify(link, title=_("Link copied"))

    def action_copy_result(self) -> None:
        text = self.result_text()
        self.app.copy_to_clipboard(text)
        self.announce(_("Copied the result."))
        self.app.push_screen(ResultDialog(_("Result copied"), text))

    def action_read_board(self) -> None:
        lines = self.mode.rules.read_board(self.session.game.state)
        self.announce("\n".join(lines))
        self.notify("\n".join(lines), title=_("The board"), timeout=8)

    def action_maximize_board(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximize(self.board)

    # -- other places --------------------------------------------------------------------------

    def action_help(self) -> None:
        from twofold.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self.mode))

    def action_statistics(self) -> None:
        from twofold.ui.screens.statistics import StatisticsScreen

        self.app.push_screen(StatisticsScreen(self.mode.id))

    def action_settings(self) -> None:
        from twofold.ui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def close_session(self) -> None:
        """Save the game and let it go (leaving the screen or quitting)."""
        if not self._session_closed:
            self._session_closed = True
            self._solver = None
            for board in self.query(SlideBoard):
                board.finish_animation()
            self.session.close()

    def on_unmount(self) -> None:
        self.close_session()

    def action_menu(self) -> None:
        self.close_session()
        self.dismiss()
