"""A mode's tutorial (its pages come from the mode), shown on its first game and from Help."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, VerticalGroup, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from twofold.core._i18n import _
from twofold.core._presentation import TutorialPage
from twofold.ui.app.seams import TwofoldScreen
from twofold.ui.app.widgets.tiles import vivid_style as tile_style


def picture(tiles: Sequence[int], makes: int) -> Text:
    """A row of coloured tiles and the tile they make: `` 2  2 → 4 ``."""
    text = Text(justify="center")
    for i, value in enumerate(tiles):
        if i:
            text.append(" ")
        text.append(f" {value} ", style=tile_style(value))
    if makes:
        text.append("  →  ")
        text.append(f" {makes} ", style=tile_style(makes))
    return text


class TutorialScreen(TwofoldScreen[bool], ModalScreen[bool]):
    """The pages; dismisses with True when the player went through them, False if skipped."""

    DEFAULT_CSS = """
    TutorialScreen {
        align: center middle;
        background: $background 60%;
    }
    TutorialScreen > VerticalGroup {
        width: 64;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 1 2;
    }
    TutorialScreen .tutorial--title {
        width: 100%;
        text-align: center;
        text-style: bold;
        color: $accent;
    }
    TutorialScreen .tutorial--picture {
        width: 100%;
        margin: 1 0;
        text-align: center;
    }
    TutorialScreen .tutorial--text {
        width: 100%;
        margin-bottom: 1;
    }
    TutorialScreen HorizontalGroup {
        width: 100%;
        align-horizontal: center;
    }
    TutorialScreen Button {
        margin: 0 1;
    }
    TutorialScreen #tutorial-body {
        height: auto;
    }
    /* a small terminal: narrower buttons, no picture, the words scroll; Skip stays */
    TutorialScreen.-narrow Button {
        min-width: 8;
        margin: 0 0 0 1;
    }
    TutorialScreen.-short .tutorial--picture, TutorialScreen .tutorial--picture.-none {
        display: none;
    }
    """

    #: rows the frame, title and buttons take (the words get the rest on a small screen)
    FRAME_ROWS: ClassVar[int] = 8
    #: below these sizes the buttons narrow and the picture goes
    NARROW: ClassVar[int] = 60
    SHORT: ClassVar[int] = 20

    AUTO_FOCUS = "#tutorial-next"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,enter,space", "next", _("Next"), id="tutorial.next"),
        Binding("left,backspace", "back", _("Back"), id="tutorial.back"),
        Binding("escape", "skip", _("Skip"), id="tutorial.skip"),
    ]

    def __init__(self, pages: Sequence[TutorialPage]) -> None:
        super().__init__(id="tutorial")
        self.steps = list(pages)
        self.step = 0

    def compose(self) -> ComposeResult:
        # the first page is built in, not filled in on mount: under load the screen's Mount
        # may come before the scroll's children exist
        step, last = self.steps[self.step], self.step == len(self.steps) - 1
        self.body = VerticalScroll(id="tutorial-body")
        with VerticalGroup():
            yield Label(step.title, classes="tutorial--title", id="tutorial-title")
            with self.body:
                yield Static(
                    picture(step.tiles, step.makes),
                    classes="tutorial--picture" + ("" if step.tiles else " -none"),
                    id="tutorial-picture",
                )
                yield Static(step.text, classes="tutorial--text", id="tutorial-text", markup=False)
            with HorizontalGroup():
                yield Button(_("Back"), id="tutorial-back", disabled=self.step == 0)
                yield Button(
                    _("Play") if last else _("Next"), id="tutorial-next", variant="primary"
                )
                yield Button(_("Skip"), id="tutorial-skip")

    def on_mount(self) -> None:
        self.fit()

    def on_resize(self) -> None:
        self.fit()

    def fit(self) -> None:
        """Keep every button on screen however small the terminal: the words scroll."""
        width, height = self.app.size
        self.set_class(width < self.NARROW, "-narrow")
        self.set_class(height < self.SHORT, "-short")
        self.body.styles.max_height = max(1, height - self.FRAME_ROWS)

    def _show(self) -> None:
        step = self.steps[self.step]
        self.query_one("#tutorial-title", Label).update(step.title)
        self.query_one("#tutorial-picture", Static).update(picture(step.tiles, step.makes))
        self.query_one("#tutorial-picture", Static).set_class(not step.tiles, "-none")
        self.query_one("#tutorial-text", Static).update(step.text)
        last = self.step == len(self.steps) - 1
        self.query_one("#tutorial-next", Button).label = _("Play") if last else _("Next")
        self.query_one("#tutorial-back", Button).disabled = self.step == 0
        self.query_one("#tutorial-next", Button).focus()

    def action_next(self) -> None:
        if self.step == len(self.steps) - 1:
            self.dismiss(True)
            return
        self.step += 1
        self._show()

    def action_back(self) -> None:
        if self.step:
            self.step -= 1
            self._show()

    def action_skip(self) -> None:
        self.dismiss(False)

    @on(Button.Pressed, "#tutorial-next")
    def _next(self) -> None:
        self.action_next()

    @on(Button.Pressed, "#tutorial-back")
    def _back(self) -> None:
        self.action_back()

    @on(Button.Pressed, "#tutorial-skip")
    def _skip(self) -> None:
        self.action_skip()
