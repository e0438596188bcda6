"""The game screen of every chain mode (2248 and any plugin's chain mode).

Everything the player does goes through ``session.act(text)`` in the words of the JSON
protocol (``chain 7,0 6,0``, ``hammer 3,2``, ...). The screen never decides what is
legal: the mode's judge previews a chain, the rules refuse, and the screen shows the
refusal. Its parts: the board and its chain controls (``twofold.ui.app.board.chain``),
the power-up bar (``powerups``, which says what was pressed in a message), the end of a
game (``ending``: messages the screen handles by showing their dialogs), the line of words
over the board (``status``) and the praise (``praise``). The power-up armed and the pause
are reactives of the screen, and what shows them follows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core._presentation import PowerUp
from twofold.core.codes import format_code
from twofold.core.game import Step, undo_depth
from twofold.core.plugins import PluginFault, key_name, owner_of
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.screens.chain.dialogs import (
    ChainResultDialog,
    NoMoreMovesDialog,
    RescueDialog,
)
from twofold.ui.app.screens.chain.ending import (
    Finished,
    Over,
    Stuck,
    rescue_offers,
    result_lines,
    why_over,
)
from twofold.ui.app.screens.chain.judge import ModeJudge
from twofold.ui.app.screens.chain.powerups import PowerUpBar
from twofold.ui.app.screens.chain.praise import celebration
from twofold.ui.app.screens.chain.status import StatusLine, armed_prompt, tile_count
from twofold.ui.app.screens.game_keys import game_bindings
from twofold.ui.app.screens.on_board import BoardScreen
from twofold.ui.app.textual_private import node_bindings
from twofold.ui.app.widgets.announcement import AnnouncementLine
from twofold.ui.cells import for_people

#: a palette command: title, what it does, and what runs it
Command = tuple[str, str, Callable[[], Any]]
#: the keys that arm the first, second and third power-up (2248's own keys)
SLOT_KEYS = ("1", "2", "3")
#: seconds without an action before the automatic hint appears
AUTO_HINT_SECONDS = 10.0

Cell = tuple[int, int]


def cell_text(cell: Cell) -> str:
    """A cell in the protocol's words: ``row,column`` from 0."""
    return f"{cell[0]},{cell[1]}"


class ChainScreen(BoardScreen):
    """Play one chain mode through its session."""

    TOPBAR_ID = "chain-topbar"
    ANNOUNCE_ID = "chain-announce"

    DEFAULT_CSS = """
    ChainScreen {
        layout: vertical;
    }
    ChainScreen #chain-status {
        /* words longer than a narrow terminal wrap onto a second line, never cut */
        height: auto;
        max-height: 2;
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
    /* paused, the board is hidden, and what was said of it (a hint's path) with it */
    ChainScreen.-paused #board-row, ChainScreen.-paused #board,
    ChainScreen.-paused #chain-announce {
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
        # the mode says which power-up a number arms; the palette lists them by name
        Binding("1", "arm_key('1')", _("First power-up"), show=False, id="chain.powerup_1"),
        Binding("2", "arm_key('2')", _("Second power-up"), show=False, id="chain.powerup_2"),
        Binding("3", "arm_key('3')", _("Third power-up"), show=False, id="chain.powerup_3"),
        Binding("p", "pause", _("Pause"), show=False, id="chain.pause"),
        *game_bindings("chain", undo_keys="u,z,ctrl+z"),
    ]

    #: actions the palette lists by another name (the power-ups' own, in palette_extras)
    PALETTE_HIDDEN: ClassVar[frozenset[str]] = frozenset({"arm_key"})
    #: the quiet seconds before the automatic hint (a test shortens it on the class)
    auto_hint_seconds: ClassVar[float] = AUTO_HINT_SECONDS
    #: paused: the board hidden (the ``-paused`` class) and the keys that play on it off
    paused: var[bool] = var(False, init=False, bindings=True, toggle_class="-paused")
    #: the power-up waiting for its tiles (the board picks instead of drawing), or None
    armed: var[str | None] = var(None, init=False)
    #: actions that play on the board, off while paused
    _PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"cursor", "add", "enter", "remove_last", "arm", "arm_key", "undo", "hint", "read_board"}
    )

    def __init__(self, session: Session, *, settings: Settings | None = None) -> None:
        super().__init__(session, settings=settings, id="chain-screen")
        self._bind_powerup_keys()
        self.judge = ModeJudge(self.mode, lambda: self.state, self._judge_failed)
        self._board = ChainBoard(
            session.game.state.board, self.judge, self._merge, layout=self.mode.layout, id="board"
        )
        #: the end of this game was already shown (the result, or End game)
        self.ended = False
        self._idle_timer: Timer | None = None

    # -- the pieces ------------------------------------------------------------------------

    @property
    def board(self) -> ChainBoard:
        return self._board

    # -- power-ups: armed, picked, played ---------------------------------------------------

    def powerup(self, name: str) -> PowerUp | None:
        return next((p for p in self.mode.powerups if p.id == name), None)

    def action_arm(self, name: str) -> None:
        """Arm a power-up (again to disarm); one aimed at nothing plays at once."""
        self.finish_animation()
        powerup = self.powerup(name)
        if self.paused or powerup is None:
            return
        if powerup.target == "undo":
            self.action_undo()
        elif self.armed == name:
            self.armed = None
        elif powerup.target == "none":
            self.act(powerup.id)
        elif self.status.powerups.get(name, 0) < 1 and name not in self.status.free:
            self.refused(_("No {powerup} left").format(powerup=powerup.name))
        else:
            self.board.cancel()
            self.armed = name

    def watch_armed(self, armed: str | None) -> None:
        """The board picks tiles for the armed power-up (its hint put away), or draws chains."""
        board = self._board
        board.picking = armed
        board.picks.clear()
        if armed is not None:
            board.hint = ()
        if self.is_mounted:
            board.refresh()
            self.refresh_status()

    @on(PowerUpBar.Chosen)
    def _powerup_chosen(self, message: PowerUpBar.Chosen) -> None:
        self.action_arm(message.powerup)

    @on(PowerUpBar.Asked)
    def _bar_asked(self, message: PowerUpBar.Asked) -> None:
        if message.action == "hint":
            self.action_hint()
        else:
            self.action_pause()

    @on(ChainBoard.Picked)
    def _picked(self, message: ChainBoard.Picked) -> None:
        """A tile picked for the armed power-up: one for a tile, two for a pair."""
        powerup = self.powerup(self.armed or "")
        if powerup is None:
            return
        board, cell = self.board, message.cell
        if powerup.target == "tile":
            self.act(f"{powerup.id} {cell_text(cell)}")
        elif powerup.target == "pair":
            if not board.picks:
                board.picks.append(cell)
            elif cell == board.picks[0]:
                board.picks.clear()
            elif self.act(f"{powerup.id} {cell_text(board.picks[0])} {cell_text(cell)}") is None:
                board.flash(cell)
            board.refresh()
            self.refresh_status()

    # -- pause, and the automatic hint after a quiet while -----------------------------------

    def watch_paused(self, paused: bool) -> None:
        """Hide the board and stop the clock, or show it and play on."""
        if paused:
            self.board.let_go()  # the chain drawn and the power-up armed wait for the player
            self.game.pause()
        else:
            if not self.game.over and self.is_current:
                self.game.resume()
            self.board.focus()
        self.refresh_all()

    def action_pause(self) -> None:
        self.finish_animation()
        self.paused = not self.paused

    def on_click(self, event: events.Click) -> None:
        """A click on the paused board's words plays on."""
        if self.paused and event.widget is not None and event.widget.id == "chain-paused":
            self.paused = False

    def focus_lost(self) -> None:
        if not self.game.over:
            self.paused = True

    def clock_may_run(self) -> bool:
        # paused with P stays paused: only P (or a click on the words) plays on
        return super().clock_may_run() and not self.paused

    def restart_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None
        if self.settings.auto_hint and self.mode.hint is not None:
            self._idle_timer = self.set_timer(self.auto_hint_seconds, self._auto_hint)

    def _auto_hint(self) -> None:
        self._idle_timer = None
        if self.paused or self.armed or self.board.chain or self.game.over:
            return
        if self.is_current:
            self.action_hint()

    # -- the end: a stuck board's rescue, the end, the result --------------------------------

    def game_over(self) -> None:
        self.check_end()

    def check_end(self) -> None:
        """Offer a rescue on a stuck board, or show the end when the game is over."""
        if self.ended or self.paused or not self.is_current:
            return
        if self.game.over:
            self.ended = True
            self.game.pause()
            if self.game.time_up:
                self.session.check_time()  # recorded once, its play time the limit
            over = Over(*why_over(self.game, self.status))
            self.refresh_all()
            self.post_message(over)
        elif self.status.rescues:
            self.post_message(Stuck(rescue_offers(self.mode, self.status)))

    @on(Over)
    def _show_over(self, message: Over) -> None:
        self.app.push_screen(
            NoMoreMovesDialog(message.title, message.body),
            lambda _choice: self.post_message(Finished(message.title)),
        )

    @on(Stuck)
    def _offer_rescue(self, message: Stuck) -> None:
        offered = any(isinstance(screen, RescueDialog) for screen in self.app.screen_stack)
        if self.is_current and not self.ended and not self.paused and not offered:
            self.app.push_screen(RescueDialog(message.offers), self._rescue_chosen)

    def _rescue_chosen(self, choice: str | None) -> None:
        if choice == "end":
            self.end_game()
        elif choice and self.powerup(choice) is not None:
            self.action_arm(choice)

    def end_game(self) -> None:
        """The player ends a stuck game instead of using a power-up."""
        self.ended = True
        self.session.end_game()
        self.post_message(Finished(_("Game over")))

    @on(Finished)
    def _show_result(self, message: Finished) -> None:
        self.refresh_best()
        lines = result_lines(self.mode, self.state, self.best)
        self.refresh_all()
        dialog = ChainResultDialog(title=message.title, lines=lines, sendable=self.result_sendable)
        self.app.push_screen(dialog, self._result_chosen)

    def _result_chosen(self, choice: str | None) -> None:
        if self.share_chosen(choice):
            return
        if choice == "again":
            self.start_new_game()

    def time_up(self) -> None:
        if not self.ended:
            self.board.cancel()
            self.check_end()

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#chain-status", StatusLine)

    def compose_play(self) -> Iterable[Widget]:
        yield StatusLine(id="chain-status")
        yield from self.board_row(self._board)
        yield Static(_("Paused. Press P to play on."), id="chain-paused")
        yield AnnouncementLine(id=self.ANNOUNCE_ID)
        yield PowerUpBar(
            self.mode.powerups, hint=self.mode.hint is not None, id="chain-powerups"
        ).data_bind(ChainScreen.status, ChainScreen.armed)

    def mounted(self) -> None:
        super().mounted()
        self.board.focus()
        self.refresh_all()
        self.restart_idle()
        if not self.show_first_tutorial():
            self.call_after_refresh(self.check_end)

    def opening_words(self) -> str:
        # what the game is about is the mode's own sentence; the screen only names the code
        code = _("Game {code}.").format(code=format_code(self.game.code))
        return f"{code} {self.mode.description}" if self.mode.description else code

    def apply_settings(self) -> None:
        super().apply_settings()
        if self.is_mounted:
            self.restart_idle()

    def _judge_failed(self, error: BaseException) -> None:
        fault = PluginFault(self.mode.id, error, owner_of(self.mode.id))
        self.call_later(self.stop, fault)

    # -- drawing ---------------------------------------------------------------------------

    def refresh_all(self) -> None:
        """The game taken in again (the top bar and the power-ups follow), and the line."""
        self.take_in()
        self.refresh_status()

    def refresh_status(self) -> None:
        # what a chain would make is in its bubble on the board, not on this line
        self.status_line.show(self._resting(), prompt=self._prompt())

    def _prompt(self) -> str:
        if self.paused:
            return _("Paused")
        armed = self.powerup(self.armed or "")
        return armed_prompt(armed, len(self.board.picks)) if armed is not None else ""

    def _resting(self) -> Text:
        board = self.board
        if self.hint_pending:
            return Text(_("Looking for a hint…"))
        if board.hint:
            text = Text(_("Hint: "))
            text.append_text(
                tile_count(self.judge.value(self.state.board, board.hint), len(board.hint))
            )
            return text
        if self.game.over:
            return Text(_("Game over. N starts a new game."), style="bold")
        if board.chain:
            return Text(_("Release, or Enter on the last tile, to merge; Esc cancels"))
        # how to draw a chain, not which tiles may join: that is the mode's rule (its Help)
        return Text(_("Drag through touching tiles, or use the arrow keys and Space"))

    def refused(self, reason: str) -> None:
        self.status_line.refuse(reason)
        self.announce(reason)  # the line below keeps why, never the last action's words
        self.refresh_status()
        if self.game.time_up:
            self.tick()

    # -- playing ---------------------------------------------------------------------------

    def finish_animation(self) -> None:
        self._board.finish_animation()

    def after_step(self, before: Any, step: Step) -> None:
        self.ended = False
        self.armed = None
        if not step.changed:
            self.board.show(self.state.board)  # the chain drawn so far is gone all the same
        super().after_step(before, step)  # the board draws the step, animated or not
        self._celebrate(before, step)
        self.refresh_all()
        self.restart_idle()
        self.check_end()

    def _celebrate(self, before: Any, step: Step) -> None:
        """Praise, retirements and new highest tiles (from the mode's milestone) in words."""
        words, cells = celebration(self.mode, before.board, step.events)
        for cell in cells:
            self.board.celebrate(cell)
        if words is not None:
            self.status_line.say(words)

    @on(ChainBoard.ChainChanged)
    def _chain_changed(self, message: ChainBoard.ChainChanged) -> None:
        if self.status_line.refusal and message.chain:
            self.status_line.clear_refusal()
        self.restart_idle()
        self.refresh_status()

    @on(ChainBoard.Refused)
    def _chain_refused(self, message: ChainBoard.Refused) -> None:
        text = for_people(self.judge.refusal(self.state.board, message.chain, message.cell))
        self.refused(text or _("That tile does not fit the chain"))

    def _merge(self, chain: tuple[tuple[int, int], ...]) -> None:
        if not self.paused:
            self.act("chain " + " ".join(cell_text(c) for c in chain))

    def game_replaced(self) -> None:
        self.ended = False
        self.paused = False
        self.armed = None
        self.status_line.clear()
        self.board.show(self.state.board)
        self.refresh_all()
        self.restart_idle()
        self.call_after_refresh(self.check_end)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Power-ups and undo stay on even when spent: the rules' refusal says why, where a
        # greyed-out key would say nothing. The bar's buttons show what is held.
        if action in self._PLAY_ACTIONS and self.paused:
            return None
        if action == "undo":  # a mode with no undo (Blitz: depth 0) offers no key for it
            return undo_depth(self.mode) > 0
        if action == "arm_key":
            return True if self._powerup_by_key(str(parameters[0])) is not None else None
        return super().check_action(action, parameters)

    def _bind_powerup_keys(self) -> None:
        """Each power-up's own key arms it (``PowerUp.key``), beside the slots 1, 2 and 3.

        The registry has already taken away any key twofold keeps, so none can clash.
        """
        bindings = node_bindings(self)
        for powerup in self.mode.powerups:
            key = key_name(powerup.key) if powerup.key else ""
            if not key or key in SLOT_KEYS or powerup.target == "undo":
                continue
            bindings.key_to_bindings.setdefault(key, []).append(
                Binding(
                    key,
                    f"arm_key({powerup.key!r})",
                    powerup.name,
                    show=False,
                    id=f"chain.powerup.{powerup.id}",
                )
            )

    def _powerup_by_key(self, key: str) -> str | None:
        return next((p.id for p in self.mode.powerups if p.key == key), None)

    def action_arm_key(self, key: str) -> None:
        name = self._powerup_by_key(key)
        if name is not None:
            self.action_arm(name)

    def action_cursor(self, d_row: int, d_col: int) -> None:
        self.finish_animation()
        if not self.paused:
            self.board.move_cursor(d_row, d_col)

    def action_add(self) -> None:
        self.finish_animation()
        if not self.paused:
            self.board.press_cursor(enter=False)

    def action_enter(self) -> None:
        self.finish_animation()
        if not self.paused:
            self.board.press_cursor(enter=True)

    def action_remove_last(self) -> None:
        self.finish_animation()
        self.board.remove_last()

    def close_open(self) -> bool:
        """Esc ends the pause P began, else closes the chain drawn, else the armed power-up."""
        if self.paused:
            self.paused = False
        elif self.board.chain:
            self.board.cancel()
        elif self.armed is not None:
            self.armed = None
        else:
            return False
        return True

    def pause_game(self) -> None:
        self.paused = True  # the board hidden behind the dialog, as P hides it
        super().pause_game()

    def after_pause(self, choice: str | None) -> None:
        if choice == "menu":
            self.action_menu()
        else:
            self.paused = False

    def action_undo(self) -> None:
        self.finish_animation()
        if not self.paused:
            self.act("undo")

    # -- the hint --------------------------------------------------------------------------

    def action_hint(self) -> None:
        if not self.paused:
            super().action_hint()

    def hint_asked(self) -> None:
        self.refresh_status()

    def show_hint(self, hint: Hint | None) -> None:
        if self.paused or self.board.chain or self.armed:
            self.refresh_status()
            return
        if hint is None or not hint.cells:
            self.refused(_("No chain on the board"))
            return
        self.board.show_hint(hint.cells)
        # a path to follow on the board, whatever its length, not a list of coordinates
        (row, column), (end_row, end_column) = hint.cells[0], hint.cells[-1]
        self.announce(
            _(
                "Hint: {count} tiles from row {row}, column {column} (▶) along the arrows "
                "to row {end_row}, column {end_column}."
            ).format(
                count=len(hint.cells),
                row=row + 1,  # people count from 1
                column=column + 1,
                end_row=end_row + 1,
                end_column=end_column + 1,
            )
        )
        self.refresh_status()

    # -- other places ----------------------------------------------------------------------

    def after_tutorial(self) -> None:
        """Back from the tutorial: the board has the keys, and a stuck board its offer."""
        self.board.focus()
        self.call_after_refresh(self.check_end)

    def palette_extras(self) -> list[Command]:
        """Actions with no key of their own, for the command palette."""
        extras: list[Command] = [
            (_("Merge the chain"), _("Merge the chain drawn so far"), self.board.merge),
            (_("Cancel the chain"), _("Drop the chain being drawn"), self.board.cancel),
            (_("Take back the last tile"), _("Remove the last tile of the chain"),
             self.action_remove_last),
            (_("End game"), _("End a stuck game and see the result"), self.end_game),
        ]  # fmt: skip
        for powerup in self.mode.powerups:
            extras.append(
                (powerup.name, powerup.description, lambda p=powerup.id: self.action_arm(p))
            )
        if self.mode.tutorial:
            extras.append((_("Tutorial"), _("The mode's tutorial"), self.action_tutorial))
        return [*extras, *self.command_extras()]
