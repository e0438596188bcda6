"""Help for 2248: the rules, the controls, and the tile chart (what retires when)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalGroup, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Markdown

from twofold.core.i18n import _
from twofold.ui.chain.powerups import powerup_title
from twofold.variants.chain2248.rules import GRANT_FROM, RETIRE_FROM, RETIRE_GAP
from twofold.variants.chain2248.state import POWERUPS

#: how far the tile chart goes (2**20 is about a million)
CHART_TOP = 20


def tile_chart() -> list[tuple[int, int | None, str]]:
    """Each tile from 512 up: the number it retires (or None) and the power-up it grants."""
    rows: list[tuple[int, int | None, str]] = []
    for e in range(GRANT_FROM, CHART_TOP + 1):
        retires = 1 << (e - RETIRE_GAP) if e >= RETIRE_FROM else None
        grant = POWERUPS[(e - GRANT_FROM) % len(POWERUPS)]
        rows.append((1 << e, retires, grant))
    return rows


def chain_help_markdown() -> str:
    """The 2248 section of Help, as Markdown (the app's Help screen may show it too)."""
    chart = "\n".join(
        "| {tile} | {retires} | {grant} |".format(
            tile=tile,
            retires=retires if retires is not None else "—",
            grant=powerup_title(grant),
        )
        for tile, retires, grant in tile_chart()
    )
    return "\n\n".join(
        [
            "# " + _("2248: chains of tiles"),
            _(
                "Join touching tiles (diagonals count) into a chain. The second tile equals "
                "the first; every further tile equals the previous one or doubles it. The "
                "chain's sum, rounded up to the next power of two, appears on its last cell: "
                "2+2 → 4, 2+2+2 → 8, 128+128+128 → 512. The score grows by the new tile."
            ),
            _(
                "Tiles above fall into the gaps and new tiles drop in from the top. The game "
                "ends when no two equal tiles touch; a power-up you hold may still help."
            ),
            "## " + _("Controls"),
            "\n".join(
                [
                    "- "
                    + _(
                        "Mouse: press on a tile, drag through touching tiles, release to "
                        "merge; drag back to take the last tile off; back to the first "
                        "and release to cancel."
                    ),
                    "- "
                    + _(
                        "Tap by tap: click to start, click touching tiles to add, click "
                        "the last again to merge, the first again to cancel."
                    ),
                    "- "
                    + _(
                        "Keys: arrows move the cursor, Space or Enter adds, Backspace "
                        "takes the last off, Enter on the last merges, Esc cancels."
                    ),
                    "- "
                    + _(
                        "1 Hammer, 2 Swap, 3 Shuffle, U or Z Undo, H hint, P pause, "
                        "R reads the board, N new game."
                    ),
                ]
            ),
            "## " + _("Power-ups"),
            _(
                "Hammer removes one tile. Swap exchanges two neighbouring tiles. Shuffle mixes "
                "the board and always leaves a chain. Undo takes back the last move. Arm one "
                "with its button or key, then pick the tile; Esc cancels. Daily gives a Hammer "
                "and a Swap and a budget of merges; Blitz has a 3-minute clock and offers a "
                "free Shuffle when the board is stuck."
            ),
            "## " + _("Tile chart"),
            _(
                "Each new highest tile from 512 up earns a power-up (Classic); from 2048 up it "
                "retires a small number for good."
            ),
            "| {tile} | {retires} | {grant} |\n|---:|---:|---|\n".format(
                tile=_("Highest tile"), retires=_("Retires"), grant=_("Earns")
            )
            + chart,
        ]
    )


class ChainHelpScreen(ModalScreen[str]):
    """Help for 2248; dismisses with ``"tutorial"`` when the player asks for the tutorial."""

    DEFAULT_CSS = """
    ChainHelpScreen {
        align: center middle;
        background: $background 60%;
    }
    ChainHelpScreen > Vertical {
        width: 90%;
        max-width: 90;
        height: 90%;
        border: thick $primary;
        background: $surface;
    }
    ChainHelpScreen VerticalScroll {
        height: 1fr;
    }
    ChainHelpScreen HorizontalGroup {
        height: auto;
        align-horizontal: center;
    }
    ChainHelpScreen Button {
        margin: 0 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "dismiss('close')", _("Close"), id="chain.help.close"),
        Binding("t", "dismiss('tutorial')", _("Tutorial"), id="chain.help.tutorial"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Markdown(chain_help_markdown(), id="chain-help-text")
            with HorizontalGroup():
                yield Button(_("Start the tutorial"), id="help-tutorial", variant="primary")
                yield Button(_("Close"), id="help-close")

    def on_mount(self) -> None:
        # the keys scroll the text; Tab reaches the buttons
        self.query_one(VerticalScroll).focus()

    @on(Button.Pressed, "#help-tutorial")
    def _tutorial(self) -> None:
        self.dismiss("tutorial")

    @on(Button.Pressed, "#help-close")
    def _close(self) -> None:
        self.dismiss("close")
