"""The play widget: a kind of controls' board, its controls and its announcement line.

The one game screen (``screens.game.GameScreen``) composes one play widget, chosen by the
mode's ``controls`` (``controls.PLAYS``): :class:`~twofold.ui.app.screens.slide.SlidePlay`,
:class:`~twofold.ui.app.screens.place.PlacePlay` or the chain's. Between the two, attributes
go down and messages come up:

- down: the screen's reactives :attr:`Play.shown` (the state now, and the step that made
  it) and :attr:`Play.status` (the mode's status: what comes next...), bound with
  ``data_bind``; and the few methods below the screen calls (``finish_animation``,
  ``hint_words``...), each with a default;
- up: :class:`Play.Chosen` (an action the player chose, in the protocol's words),
  :class:`Play.NewGame`, :class:`Play.Share` and :class:`Play.Failed`, which the screen
  handles with ``@on``.

A play widget's ``BINDINGS`` are all the keys of its kind of game, in the order the footer
shows them: its own (moves, the cursor), then the keys every game has (``game_keys``), whose
actions are the screen's (``screen.undo``). Its board has the focus (alone or Max), so the
play widget's keys come first, then the screen's, then the app's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import var
from textual.widget import Widget

from twofold.core._capabilities import Hint
from twofold.core._i18n import _
from twofold.core._presentation import Status
from twofold.core._rules import Mode
from twofold.core.codes import format_code
from twofold.core.game import Step
from twofold.core.plugins import PluginFault
from twofold.ui.app.board.next_tiles import Upcoming
from twofold.ui.app.board.widget import GameBoard
from twofold.ui.app.controls import offered_bindings
from twofold.ui.app.seams import PaletteAction
from twofold.ui.app.textual_private import node_bindings, set_node_bindings
from twofold.ui.app.widgets.announcement import AnnouncementLine
from twofold.ui.cells import for_people


@dataclass(frozen=True, eq=False)
class Shown:
    """What the board shows: ``state``, made by ``step`` from ``before`` (no step: another
    game, or the same game shown anew). Each one is new: equal boards are shown again."""

    state: Any
    step: Step | None = None
    before: Any = None


class Play(Vertical):
    """The board of one kind of controls, with its controls and its announcement line."""

    DEFAULT_CSS = """
    Play #board-row { height: 1fr; }
    """

    #: the ids of the top bar and the announcement line (tests and styles find them)
    TOPBAR_ID: ClassVar[str] = "topbar"
    ANNOUNCE_ID: ClassVar[str] = "announce"
    #: the id of the game screen that plays this kind (None: none)
    SCREEN_ID: ClassVar[str | None] = None
    #: actions the command palette lists by another name (see ``palette_extras``)
    PALETTE_HIDDEN: ClassVar[frozenset[str]] = frozenset()
    #: the kind shows the end of a game itself (``show_end``); else the screen's game-over
    #: dialog does, and shows itself again for any action but Undo once the game is over
    OWN_END: ClassVar[bool] = False

    #: the state on the board, and how it came (the screen's ``shown``, bound)
    shown: var[Shown | None] = var(None, always_update=True)
    #: the mode's status (the screen's, bound): what comes next, power-ups, gauges
    status: var[Status] = var(Status)
    #: steps are animated (the screen turns it off under reduced motion)
    animate: var[bool] = var(True)

    class Chosen(Message):
        """The player chose ``action`` (``left``, ``place 2,3``, ``undo``...): play it."""

        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action

    class NewGame(Message):
        """Start a new game at once (the end was seen)."""

    class Share(Message):
        """Copy result (``"copy"``) or Send (``"send"``), chosen at the end of a game."""

        def __init__(self, choice: str) -> None:
            super().__init__()
            self.choice = choice

    class Failed(Message):
        """The mode failed while the widget asked it something (a judge): leave the game."""

        def __init__(self, fault: PluginFault) -> None:
            super().__init__()
            self.fault = fault

    def __init__(self, mode: Mode, state: Any, *, id: str | None = "play-area") -> None:
        super().__init__(id=id)
        self.mode = mode
        #: the state on the board (the last ``shown``'s)
        self.state = state
        # the keys of this mode: what it lacks taken away, its own directions and commands
        set_node_bindings(self, offered_bindings(mode, node_bindings(self)))
        self._board: GameBoard | None = None
        self._upcoming: Upcoming | None = None

    # -- what the screen asks of it -------------------------------------------------------

    @property
    def board(self) -> GameBoard:
        """The board (Max shows it alone)."""
        if self._board is None:
            self._board = self.query_one("#board", GameBoard)
        return self._board

    def opening_words(self, code: str) -> str:
        """The greeting of a new game of code ``code``: how to play, in a sentence."""
        return _("Game {code}.").format(code=format_code(code))

    def finish_animation(self) -> None:
        """Any input finishes the board's animation at once."""
        if self._board is not None:
            self._board.finish_animation()

    def hint_words(self, hint: Hint) -> str | None:
        """Show ``hint`` on the board, if the kind marks it there; the words that say it
        (None: nothing to say now)."""
        return _("Hint: {action}.").format(action=for_people(hint.action))

    def no_hint_words(self) -> str | None:
        """What to say when the mode has no move to suggest (None: nothing now)."""
        return _("No move to suggest")

    def refused(self, reason: str) -> None:
        """An action was refused for ``reason`` (the screen announces it; a kind may show it
        on the board too)."""

    def close_open(self) -> bool:
        """Esc: close what is open on the board (an aim, a chain...); True if anything was."""
        return False

    def allows(self, action: str) -> bool | None:
        """Whether the screen's ``action`` may run now (None: greyed; True: no objection)."""
        return True

    def show_end(self) -> None:
        """Show the end of a game the kind's own way (with ``OWN_END``)."""

    def game_ready(self) -> None:
        """The game has the player's attention: mounted with no tutorial first, or the
        tutorial read (a kind may offer something on a stuck board)."""

    def focus_lost(self) -> None:
        """The terminal lost the player's attention (the screen has stopped the clock)."""

    def clock_may_run(self) -> bool:
        """Whether the clock may run again when the focus or the screen comes back."""
        return True

    def time_up(self) -> None:
        """A timed game's clock ran out."""

    def pausing(self, paused: bool) -> None:
        """The pause dialog opens (True), or closes with the game played on (False)."""

    def palette_extras(self) -> Iterable[PaletteAction]:
        """The kind's actions with no key of their own, for the command palette."""
        return ()

    def action_command(self, word: str) -> None:
        """A command the mode declares (its key), played as it is typed."""
        self.post_message(self.Chosen(word))

    # -- what the screen tells it ---------------------------------------------------------

    def watch_shown(self, shown: Shown | None) -> None:
        if shown is None:
            return
        self.state = shown.state
        self.draw(shown)

    def draw(self, shown: Shown) -> None:
        """Draw what ``shown`` says: a step animated, another game at once."""
        step = shown.step
        if step is None or (step.changed and step.action == "undo"):
            self.board.show(shown.state.board)
        elif step.changed:
            self.board.play(shown.before.board, shown.state.board, step.events)

    def watch_animate(self, animate: bool) -> None:
        if self._board is not None:
            self._board.animate_moves = animate

    def watch_status(self, status: Status) -> None:
        """The mode's next tiles beside the board ("Next: 8, then 4"), or nothing."""
        if self._upcoming is not None and self._upcoming.is_mounted:
            self._upcoming.show(status.upcoming)

    # -- building blocks ------------------------------------------------------------------

    def board_row(self, board: GameBoard) -> Iterable[Widget]:
        """The board, with what comes next beside it (shown when the mode says any)."""
        self._board = board
        board.animate_moves = self.animate
        board.can_focus = True  # the focus, and with it the keys of this play widget
        self._upcoming = Upcoming(board.palette, id="upcoming-box")
        with Horizontal(id="board-row"):
            yield board
            yield self._upcoming

    def announcement_line(self) -> AnnouncementLine:
        return AnnouncementLine(id=self.ANNOUNCE_ID)
