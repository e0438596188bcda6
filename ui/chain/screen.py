"""The 2248 game screen: top bar, the board, the announcement line and the power-up bar.

Everything the player does goes through ``session.act(text)`` in the words of the JSON
protocol (``chain 7,0 6,0``, ``hammer 3,2``, ...). The screen never decides what is
legal: the rules refuse, and the screen shows the refusal.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from twofold.core.codes import format_code
from twofold.core.game import Game, Step
from twofold.core.i18n import _
from twofold.core.plugins import PluginFault
from twofold.core.rules import Refused
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.ui.chain.animation import motion_for
from twofold.ui.chain.board import Cell, ChainBoard
from twofold.ui.chain.dialogs import (
    BoardReading,
    ChainResultDialog,
    NoMoreMovesDialog,
    RescueDialog,
)
from twofold.ui.chain.help import ChainHelpScreen
from twofold.ui.chain.judge import RulesJudge
from twofold.ui.chain.palette import tile_style
from twofold.ui.chain.powerups import PowerUpBar, powerup_title
from twofold.ui.chain.tutorial import TutorialScreen
from twofold.ui.dialogs import ConfirmDialog
from twofold.ui.widgets.announce import AnnouncementLine
from twofold.ui.widgets.topbar import TopBar

#: seconds without an action before the automatic hint appears
AUTO_HINT_SECONDS = 10.0
#: how long a message (praise, a new tile, a refusal) stays on the status line
MESSAGE_SECONDS = 3.0
REFUSAL_SECONDS = 1.5
#: the first new highest tile that gets a banner
BANNER_FROM = 512

Command = tuple[str, str, Callable[[], Any]]


def clock_text(seconds: float) -> str:
    whole = max(0, math.ceil(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def cell_text(cell: Cell) -> str:
    return f"{cell[0]},{cell[1]}"


class ChainScreen(Screen[None]):
    """Play one 2248 mode (classic, daily or blitz) through its session."""

    DEFAULT_CSS = """
    ChainScreen {
        layout: vertical;
    }
    ChainScreen #chain-status {
        height: 1;
        width: 100%;
        text-align: center;
    }
    ChainScreen #chain-paused {
        height: 1fr;
        width: 100%;
        content-align: center middle;
        text-style: bold;
        color: $text-muted;
        display: none;
    }
    ChainScreen.-paused #chain-paused {
        display: block;
    }
    ChainScreen.-paused #chain-board {
        display: none;
    }
    ChainScreen #chain-announce {
        /* a long hint wraps; the board keeps its rows at 80x24 (R opens its own dialog) */
        max-height: 3;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "cursor(-1, 0)", _("Cursor up"), show=False, id="chain.cursor_up"),
        Binding("down", "cursor(1, 0)", _("Cursor down"), show=False, id="chain.cursor_down"),
        Binding("left", "cursor(0, -1)", _("Cursor left"), show=False, id="chain.cursor_left"),
        Binding("right", "cursor(0, 1)", _("Cursor right"), show=False, id="chain.cursor_right"),
        Binding("space", "add", _("Add tile"), show=False, id="chain.add"),
        Binding("enter", "enter", _("Add or merge"), show=False, id="chain.enter"),
        Binding("backspace", "remove_last", _("Take back"), show=False, id="chain.remove_last"),
        Binding("escape", "escape", _("Cancel or pause"), show=False, id="chain.escape"),
        Binding("1", "arm('hammer')", _("Hammer"), show=False, id="chain.hammer"),
        Binding("2", "arm('swap')", _("Swap"), show=False, id="chain.swap"),
        Binding("3", "arm('shuffle')", _("Shuffle"), show=False, id="chain.shuffle"),
        Binding("u,z", "undo", _("Undo"), show=False, id="chain.undo"),
        Binding("h", "hint", _("Hint"), show=False, id="chain.hint"),
        Binding("p", "pause", _("Pause"), show=False, id="chain.pause"),
        Binding("r", "read_board", _("Read board"), id="chain.read_board"),
        Binding("n", "new_game", _("New game"), id="chain.new_game"),
        Binding("m", "maximize_board", _("Max"), show=False, id="chain.maximize"),
        Binding("question_mark,f1", "help", _("Help"), id="chain.help"),
        Binding("t", "statistics", _("Statistics"), show=False, id="chain.statistics"),
        Binding("comma", "settings", _("Settings"), show=False, id="chain.settings"),
        Binding("q", "leave", _("Menu"), id="chain.menu"),
    ]

    #: actions that play on the board, off while paused
    _PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"cursor", "add", "enter", "remove_last", "arm", "undo", "hint", "read_board"}
    )

    def __init__(self, session: Session, *, settings: Settings | None = None) -> None:
        super().__init__(id="chain-screen")
        self.session = session
        self.rules: Any = session.mode.rules
        self.judge = RulesJudge()
        self.paused = False
        #: the power-up waiting for a tile ("hammer" or "swap"), or None
        self.armed: str | None = None
        #: the end of this game was already shown (result or End game)
        self.ended = False
        self.best = 0
        self._settings = settings
        self._message: Text | None = None
        self._message_timer: Timer | None = None
        self._refusal = ""
        self._refusal_timer: Timer | None = None
        self._idle_timer: Timer | None = None
        self._clock_timer: Timer | None = None
        self._session_closed = False
        self._board = ChainBoard(session.game.state.board, self.judge, id="chain-board")
        self._hint_worker: Worker[Any] | None = None
        self._hint_state: Any = None
        self._reported: tuple[Any, dict[str, Any]] | None = None

    # -- the pieces ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def state(self) -> Any:
        return self.session.game.state

    @property
    def mode_kind(self) -> str:
        """``"blitz"``, ``"daily"`` or ``"classic"``."""
        if self.session.mode.time_limit is not None:
            return "blitz"
        return "daily" if self.session.mode.daily else "classic"

    @property
    def board(self) -> ChainBoard:
        return self._board

    @property
    def settings(self) -> Settings:
        if self._settings is None:
            self._settings = self._load_settings()
        return self._settings

    def _load_settings(self) -> Settings:
        shared = getattr(self.app, "settings", None)
        if isinstance(shared, Settings):
            return shared
        load = getattr(self.session.store, "load_settings", None)
        if callable(load):
            try:
                loaded = load()
            except Exception:  # settings never stop a game from opening
                return Settings()
            if isinstance(loaded, Settings):
                return loaded
        return Settings()

    @property
    def reduced_motion(self) -> bool:
        return self.settings.reduced_motion or self.app.animation_level == "none"

    def _fields(self) -> list[str]:
        fields = ["score", "best"]
        if self.mode_kind == "daily":
            fields.append("left")
        if self.mode_kind == "blitz":
            fields.append("clock")
        fields.append("code")
        return fields

    def compose(self) -> ComposeResult:
        yield TopBar(self.session.mode.title, self._fields(), id="chain-topbar")
        yield Static("", id="chain-status")
        yield self._board
        yield Static(_("Paused. Press P to play on."), id="chain-paused")
        yield AnnouncementLine(id="chain-announce")
        yield PowerUpBar(id="chain-powerups")
        yield Footer()

    def on_mount(self) -> None:
        self.best = self._best()
        self.watch(self.app, "app_focus", self._focus_changed, init=False)
        if self.mode_kind == "blitz":
            self._clock_timer = self.set_interval(1.0, self._tick)
        self.board.focus()
        self.query_one(AnnouncementLine).announce(self._greeting())
        self._refresh_all()
        self._restart_idle()
        if not self.settings.tutorial_seen:
            self.call_after_refresh(self.action_tutorial)
        else:
            self.call_after_refresh(self._check_end)

    def _greeting(self) -> str:
        if self.session.notice:
            return self.session.notice
        game = self.game
        if game.started:
            return _("Welcome back: game {code}, score {score}.").format(
                code=format_code(game.code), score=game.state.score
            )
        return _("Game {code}. Join touching equal tiles into a chain.").format(
            code=format_code(game.code)
        )

    def on_screen_resume(self) -> None:
        self._settings = None
        if not self.paused and not self.game.over and not self._session_closed:
            self.game.resume()
        self.board.focus()

    def on_screen_suspend(self) -> None:
        self.game.pause()

    def on_unmount(self) -> None:
        self.close_session()

    # -- drawing what the game is ------------------------------------------------------------

    def _best(self) -> int:
        records = getattr(self.session.store, "records", None)
        if callable(records):
            try:
                return int(records(self.session.mode.id).best)
            except Exception:  # a record that cannot be read shows as 0
                return 0
        finished = getattr(self.session.store, "finished", [])
        return max(
            (f.score for f in finished if f.mode_id == self.session.mode.id and f.counted),
            default=0,
        )

    def _report(self) -> dict[str, Any]:
        """The rules' report on the board in play, asked once per state (states never change)."""
        state = self.state
        if self._reported is None or self._reported[0] is not state:
            self._reported = (state, dict(self.rules.report(state)))
        return self._reported[1]

    def _refresh_all(self) -> None:
        self._refresh_top()
        self._refresh_powerups()
        self._refresh_status()
        self.refresh_bindings()

    def _refresh_top(self) -> None:
        top = self.query_one(TopBar)
        score = self.state.score
        best = self.best if self.game.flags.uncounted else max(self.best, score)
        top.set("score", _("Score {score}").format(score=score))
        top.set("best", _("Best {best}").format(best=best))
        top.set("code", format_code(self.game.code))
        report = self._report()
        if self.mode_kind == "daily":
            top.set("left", _("Merges left {n}").format(n=report.get("merges_left", 0)))
        if self.mode_kind == "blitz":
            top.set("clock", _("Time {clock}").format(clock=clock_text(self.game.time_left or 0.0)))

    def _refresh_powerups(self) -> None:
        report = self._report()
        held = report.get("powerups", {})
        blitz = self.mode_kind == "blitz"
        offered = blitz and "shuffle" in report.get("rescues", [])
        shown = {
            "hammer": not blitz,
            "swap": not blitz,
            "shuffle": not blitz or offered,
            "undo": not blitz,
        }
        self.query_one(PowerUpBar).update_counts(
            held, armed=self.armed, shown=shown, free_shuffle=offered
        )

    def _refresh_status(self) -> None:
        status = self.query_one("#chain-status", Static)
        status.update(self._status_text())

    def _status_text(self) -> Text:
        if self.paused:
            return Text(_("Paused"), style="bold")
        board = self.board
        refusal = Style(color="red", bold=True)
        prompt = {
            "hammer": _("Hammer: pick the tile to remove (Esc cancels)"),
            "swap": _("Swap: pick a neighbour to swap with (Esc cancels)")
            if board.picks
            else _("Swap: pick the first of two touching tiles (Esc cancels)"),
        }.get(self.armed or "")
        if prompt:
            text = Text(prompt, style="bold")
            if self._refusal:
                text = Text("✗ " + self._refusal, style=refusal)
            return text
        text = Text()
        if board.chain:
            value = board.chain_value or self._value_at(board.chain[0])
            text.append(f" {value} ", style=tile_style(value))
            text.append(f" ×{len(board.chain)}", style="bold")
            if self._refusal:
                text.append("   ✗ " + self._refusal, style=refusal)
            return text
        if self._refusal:
            return Text("✗ " + self._refusal, style=refusal)
        if self._message is not None:
            return self._message
        if self.hint_pending:
            return Text(_("Looking for the best chain…"))
        if board.hint:
            value = self.judge.value(self.state.board, board.hint)
            text.append(_("Hint: "))
            text.append(f" {value} ", style=tile_style(value))
            text.append(f" ×{len(board.hint)}")
            return text
        if self.game.over:
            return Text(_("Game over. N starts a new game."), style="bold")
        return Text(_("Drag through touching equal tiles, or use the arrow keys and Space"))

    def _value_at(self, cell: Cell) -> int:
        return int(self.state.board[cell[0]][cell[1]])

    def _say(self, message: Text) -> None:
        self._message = message
        if self._message_timer is not None:
            self._message_timer.stop()
        self._message_timer = self.set_timer(MESSAGE_SECONDS, self._clear_message)
        self._refresh_status()

    def _clear_message(self) -> None:
        self._message = None
        self._message_timer = None
        self._refresh_status()

    def _refuse(self, reason: str) -> None:
        self._refusal = reason
        if self._refusal_timer is not None:
            self._refusal_timer.stop()
        self._refusal_timer = self.set_timer(REFUSAL_SECONDS, self._clear_refusal)
        self._refresh_status()

    def _clear_refusal(self) -> None:
        self._refusal = ""
        self._refusal_timer = None
        self._refresh_status()

    # -- playing ---------------------------------------------------------------------------

    def _input(self) -> None:
        """Any input: finish the animation at once and count as activity."""
        self.board.finish_animation()

    def act(self, text: str) -> Step | None:
        """Play one command; show what it did, or why it was refused."""
        self._input()
        before = self.state
        try:
            step = self.session.act(text)
        except Refused as refused:
            self._refuse(str(refused))
            if self.game.time_up:
                self._tick()
            return None
        except PluginFault as fault:
            self.stop(fault)
            return None
        self._after_step(before, step)
        return step

    def _after_step(self, before: Any, step: Step) -> None:
        state = self.state
        self.ended = False
        self._disarm(refresh=False)
        motion = motion_for(before.board, state.board, step.events)
        self.board.show(state.board, motion, animate=not self.reduced_motion)
        self.query_one(AnnouncementLine).announce(step.announcement)
        self._celebrate(before, step)
        if state.score != before.score:
            self.query_one(TopBar).flash("score")
        if self.settings.sound and any(e.kind == "merged" for e in step.events):
            self.app.bell()
        self._refresh_all()
        self._restart_idle()
        self._check_end()

    def _celebrate(self, before: Any, step: Step) -> None:
        """Praise, retirements and new highest tiles on the status line."""
        parts: list[tuple[str, Style]] = []
        earned = {e.tile: e.powerup for e in step.events if e.kind == "earned"}
        for event in step.events:
            kind = event.kind
            if kind == "praised":
                parts.append((_(event.word) + "!", Style(bold=True, italic=True)))
            elif kind == "merged" and event.value > getattr(before, "highest", 0):
                if event.value >= BANNER_FROM:
                    banner = _("New tile: {value}").format(value=event.value)
                    powerup = earned.get(event.value)
                    if powerup:
                        banner += " · " + _("one more {powerup}").format(
                            powerup=powerup_title(powerup)
                        )
                    parts.append((f" {banner} ", tile_style(event.value)))
            elif kind == "removed" and event.reason == "retired":
                parts.append(
                    (
                        _("The {value} has retired: no more {value}s.").format(value=event.value),
                        Style(bold=True),
                    )
                )
        if parts:
            text = Text()
            for i, (words, style) in enumerate(parts):
                if i:
                    text.append("   ")
                text.append(words, style=style)
            self._say(text)

    @on(ChainBoard.ChainChanged)
    def _chain_changed(self, message: ChainBoard.ChainChanged) -> None:
        if self._refusal and message.chain:
            self._clear_refusal()
        self._restart_idle()
        self._refresh_status()
        self.refresh_bindings()

    @on(ChainBoard.Refused)
    def _chain_refused(self, message: ChainBoard.Refused) -> None:
        reason = getattr(self.judge, "refusal", None)
        text = reason(self.state.board, message.chain, message.cell) if reason else ""
        self._refuse(text or _("That tile does not fit the chain"))

    @on(ChainBoard.Merge)
    def _chain_merge(self, message: ChainBoard.Merge) -> None:
        if self.paused:
            return
        self.act("chain " + " ".join(cell_text(c) for c in message.chain))

    @on(ChainBoard.Picked)
    def _picked(self, message: ChainBoard.Picked) -> None:
        cell = message.cell
        if self.armed == "hammer":
            self.act(f"hammer {cell_text(cell)}")
        elif self.armed == "swap":
            board = self.board
            if not board.picks:
                board.picks.append(cell)
            elif cell == board.picks[0]:
                board.picks.clear()
            elif self.act(f"swap {cell_text(board.picks[0])} {cell_text(cell)}") is None:
                board.flash(cell)
            board.refresh()
            self._refresh_status()

    # -- the end ---------------------------------------------------------------------------

    def _check_end(self) -> None:
        """Offer a rescue on a stuck board, or show the end when the game is over."""
        if self.ended or self.paused or not self.is_current:
            return
        game = self.game
        if game.over:
            self.ended = True
            game.pause()
            if game.time_up:
                self.session.finish()
                title, body = _("Time's up!"), _("The three minutes are over.")
            elif self._report().get("merges_left") == 0:
                title, body = _("No merges left"), _("Today's merges are used up.")
            else:
                title, body = _("No more moves"), _("No two equal tiles touch.")
            body += "\n" + _("Score {score}").format(score=self.state.score)
            self._refresh_all()
            self.app.push_screen(NoMoreMovesDialog(title, body), lambda _c: self.show_result(title))
            return
        report = self._report()
        if report.get("stuck") and report.get("rescues"):
            free = self.mode_kind == "blitz"
            self.app.push_screen(
                RescueDialog(report["rescues"], free_shuffle=free), self._rescue_chosen
            )

    def _rescue_chosen(self, choice: str | None) -> None:
        if choice == "end":
            self.end_game()
        elif choice in ("hammer", "swap", "shuffle"):
            self.action_arm(choice)

    def end_game(self) -> None:
        """The player ends a stuck game instead of using a power-up."""
        self.ended = True
        self.game.pause()
        self.session.finish()
        self.show_result(_("Game over"))

    def show_result(self, title: str | None = None) -> None:
        self.best = self._best()
        report = self._report()
        score = self.state.score
        best = self.best if self.game.flags.uncounted else max(self.best, score)
        dialog = ChainResultDialog(
            title=title or _("Game over"),
            score=score,
            best=best,
            highest=int(report.get("highest", 0)),
            longest_chain=int(report.get("longest_chain", 0)),
            merges=int(report.get("merges", 0)),
        )
        self._refresh_all()
        self.app.push_screen(dialog, self._result_chosen)

    def _result_chosen(self, choice: str | None) -> None:
        if choice == "again":
            self.new_game()

    # -- starting over ---------------------------------------------------------------------

    def new_game(self, *, position: dict[str, Any] | None = None) -> None:
        """Start the next game now (no question asked)."""
        self.session.new_game(position=position)
        self.ended = False
        self.paused = False
        self.remove_class("-paused")
        self._disarm(refresh=False)
        self._message = None
        self._refusal = ""
        self.best = self._best()
        self.board.show(self.state.board, animate=False)
        self.query_one(AnnouncementLine).announce(
            _("New game. Code {code}.").format(code=format_code(self.game.code))
        )
        if self.is_current:
            self.game.resume()
        self._refresh_all()
        self._restart_idle()
        self._check_end()

    def action_new_game(self) -> None:
        self._input()
        if self.state.score > 0 and not self.game.over and not self.ended:
            self.app.push_screen(
                ConfirmDialog(
                    _("New game?"),
                    _("This game has {score} points. Start a new one?").format(
                        score=self.state.score
                    ),
                    yes=_("New game"),
                ),
                lambda choice: self.new_game() if choice == "yes" else None,
            )
        else:
            self.new_game()

    # -- timers: the Blitz clock and the automatic hint -------------------------------------

    def _tick(self) -> None:
        self._refresh_top()
        if self.game.time_up and not self.ended:
            self.board.cancel()
            self._check_end()

    def _restart_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None
        if self.settings.auto_hint:
            self._idle_timer = self.set_timer(AUTO_HINT_SECONDS, self._auto_hint)

    def _auto_hint(self) -> None:
        self._idle_timer = None
        if self.paused or self.armed or self.board.chain or self.game.over:
            return
        if self.is_current:
            self.action_hint()

    # -- pause ------------------------------------------------------------------------------

    def set_paused(self, paused: bool) -> None:
        if paused == self.paused:
            return
        self.paused = paused
        self.set_class(paused, "-paused")
        if paused:
            self.board.cancel()
            self._disarm(refresh=False)
            self.game.pause()
        else:
            if not self.game.over and self.is_current:
                self.game.resume()
            self.board.focus()
        self._refresh_all()

    def _focus_changed(self, focused: bool) -> None:
        if not focused and not self.game.over:
            self.set_paused(True)

    # -- actions -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Power-ups and undo stay on even when spent: the rules' refusal says why, where a
        # greyed-out key would say nothing. The bar's buttons show what is held.
        if action in self._PLAY_ACTIONS and self.paused:
            return None
        return True

    def on_click(self, event: events.Click) -> None:
        if self.paused and event.widget is not None and event.widget.id == "chain-paused":
            self.set_paused(False)

    def action_cursor(self, d_row: int, d_col: int) -> None:
        self._input()
        if not self.paused:
            self.board.move_cursor(d_row, d_col)

    def action_add(self) -> None:
        self._input()
        if not self.paused:
            self.board.press_cursor(enter=False)

    def action_enter(self) -> None:
        self._input()
        if not self.paused:
            self.board.press_cursor(enter=True)

    def action_remove_last(self) -> None:
        self._input()
        self.board.remove_last()

    def action_escape(self) -> None:
        """Esc: cancel the chain, else disarm the power-up, else pause (or resume)."""
        self._input()
        if self.board.chain:
            self.board.cancel()
        elif self.armed is not None:
            self._disarm()
        else:
            self.set_paused(not self.paused)

    def action_pause(self) -> None:
        self._input()
        self.set_paused(not self.paused)

    def action_arm(self, name: str) -> None:
        """Arm a power-up (again to disarm); Shuffle needs no tile and plays at once."""
        self._input()
        if self.paused:
            return
        if name == "undo":
            self.action_undo()
            return
        if self.armed == name:
            self._disarm()
            return
        if name == "shuffle":
            self.act("shuffle")
            return
        held = self._report().get("powerups", {}).get(name, 0)
        if held < 1 or self.mode_kind == "blitz":
            self._refuse(_("No {powerup} left").format(powerup=powerup_title(name)))
            return
        self.board.cancel()
        self.armed = name
        self.board.picking = name
        self.board.picks.clear()
        self.board.hint = ()
        self._refresh_powerups()
        self._refresh_status()
        self.board.refresh()

    def _disarm(self, *, refresh: bool = True) -> None:
        self.armed = None
        board = self.board
        board.picking = None
        board.picks.clear()
        if refresh:
            board.refresh()
            self._refresh_powerups()
            self._refresh_status()

    def action_undo(self) -> None:
        self._input()
        if not self.paused:
            self.act("undo")

    def action_hint(self) -> None:
        """Look for the best chain in a thread, so the board never waits for the search."""
        self._input()
        if self.paused:
            return
        state = self.state
        self._hint_worker = self.run_worker(
            partial(self.rules.hint, state),
            name="hint",
            group="hint",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )
        self._hint_state = state
        self._refresh_status()

    @property
    def hint_pending(self) -> bool:
        worker = self._hint_worker
        return worker is not None and not worker.is_finished

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker is not self._hint_worker or not worker.is_finished:
            return
        self._hint_worker = None
        if event.state == WorkerState.ERROR:
            self._refuse(_("The hint failed: {error}").format(error=worker.error))
        elif event.state == WorkerState.SUCCESS and self.state is self._hint_state:
            self._show_hint(worker.result)
        else:
            self._refresh_status()

    def _show_hint(self, hint: tuple[Cell, ...] | None) -> None:
        if self.paused or self.board.chain or self.armed:
            self._refresh_status()
            return
        if not hint:
            self._refuse(_("No chain on the board"))
            return
        self.board.show_hint(hint, trace=not self.reduced_motion)
        self.query_one(AnnouncementLine).announce(
            _("Hint: {cells}.").format(cells=" ".join(cell_text(c) for c in hint))
        )
        self._refresh_status()

    def action_read_board(self) -> None:
        self._input()
        self.app.push_screen(BoardReading(self.rules.read_board(self.state)))

    def action_help(self) -> None:
        self._input()
        self.app.push_screen(
            ChainHelpScreen(),
            lambda choice: self.action_tutorial() if choice == "tutorial" else None,
        )

    def action_tutorial(self) -> None:
        """Show the three-step tutorial (first launch, and from Help)."""
        self.app.push_screen(TutorialScreen(), self._tutorial_done)

    def _tutorial_done(self, _finished: bool | None) -> None:
        settings = self.settings
        if not settings.tutorial_seen:
            seen = replace(settings, tutorial_seen=True)
            self._settings = seen
            # the app keeps the settings it applies; only a bare host has none
            save = getattr(self.app, "save_settings", None)
            if not callable(save):
                save = getattr(self.session.store, "save_settings", None)
            if callable(save):
                save(seen)
        self.board.focus()
        self.call_after_refresh(self._check_end)

    def action_maximize_board(self) -> None:
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximize(self.board)

    def action_statistics(self) -> None:
        from twofold.ui.screens.statistics import StatisticsScreen

        self.app.push_screen(StatisticsScreen(self.session.mode.id))

    def action_settings(self) -> None:
        from twofold.ui.screens.settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def stop(self, fault: PluginFault) -> None:
        """The rules failed: say so in one line and leave the game, kept as it was."""
        self.app.notify(str(fault), severity="error", timeout=10)
        self.close_session()
        self.dismiss()

    def action_leave(self) -> None:
        self.close_session()
        self.dismiss()

    # -- what the app calls ------------------------------------------------------------------

    def apply_settings(self) -> None:
        """The settings changed (reduced motion, auto-hint): read them again."""
        self._settings = None
        if self.is_mounted:
            self._restart_idle()

    def refresh_best(self) -> None:
        """Read the best score again (a game was just recorded)."""
        self.best = self._best()
        if self.is_mounted:
            self._refresh_top()

    def close_session(self) -> None:
        """Save the game and let it go (leaving the screen or quitting)."""
        if not self._session_closed:
            self._session_closed = True
            self.board.finish_animation()
            self.session.close()

    # -- the command palette ---------------------------------------------------------------

    def palette_commands(self) -> list[Command]:
        """Every action of the screen as (title, help, callback); the app's palette lists them."""

        def arm(name: str) -> Callable[[], None]:
            return lambda: self.action_arm(name)

        return [
            (_("Hint"), _("Show the chain that makes the biggest tile"), self.action_hint),
            (_("Undo"), _("Take back the last move (a power-up)"), self.action_undo),
            (_("Hammer"), _("Arm the Hammer, then pick a tile to remove"), arm("hammer")),
            (_("Swap"), _("Arm Swap, then pick two touching tiles"), arm("swap")),
            (_("Shuffle"), _("Mix all the tiles"), arm("shuffle")),
            (
                _("Pause"),
                _("Hide the board and stop the clock; again to play on"),
                self.action_pause,
            ),
            (_("Merge the chain"), _("Merge the chain drawn so far"), self.board.merge),
            (_("Cancel the chain"), _("Drop the chain being drawn"), self.board.cancel),
            (
                _("Take back the last tile"),
                _("Remove the last tile of the chain"),
                self.action_remove_last,
            ),
            (_("Read board"), _("Every row of the board in words"), self.action_read_board),
            (
                _("New game"),
                _("Start a new game (asks first if this one has points)"),
                self.action_new_game,
            ),
            (_("Help"), _("The rules, the controls and the tile chart"), self.action_help),
            (_("Tutorial"), _("The three-step tutorial"), self.action_tutorial),
            (_("Statistics"), _("Records of this mode"), self.action_statistics),
            (
                _("Settings"),
                _("Theme, motion, auto-hint, sound, language, keys"),
                self.action_settings,
            ),
            (
                _("Maximise the board"),
                _("Show only the board; again to come back"),
                self.action_maximize_board,
            ),
            (_("End game"), _("End a stuck game and see the result"), self.end_game),
            (_("Menu"), _("Save this game and go back to the mode menu"), self.action_leave),
        ]
