"""The three-step 2248 tutorial, shown on the first launch and from Help."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, VerticalGroup
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from twofold.core.i18n import _
from twofold.ui.chain.palette import tile_style


@dataclass(frozen=True)
class TutorialStep:
    title: str
    text: str
    #: tiles of the picture, and the tile they make (0 for none)
    tiles: tuple[int, ...]
    makes: int


def tutorial_steps() -> list[TutorialStep]:
    """The steps, translated now (the language may change between two showings)."""
    return [
        TutorialStep(
            _("1 of 3: draw a chain"),
            _(
                "Press on a tile and drag through touching tiles with the same number; "
                "diagonals count. Release to merge. Or click tile by tile and click the last "
                "one again, or move with the arrow keys, add with Space and merge with Enter."
            ),
            (2, 2),
            4,
        ),
        TutorialStep(
            _("2 of 3: equal or double"),
            _(
                "After two equal tiles, each next tile equals the one before it or doubles it. "
                "The chain's sum, rounded up to a power of two, lands on its last tile: "
                "2 + 2 + 4 + 8 makes 16, and three 2s make 8. Chains of 6 or more earn praise."
            ),
            (2, 2, 4, 8),
            16,
        ),
        TutorialStep(
            _("3 of 3: power-ups and the hint"),
            _(
                "1 Hammer removes a tile, 2 Swap exchanges two neighbours, 3 Shuffle mixes "
                "the board, U takes back the last move. H shows the best chain, P pauses. "
                "New highest tiles from 512 up earn power-ups; at 2048 the 2 retires."
            ),
            (512, 512),
            1024,
        ),
    ]


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


class TutorialScreen(ModalScreen[bool]):
    """Three pages; dismisses with True when the player went through them, False if skipped."""

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
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,enter,space", "next", _("Next"), id="tutorial.next"),
        Binding("left,backspace", "back", _("Back"), id="tutorial.back"),
        Binding("escape", "skip", _("Skip"), id="tutorial.skip"),
    ]

    def __init__(self) -> None:
        super().__init__(id="chain-tutorial")
        self.steps = tutorial_steps()
        self.step = 0

    def compose(self) -> ComposeResult:
        with VerticalGroup():
            yield Label("", classes="tutorial--title", id="tutorial-title")
            yield Static("", classes="tutorial--picture", id="tutorial-picture")
            yield Static("", classes="tutorial--text", id="tutorial-text", markup=False)
            with HorizontalGroup():
                yield Button(_("Back"), id="tutorial-back")
                yield Button(_("Next"), id="tutorial-next", variant="primary")
                yield Button(_("Skip"), id="tutorial-skip")

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        step = self.steps[self.step]
        self.query_one("#tutorial-title", Label).update(step.title)
        self.query_one("#tutorial-picture", Static).update(picture(step.tiles, step.makes))
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
