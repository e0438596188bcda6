"""Questions and results shown over a game: confirm, win, game over, copied result, and
the board read aloud."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, VerticalGroup, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from twofold.core._i18n import _
from twofold.ui.app.seams import TwofoldScreen

DIALOG_CSS = """
Dialog {
    align: center middle;
    background: $background 60%;
}
Dialog > VerticalGroup {
    width: auto;
    min-width: 36;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: thick $primary;
    background: $surface;
    padding: 1 2;
}
Dialog .dialog--title {
    width: 100%;
    text-align: center;
    text-style: bold;
    color: $primary;
    margin-bottom: 1;
}
Dialog .dialog--body {
    width: 100%;
    text-align: center;
    margin-bottom: 1;
}
Dialog HorizontalGroup {
    width: 100%;
    height: auto;
    align-horizontal: center;
}
Dialog Button {
    margin: 0 1;
    min-width: 12;
}
Dialog.-stacked HorizontalGroup {
    layout: vertical;
}
Dialog.-stacked Button {
    width: 100%;
    margin: 0 0 1 0;
}
Dialog #dialog-words {
    width: 100%;
    height: auto;
}
/* a short terminal: the frame thins, the words scroll, every button stays on screen */
Dialog.-short > VerticalGroup {
    padding: 0 1;
}
Dialog.-short .dialog--title, Dialog.-short .dialog--body {
    margin-bottom: 0;
}
Dialog.-short.-stacked Button {
    margin: 0;
}
"""
#: the widest a dialog grows, and the room it leaves around itself on a small screen
WIDEST = 70
MARGIN = 4
#: the dialog's border and padding, left and right together
FRAME = 6
#: below this many rows a dialog thins its frame and lets its words scroll
SHORT = 20


class Dialog(TwofoldScreen[str], ModalScreen[str]):
    """A title, a body and a row of buttons; dismisses with the id of the button pressed."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose('close')", _("Close"), id="dialog.close"),
        Binding("left,h", "app.focus_previous", show=False, id="dialog.previous"),
        Binding("right,l", "app.focus_next", show=False, id="dialog.next"),
    ]

    def __init__(
        self,
        title: str,
        body: str,
        buttons: list[tuple[str, str, str]],
        *,
        id: str | None = None,
    ) -> None:
        """:param buttons: ``(choice, label, variant)`` triples, the first one focused."""
        super().__init__(id=id)
        self.title_text = title
        self.body = body
        self.buttons = buttons
        #: the rows the words take at the dialog's width (see fit)
        self._words_rows = len(body.splitlines())

    def compose(self) -> ComposeResult:
        with VerticalGroup():
            yield Label(self.title_text, classes="dialog--title")
            with VerticalScroll(id="dialog-words"):
                yield Static(self.body, classes="dialog--body", markup=False)
            with HorizontalGroup():
                for choice, label, variant in self.buttons:
                    yield Button(label, id=f"choice-{choice}", variant=variant)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        if not self.has_parts():
            return
        self.fit(self.app.size.width)
        self.fit_height(self.app.size.height)
        if self.buttons:
            self.query_one(f"#choice-{self.buttons[0][0]}", Button).focus()

    def on_resize(self) -> None:
        if self.has_parts():
            self.fit(self.app.size.width)
            self.fit_height(self.app.size.height)

    def has_parts(self) -> bool:
        """Whether the dialog's words and buttons are still there: a dialog closed before its
        mount or resize ran (a quick key, the app ending) has none left to fit or focus."""
        return bool(self.query("#dialog-words"))

    def fit_height(self, screen_height: int) -> None:
        """Keep the title and every button on screen; the words get the rows left, scrolling.

        The frame thins in a short terminal, and also where the words would not fit whole
        inside a full one (the board read aloud on a small screen).
        """
        stacked = self.has_class("-stacked")
        count = len(self.buttons)

        def rooms(short: bool) -> int:
            # a stack is a line a button (a gap between when there is room); a row is 3 lines
            stack = count if short else 2 * count - 1
            buttons = stack if stacked else (3 if count else 0)
            # border 2, padding 2 (none when short), title 1 and its margin, the words' margin
            frame = 2 + (0 if short else 2) + (1 if short else 2) + (0 if short else 1)
            return screen_height - frame - buttons

        short = screen_height < SHORT or self._words_rows > rooms(False)
        self.set_class(short, "-short")
        words = self.query_one("#dialog-words", VerticalScroll)
        words.styles.max_height = max(1, rooms(short))

    def fit(self, screen_width: int) -> None:
        """Size the dialog to its words and buttons; stack the buttons when a row cannot fit.

        ``width: auto`` alone measures the text but not a row of buttons, and cuts both
        when the row is wider than the dialog; so every message and label shows whole.
        """
        room = max(20, min(WIDEST, screen_width - MARGIN))
        row = sum(max(12, len(label) + 4) + 2 for _choice, label, _variant in self.buttons)
        words = max((len(line) for line in self.body.splitlines()), default=0)
        words = max(words, len(self.title_text))
        stacked = row + FRAME > room
        wanted = max(words, 0 if stacked else row, 30) + FRAME
        width = min(room, wanted)
        self.query_one(VerticalGroup).styles.width = width
        # the rows the words take at this width, wrapped as the Static wraps them
        self._words_rows = sum(
            len(textwrap.wrap(line, max(1, width - FRAME))) or 1 for line in self.body.splitlines()
        )
        self.set_class(stacked, "-stacked")
        for button in self.query(Button):
            button.compact = stacked  # a button a line, so the stack fits at 80x24

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id and event.button.id.startswith("choice-"):
            self.dismiss(event.button.id.removeprefix("choice-"))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class ConfirmDialog(Dialog):
    """A yes/no question; dismisses with ``"yes"`` or ``"no"`` (Escape is no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "choose('yes')", _("Yes"), id="confirm.yes"),
        Binding("n,escape", "choose('no')", _("No"), id="confirm.no"),
    ]

    def __init__(self, title: str, body: str, yes: str | None = None) -> None:
        super().__init__(
            title,
            body,
            [("yes", yes or _("Yes"), "warning"), ("no", _("Cancel"), "default")],
            id="confirm-dialog",
        )


class WinDialog(Dialog):
    """The goal tile is made: Keep going (``"keep"``) or New game (``"new"``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k,escape", "choose('keep')", _("Keep going"), id="win.keep"),
        Binding("n", "choose('new')", _("New game"), id="win.new"),
    ]

    def __init__(self, goal: int, score: int, next_aim: int | None = None) -> None:
        """:param next_aim: the mode's next aim (``Mode.aim_after_goal``); None names none."""
        if next_aim is None:
            body = _("Score {score}. Keep going, or start afresh.").format(score=score)
        else:
            body = _("Score {score}. Keep going towards {next} and beyond, or start afresh.")
            body = body.format(score=score, next=next_aim)
        super().__init__(
            _("You reached {goal}!").format(goal=goal),
            body,
            [("keep", _("Keep going"), "success"), ("new", _("New game"), "primary")],
            id="win-dialog",
        )


def sharing_buttons(sendable: bool) -> list[tuple[str, str, str]]:
    """What every end of a game offers: Copy result, and Send to leaderboard when one is set."""
    buttons = [("copy", _("Copy result"), "default")]
    if sendable:
        buttons.append(("send", _("Send to leaderboard"), "default"))
    return buttons


class GameOverDialog(Dialog):
    """No move is left: the result, with New game (``"new"``) and Undo (``"undo"``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('new')", _("New game"), id="over.new"),
        Binding("u,ctrl+z", "choose('undo')", _("Undo"), id="over.undo"),
        Binding("y", "choose('copy')", _("Copy result"), id="over.copy"),
        Binding("escape", "choose('close')", _("Look at the board"), id="over.close"),
    ]

    def __init__(
        self,
        score: int,
        best: int,
        largest: int,
        moves: int,
        can_undo: bool,
        why: str = "",
        *,
        sendable: bool = False,
    ) -> None:
        """:param why: the mode's words for why the game ended (``Status.over``), if any.
        :param sendable: offer "Send to leaderboard" (``"send"``; a leaderboard is set)."""
        body = "\n".join(
            [
                *([why] if why else []),
                _("Score: {score}").format(score=score),
                _("Best: {best}").format(best=best),
                _("Largest tile: {largest}").format(largest=largest),
                _("Moves: {moves}").format(moves=moves),
            ]
        )
        buttons = [("new", _("New game"), "primary")]
        if can_undo:
            buttons.append(("undo", _("Undo"), "default"))
        buttons += sharing_buttons(sendable)
        super().__init__(_("Game over"), body, buttons, id="game-over-dialog")


class PauseDialog(Dialog):
    """The game waits, its clock stopped: Resume (``"resume"``, Esc again) or Menu (``"menu"``).

    Esc means the same in every game: it closes what is open, else pauses here; a second
    Esc plays on, so one press never leaves the game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,p", "choose('resume')", _("Resume"), id="pause.resume"),
        Binding("q", "choose('menu')", _("Menu"), id="pause.menu"),
    ]

    def __init__(self, *, clock: bool = True) -> None:
        """:param clock: whether the game has a clock to stop (Blitz has; 2048 has none)."""
        super().__init__(
            _("Paused"),
            _("The game and its clock wait for you.") if clock else _("The game waits for you."),
            [("resume", _("Resume"), "primary"), ("menu", _("Menu"), "default")],
            id="pause-dialog",
        )


class ResultDialog(Dialog):
    """A text the player may want to keep (the copied result), shown in full."""

    def __init__(self, title: str, text: str, *, sendable: bool = False) -> None:
        """:param sendable: offer "Send to leaderboard" (dismisses with ``"send"``)."""
        buttons = [("close", _("Close"), "primary")]
        if sendable:
            buttons.append(("send", _("Send to leaderboard"), "default"))
        super().__init__(title, text, buttons, id="result-dialog")


class BoardReading(Dialog):
    """The whole board in words, row by row (R, in every mode): gone with its screen."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(
            _("The board, row by row"),
            "\n".join(lines),
            [("close", _("Close"), "primary")],
            id="board-reading",
        )
