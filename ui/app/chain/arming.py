"""Power-ups on a chain board: arm one, pick its tiles, or disarm; the rules say the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from twofold.core.i18n import _
from twofold.core.presentation import PowerUp

if TYPE_CHECKING:
    from twofold.ui.app.chain.screen import ChainScreen

Cell = tuple[int, int]


def cell_text(cell: Cell) -> str:
    """A cell in the protocol's words: ``row,column`` from 0."""
    return f"{cell[0]},{cell[1]}"


class Arming:
    """The chain screen's power-up handling (a part of :class:`ChainScreen`)."""

    #: the power-up waiting for its tiles, or None
    armed: str | None = None

    def powerup(self: ChainScreen, name: str) -> PowerUp | None:
        return next((p for p in self.mode.powerups if p.id == name), None)

    def action_arm(self: ChainScreen, name: str) -> None:
        """Arm a power-up (again to disarm); one aimed at nothing plays at once."""
        self.finish_animation()
        powerup = self.powerup(name)
        if self.paused or powerup is None:
            return
        if powerup.target == "undo":
            self.action_undo()
            return
        if self.armed == name:
            self.disarm()
            return
        if powerup.target == "none":
            self.act(powerup.id)
            return
        status = self.status
        if status.powerups.get(name, 0) < 1 and name not in status.free:
            self.refused(_("No {powerup} left").format(powerup=powerup.name))
            return
        board = self.board
        board.cancel()
        self.armed = name
        board.picking = name
        board.picks.clear()
        board.hint = ()
        self.refresh_all()
        board.refresh()

    def disarm(self: ChainScreen, *, refresh: bool = True) -> None:
        self.armed = None
        board = self.board
        board.picking = None
        board.picks.clear()
        if refresh:
            board.refresh()
            self.refresh_all()

    def picked(self: ChainScreen, cell: Cell) -> None:
        """A tile picked for the armed power-up: one for a tile, two for a pair."""
        powerup = self.powerup(self.armed or "")
        if powerup is None:
            return
        board = self.board
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

    def armed_powerup(self: ChainScreen) -> PowerUp | None:
        return self.powerup(self.armed) if self.armed else None
