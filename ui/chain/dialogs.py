"""The questions and results of a 2248 game: rescue offers, the end, the board read aloud."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType

from twofold.core.i18n import _
from twofold.ui.chain.powerups import powerup_title
from twofold.ui.dialogs import Dialog


class RescueDialog(Dialog):
    """The board is stuck but a held power-up can open a chain: use it, or End game."""

    # wide enough for a row of four buttons (the shared dialog sizes itself by its text)
    DEFAULT_CSS = """
    RescueDialog > VerticalGroup {
        width: 68;
        max-width: 100%;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "choose('end')", _("End game"), id="chain.rescue.end"),
    ]

    def __init__(self, rescues: Sequence[str], *, free_shuffle: bool = False) -> None:
        names = ", ".join(powerup_title(name) for name in rescues)
        body = _("No two equal tiles touch. A power-up can open a chain: {names}.").format(
            names=names
        )
        if free_shuffle:
            body = _("No two equal tiles touch. Shuffle the board for free and play on.")
        buttons = [
            (name, _("Use {powerup}").format(powerup=powerup_title(name)), "success")
            for name in rescues
        ]
        buttons.append(("end", _("End game"), "error"))
        super().__init__(_("No chain left"), body, buttons, id="rescue-dialog")


class NoMoreMovesDialog(Dialog):
    """A short word before the result: why the game ended."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose('ok')", _("Result"), id="chain.over.ok"),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__(title, body, [("ok", _("See the result"), "primary")], id="over-dialog")


class ChainResultDialog(Dialog):
    """The result of a finished 2248 game, with Play again (``"again"``)."""

    DEFAULT_CSS = """
    ChainResultDialog > VerticalGroup {
        width: 56;
        max-width: 100%;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('again')", _("Play again"), id="chain.result.again"),
        Binding("escape", "choose('close')", _("Look at the board"), id="chain.result.close"),
    ]

    def __init__(
        self,
        *,
        title: str,
        score: int,
        best: int,
        highest: int,
        longest_chain: int,
        merges: int,
    ) -> None:
        body = "\n".join(
            [
                _("Score: {score}").format(score=score),
                _("Best: {best}").format(best=best),
                _("Highest tile: {tile}").format(tile=highest),
                _("Longest chain: {length}").format(length=longest_chain),
                _("Merges: {merges}").format(merges=merges),
            ]
        )
        buttons = [
            ("again", _("Play again"), "primary"),
            ("close", _("Look at the board"), "default"),
        ]
        super().__init__(title, body, buttons, id="chain-result-dialog")


class BoardReading(Dialog):
    """The whole board in words, row by row (R)."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(
            _("The board, row by row"),
            "\n".join(lines),
            [("close", _("Close"), "primary")],
            id="board-reading",
        )
