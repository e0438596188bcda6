"""The play widget of every chain mode (2248 and any plugin's chain mode).

Everything the player does is played in the words of the JSON protocol (``chain 7,0
6,0``, ``hammer 3,2``, ...). The widget never decides what is legal: the mode's judge
previews a chain, the rules refuse, and the widget shows the refusal. Its parts: the board
and its chain controls (``twofold.ui.app.board.chain``), the power-up bar (``powerups``,
which says what was pressed in a message), the end of a game (``end``: messages the
widget handles by showing their dialogs), the line of words over the board (``status``)
and the praise (``praise``). The power-up armed and the pause are its reactives, and what
shows them follows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import Static

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core._presentation import PowerUp
from twofold.core._rules import Mode
from twofold.core.codes import format_code
from twofold.core.game import Game, undo_depth
from twofold.core.plugins import PluginFault, key_name, owner_of
from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.screens.chain.dialogs import (
    ChainResultDialog,
    NoMoreMovesDialog,
    RescueDialog,
)
from twofold.ui.app.screens.chain.end import (
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
from twofold.ui.app.screens.game import GameScreen
from twofold.ui.app.screens.game_keys import game_bindings
from twofold.ui.app.screens.play import Play, Shown
from twofold.ui.app.seams import PaletteAction
from twofold.ui.app.textual_private import node_bindings
from twofold.ui.cells import for_people

#: the keys that arm the first, second and third power-up (2248's own keys)
SLOT_KEYS = ("1", "2", "3")
#: seconds without an action before the automatic hint appears
AUTO_HINT_SECONDS = 10.0

Cell = tuple[int, int]


def cell_text(cell: Cell) -> str:
    """A cell in the protocol's words: ``row,column`` from 0."""
    return f"{cell[0]},{cell[1]}"


class PausedWords(Static, can_focus=True):
    """What shows in the board's place while the game is paused; it holds the focus then,
    so the game's keys (P above all) still reach the play widget."""


class ChainPlay(Play):
    """A chain board, its status line, its power-ups, pause and the end of a chain game."""

    TOPBAR_ID = "chain-topbar"
    ANNOUNCE_ID = "chain-announce"
    SCREEN_ID = "chain-screen"
    OWN_END = True

    DEFAULT_CSS = """
    ChainPlay #chain-status {
        /* words longer than a narrow terminal wrap onto a second line, never cut */
        height: auto;
        max-height: 2;
        width: 100%;
        text-align: center;
    }
    ChainPlay #chain-paused {
        height: 1fr;
        width: 100%;
        content-align: center middle;
        text-style: bold;
        color: $text-muted;
        display: none;
    }
    ChainPlay.-paused #chain-paused {
        display: block;
    }
    /* paused, the board is hidden, and what was said of it (a hint's path) with it */
    ChainPlay.-paused #board-row, ChainPlay.-paused #board,
    ChainPlay.-paused #chain-announce {
        display: none;
    }
    ChainPlay #chain-announce {
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
        Binding("escape", "screen.escape", _("Cancel or pause"), show=False, id="chain.escape"),
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
    #: actions that play on the board, off while paused (the screen's among them)
    _PLAY_ACTIONS: ClassVar[frozenset[str]] = frozenset(
        {"cursor", "add", "enter", "remove_last", "arm", "arm_key", "undo", "hint", "read_board"}
    )

    def __init__(self, mode: Mode, state: Any, *, id: str | None = "play-area") -> None:
        super().__init__(mode, state, id=id)
        self._bind_powerup_keys()
        self.judge = ModeJudge(mode, lambda: self.state, self._judge_failed)
        self._chain_board = ChainBoard(
            state.board, self.judge, self._merge, layout=mode.layout, id="board"
        )
        #: the end of this game was already shown (the result, or End game)
        self.ended = False
        self._idle_timer: Timer | None = None

    # -- the pieces ------------------------------------------------------------------------

    @property
    def board(self) -> ChainBoard:
        return self._chain_board

    @property
    def game_screen(self) -> GameScreen:
        """The game screen this widget plays on (its session, its clock, its records)."""
        screen = self.screen
        assert isinstance(screen, GameScreen)
        return screen

    @property
    def game(self) -> Game:
        return self.game_screen.game

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#chain-status", StatusLine)

    def compose(self) -> ComposeResult:
        yield StatusLine(id="chain-status")
        yield from self.board_row(self._chain_board)
        yield PausedWords(_("Paused. Press P to play on."), id="chain-paused")
        yield self.announcement_line()
        yield PowerUpBar(
            self.mode.powerups, hint=self.mode.hint is not None, id="chain-powerups"
        ).data_bind(ChainPlay.status, ChainPlay.armed)

    def on_mount(self) -> None:
        self.watch(self.game_screen.hints, "pending", self._hint_pending, init=False)
        self.refresh_status()
        self.restart_idle()

    def opening_words(self, code: str) -> str:
        # what the game is about is the mode's own sentence; the widget only names the code
        words = _("Game {code}.").format(code=format_code(code))
        return f"{words} {self.mode.description}" if self.mode.description else words

    def game_ready(self) -> None:
        """The board has the keys, and a stuck board its offer."""
        self.board.focus()
        self.call_after_refresh(self.check_end)

    def _judge_failed(self, error: BaseException) -> None:
        self.post_message(Play.Failed(PluginFault(self.mode.id, error, owner_of(self.mode.id))))

    def _act(self, action: str) -> None:
        """Play ``action`` at once: a chain the player starts a moment later (a burst of
        keys, a quick press) must meet the board it made, not the one before."""
        self.game_screen.act(action)

    # -- drawing ---------------------------------------------------------------------------

    def refresh_status(self) -> None:
        # what a chain would make is in its bubble on the board, not on this line
        self.status_line.show(self._resting(), prompt=self._prompt())

    def _hint_pending(self, _pending: bool) -> None:
        self.refresh_status()

    def _prompt(self) -> str:
        if self.paused:
            return _("Paused")
        armed = self.powerup(self.armed or "")
        return armed_prompt(armed, len(self.board.picks)) if armed is not None else ""

    def _resting(self) -> Text:
        board = self.board
        if self.game_screen.hints.pending:
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
        # the screen announces it: the line below keeps why, never the last action's words
        self.status_line.refuse(reason)
        self.refresh_status()
        if self.game.time_up:
            self.game_screen.tick()

    # -- playing ---------------------------------------------------------------------------

    def draw(self, shown: Shown) -> None:
        step = shown.step
        self.ended = False
        self.armed = None
        if step is None:  # another game on the board
            self.paused = False
            self.status_line.clear()
            super().draw(shown)
            self.refresh_status()
            self.restart_idle()
            self.call_after_refresh(self.check_end)
            return
        if not step.changed:
            self.board.show(shown.state.board)  # the chain drawn so far is gone all the same
        super().draw(shown)  # the board draws the step, animated or not
        self._celebrate(shown.before, step)
        self.refresh_status()
        self.restart_idle()
        self.check_end()

    def _celebrate(self, before: Any, step: Any) -> None:
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
        self.game_screen.refused(text or _("That tile does not fit the chain"))

    def _merge(self, chain: tuple[Cell, ...]) -> None:
        if not self.paused:
            self._act("chain " + " ".join(cell_text(c) for c in chain))

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
            self.post_message(Play.Chosen("undo"))
        elif self.armed == name:
            self.armed = None
        elif powerup.target == "none":
            self.post_message(Play.Chosen(powerup.id))
        elif self.status.powerups.get(name, 0) < 1 and name not in self.status.free:
            self.game_screen.refused(_("No {powerup} left").format(powerup=powerup.name))
        else:
            self.board.cancel()
            self.armed = name

    def watch_armed(self, armed: str | None) -> None:
        """The board picks tiles for the armed power-up (its hint put away), or draws chains."""
        board = self._chain_board
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
            if not self.paused:
                self.game_screen.action_hint()
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
            self._act(f"{powerup.id} {cell_text(cell)}")
        elif powerup.target == "pair":
            if not board.picks:
                board.picks.append(cell)
            elif cell == board.picks[0]:
                board.picks.clear()
            else:
                pair = f"{powerup.id} {cell_text(board.picks[0])} {cell_text(cell)}"
                if self.game_screen.act(pair) is None:
                    board.flash(cell)
            board.refresh()
            self.refresh_status()

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

    # -- pause, and the automatic hint after a quiet while -----------------------------------

    def watch_paused(self, paused: bool) -> None:
        """Hide the board and stop the clock, or show it and play on."""
        game = self.game
        if paused:
            self.board.let_go()  # the chain drawn and the power-up armed wait for the player
            game.pause()
            # the board is hidden: the words have the focus, and with it this widget's keys
            self.query_one(PausedWords).focus()
        else:
            if not game.over and self.screen.is_current:
                game.resume()
            self.board.focus()
        self.game_screen.take_in()  # the clock as it stopped
        self.refresh_status()

    def action_pause(self) -> None:
        self.finish_animation()
        self.paused = not self.paused

    def pausing(self, paused: bool) -> None:
        self.paused = paused  # the board hidden behind the pause dialog, as P hides it

    def on_click(self, event: events.Click) -> None:
        """A click on the paused board's words plays on."""
        if self.paused and event.widget is not None and event.widget.id == "chain-paused":
            self.paused = False

    def focus_lost(self) -> None:
        if not self.game.over:
            self.paused = True

    def clock_may_run(self) -> bool:
        # paused with P stays paused: only P (or a click on the words) plays on
        return not self.paused

    def restart_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.stop()
            self._idle_timer = None
        if self.game_screen.settings.auto_hint and self.mode.hint is not None:
            self._idle_timer = self.set_timer(self.auto_hint_seconds, self._auto_hint)

    def _auto_hint(self) -> None:
        self._idle_timer = None
        if self.paused or self.armed or self.board.chain or self.game.over:
            return
        if self.screen.is_current:
            self.game_screen.action_hint()

    # -- the end: a stuck board's rescue, the end, the result --------------------------------

    def show_end(self) -> None:
        self.check_end()

    def check_end(self) -> None:
        """Offer a rescue on a stuck board, or show the end when the game is over."""
        if self.ended or self.paused or not self.screen.is_current:
            return
        game, screen = self.game, self.game_screen
        if game.over:
            self.ended = True
            game.pause()
            if game.time_up:
                screen.session.check_time()  # recorded once, its play time the limit
            over = Over(*why_over(game, self.status))
            screen.take_in()
            self.refresh_status()
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
        if self.screen.is_current and not self.ended and not self.paused and not offered:
            self.app.push_screen(RescueDialog(message.offers), self._rescue_chosen)

    def _rescue_chosen(self, choice: str | None) -> None:
        if choice == "end":
            self.end_game()
        elif choice and self.powerup(choice) is not None:
            self.action_arm(choice)

    def end_game(self) -> None:
        """The player ends a stuck game instead of using a power-up."""
        self.ended = True
        self.game_screen.session.end_game()
        self.post_message(Finished(_("Game over")))

    @on(Finished)
    def _show_result(self, message: Finished) -> None:
        screen = self.game_screen
        screen.refresh_best()
        lines = result_lines(self.mode, self.state, screen.best)
        screen.take_in()
        self.refresh_status()
        dialog = ChainResultDialog(
            title=message.title, lines=lines, sendable=screen.result_sendable
        )
        self.app.push_screen(dialog, self._result_chosen)

    def _result_chosen(self, choice: str | None) -> None:
        if choice in ("copy", "send"):
            self.post_message(Play.Share(choice))
        elif choice == "again":
            self.post_message(Play.NewGame())

    def time_up(self) -> None:
        if not self.ended:
            self.board.cancel()
            self.check_end()

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Power-ups stay on even when spent: the rules' refusal says why, where a greyed-out
        # key would say nothing. The bar's buttons show what is held.
        if action in self._PLAY_ACTIONS and self.paused:
            return None
        if action == "arm_key":
            return True if self._powerup_by_key(str(parameters[0])) is not None else None
        return True

    def allows(self, action: str) -> bool | None:
        if action in self._PLAY_ACTIONS and self.paused:
            return None
        if action == "undo":  # a mode with no undo (Blitz: depth 0) offers no key for it
            return undo_depth(self.mode) > 0
        return True

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

    # -- the hint --------------------------------------------------------------------------

    def hint_words(self, hint: Hint) -> str | None:
        if self.paused or self.board.chain or self.armed:
            self.refresh_status()
            return None
        if not hint.cells:
            self.game_screen.refused(_("No chain on the board"))
            return None
        self.board.show_hint(hint.cells)
        self.refresh_status()
        # a path to follow on the board, whatever its length, not a list of coordinates
        (row, column), (end_row, end_column) = hint.cells[0], hint.cells[-1]
        return _(
            "Hint: {count} tiles from row {row}, column {column} (▶) along the arrows "
            "to row {end_row}, column {end_column}."
        ).format(
            count=len(hint.cells),
            row=row + 1,  # people count from 1
            column=column + 1,
            end_row=end_row + 1,
            end_column=end_column + 1,
        )

    def no_hint_words(self) -> str | None:
        if self.paused or self.board.chain or self.armed:
            self.refresh_status()
            return None
        return _("No chain on the board")

    # -- other places ----------------------------------------------------------------------

    def palette_extras(self) -> Iterable[PaletteAction]:
        """Actions with no key of their own, for the command palette."""
        screen = self.game_screen
        extras: list[PaletteAction] = [
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
            extras.append((_("Tutorial"), _("The mode's tutorial"), screen.action_tutorial))
        return extras
