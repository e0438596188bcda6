"""The game screen of every chain mode (2248 and any plugin's chain mode).

Everything the player does goes through ``session.act(text)`` in the words of the JSON
protocol (``chain 7,0 6,0``, ``hammer 3,2``, ...). The screen never decides what is
legal: the mode's judge previews a chain, the rules refuse, and the screen shows the
refusal. Its parts: the board and its chain controls (``twofold.ui.app.board.chain``),
power-ups (``arming``), pause and the automatic hint (``pause``), the end of a game
(``ending``), each an object the screen holds and calls (``playing`` declares what they may
ask of it); the line of words over the board (``status``) and the praise (``praise``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Static

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core.codes import format_code
from twofold.core.game import Step, undo_depth
from twofold.core.plugins import PluginFault, key_name, owner_of
from twofold.core.session import Session
from twofold.core.settings import Settings
from twofold.ui.app.board.chain import ChainBoard
from twofold.ui.app.screens.chain.arming import Arming, cell_text
from twofold.ui.app.screens.chain.ending import Ending
from twofold.ui.app.screens.chain.judge import ModeJudge
from twofold.ui.app.screens.chain.pause import AUTO_HINT_SECONDS, Pausing
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
    paused: var[bool] = var(False, bindings=True, toggle_class="-paused")
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
        self.arming = Arming(self)
        self.pausing = Pausing(self)
        self.ending = Ending(self)

    # -- the pieces ------------------------------------------------------------------------

    @property
    def board(self) -> ChainBoard:
        return self._board

    @property
    def armed(self) -> str | None:
        """The power-up waiting for its tiles, or None."""
        return self.arming.armed

    def action_arm(self, name: str) -> None:
        self.arming.arm(name)

    def disarm(self, *, refresh: bool = True) -> None:
        self.arming.disarm(refresh=refresh)

    def action_pause(self) -> None:
        self.pausing.toggle()

    def on_click(self, event: events.Click) -> None:
        self.pausing.clicked(event)

    def focus_lost(self) -> None:
        self.pausing.focus_lost()

    def clock_may_run(self) -> bool:
        # paused with P stays paused: only P (or a click on the words) plays on
        return super().clock_may_run() and not self.paused

    def game_over(self) -> None:
        self.ending.check_end()

    def time_up(self) -> None:
        self.ending.time_up()

    @property
    def status_line(self) -> StatusLine:
        return self.query_one("#chain-status", StatusLine)

    def compose_play(self) -> Iterable[Widget]:
        yield StatusLine(id="chain-status")
        yield from self.board_row(self._board)
        yield Static(_("Paused. Press P to play on."), id="chain-paused")
        yield AnnouncementLine(id=self.ANNOUNCE_ID)
        yield PowerUpBar(self.mode.powerups, hint=self.mode.hint is not None, id="chain-powerups")

    def mounted(self) -> None:
        super().mounted()
        self.board.focus()
        self.refresh_all()
        self.pausing.restart_idle()
        if not self.show_first_tutorial():
            self.call_after_refresh(self.ending.check_end)

    def opening_words(self) -> str:
        # what the game is about is the mode's own sentence; the screen only names the code
        code = _("Game {code}.").format(code=format_code(self.game.code))
        return f"{code} {self.mode.description}" if self.mode.description else code

    def apply_settings(self) -> None:
        super().apply_settings()
        if self.is_mounted:
            self.pausing.restart_idle()

    def _judge_failed(self, error: BaseException) -> None:
        fault = PluginFault(self.mode.id, error, owner_of(self.mode.id))
        self.call_later(self.stop, fault)

    # -- drawing ---------------------------------------------------------------------------

    def refresh_all(self) -> None:
        self.take_in()
        self.query_one(PowerUpBar).update_counts(self.status, armed=self.armed)
        self.refresh_status()

    def refresh_status(self) -> None:
        # what a chain would make is in its bubble on the board, not on this line
        self.status_line.show(self._resting(), prompt=self._prompt())

    def _prompt(self) -> str:
        if self.paused:
            return _("Paused")
        armed = self.arming.armed_powerup()
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
        self.ending.ended = False
        self.disarm(refresh=False)
        if not step.changed:
            self.board.show(self.state.board)  # the chain drawn so far is gone all the same
        super().after_step(before, step)  # the board draws the step, animated or not
        self._celebrate(before, step)
        self.refresh_all()
        self.pausing.restart_idle()
        self.ending.check_end()

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
        self.pausing.restart_idle()
        self.refresh_status()

    @on(ChainBoard.Refused)
    def _chain_refused(self, message: ChainBoard.Refused) -> None:
        text = for_people(self.judge.refusal(self.state.board, message.chain, message.cell))
        self.refused(text or _("That tile does not fit the chain"))

    def _merge(self, chain: tuple[tuple[int, int], ...]) -> None:
        if not self.paused:
            self.act("chain " + " ".join(cell_text(c) for c in chain))

    @on(ChainBoard.Picked)
    def _picked(self, message: ChainBoard.Picked) -> None:
        self.arming.picked(message.cell)

    def game_replaced(self) -> None:
        self.ending.ended = False
        self.pausing.set_paused(False)
        self.disarm(refresh=False)
        self.status_line.clear()
        self.board.show(self.state.board)
        self.refresh_all()
        self.pausing.restart_idle()
        self.call_after_refresh(self.ending.check_end)

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
            self.pausing.set_paused(False)
        elif self.board.chain:
            self.board.cancel()
        elif self.armed is not None:
            self.disarm()
        else:
            return False
        return True

    def pause_game(self) -> None:
        self.pausing.set_paused(True)  # the board hidden behind the dialog, as P hides it
        super().pause_game()

    def after_pause(self, choice: str | None) -> None:
        if choice == "menu":
            self.action_menu()
        else:
            self.pausing.set_paused(False)

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
        self.call_after_refresh(self.ending.check_end)

    def palette_extras(self) -> list[Command]:
        """Actions with no key of their own, for the command palette."""
        extras: list[Command] = [
            (_("Merge the chain"), _("Merge the chain drawn so far"), self.board.merge),
            (_("Cancel the chain"), _("Drop the chain being drawn"), self.board.cancel),
            (_("Take back the last tile"), _("Remove the last tile of the chain"),
             self.action_remove_last),
            (_("End game"), _("End a stuck game and see the result"), self.ending.end_game),
        ]  # fmt: skip
        for powerup in self.mode.powerups:
            extras.append(
                (powerup.name, powerup.description, lambda p=powerup.id: self.action_arm(p))
            )
        if self.mode.tutorial:
            extras.append((_("Tutorial"), _("The mode's tutorial"), self.action_tutorial))
        return [*extras, *self.command_extras()]
