"""The questions and results of a chain game: rescue offers, the end.

The board read aloud (R) is every mode's: :class:`twofold.ui.app.dialogs.BoardReading`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.binding import Binding, BindingType

from twofold.core._i18n import _
from twofold.ui.app.dialogs import BoardReading, Dialog, sharing_buttons

__all__ = ["BoardReading", "ChainResultDialog", "NoMoreMovesDialog", "RescueDialog"]

#: how long "No more moves" stays before the result comes by itself (a key brings it sooner)
NO_MORE_MOVES_SECONDS = 1.5


class RescueDialog(Dialog):
    """The board is stuck but a held power-up can open a chain: use it, or End game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "choose('end')", _("End game"), id="chain.rescue.end"),
    ]

    def __init__(self, offers: Sequence[tuple[str, str, bool]]) -> None:
        """:param offers: ``(power-up id, its name, free now)`` for each power-up that helps."""
        names = ", ".join(name for _id, name, _free in offers)
        body = _("No chain is left. A power-up can open one: {names}.").format(names=names)
        free = [name for _id, name, is_free in offers if is_free]
        if free:
            body = _("No chain is left. {powerup} is free now: use it and play on.").format(
                powerup=free[0]
            )
        buttons = [
            (id_, _("Use {powerup}").format(powerup=name), "success") for id_, name, _free in offers
        ]
        buttons.append(("end", _("End game"), "error"))
        super().__init__(_("No chain left"), body, buttons, id="rescue-dialog")


class NoMoreMovesDialog(Dialog):
    """A short word before the result: why the game ended; the result follows by itself."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose('ok')", _("Result"), id="chain.over.ok"),
    ]

    def __init__(self, title: str, body: str) -> None:
        super().__init__(title, body, [("ok", _("See the result"), "primary")], id="over-dialog")

    def on_mount(self) -> None:
        super().on_mount()
        self.set_timer(NO_MORE_MOVES_SECONDS, self._on_its_own)

    def _on_its_own(self) -> None:
        if self.is_current:
            self.dismiss("ok")


class ChainResultDialog(Dialog):
    """The result of a finished game, with Play again (``"again"``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('again')", _("Play again"), id="chain.result.again"),
        Binding("y", "choose('copy')", _("Copy result"), id="chain.result.copy"),
        Binding("escape", "choose('close')", _("Look at the board"), id="chain.result.close"),
    ]

    def __init__(
        self, *, title: str, lines: Sequence[tuple[str, int | float]], sendable: bool = False
    ) -> None:
        """:param lines: ``(label, value)`` of the game: score, best, and what the mode counts.
        :param sendable: offer "Send to leaderboard" (``"send"``; a leaderboard is set)."""
        body = "\n".join(f"{label}: {value}" for label, value in lines)
        buttons = [
            ("again", _("Play again"), "primary"),
            ("close", _("Look at the board"), "default"),
            *sharing_buttons(sendable),
        ]
        super().__init__(title, body, buttons, id="chain-result-dialog")
