"""Power-ups on a chain board: arm one, pick its tiles, or disarm; the rules say the rest."""

from __future__ import annotations

from twofold.core._i18n import _
from twofold.core._presentation import PowerUp
from twofold.ui.app.screens.chain.playing import ChainPlaying

Cell = tuple[int, int]


def cell_text(cell: Cell) -> str:
    """A cell in the protocol's words: ``row,column`` from 0."""
    return f"{cell[0]},{cell[1]}"


class Arming:
    """The chain screen's power-up handling (a part it holds)."""

    def __init__(self, screen: ChainPlaying) -> None:
        self.screen = screen
        #: the power-up waiting for its tiles, or None
        self.armed: str | None = None

    def powerup(self, name: str) -> PowerUp | None:
        return next((p for p in self.screen.mode.powerups if p.id == name), None)

    def arm(self, name: str) -> None:
        """Arm a power-up (again to disarm); one aimed at nothing plays at once."""
        screen = self.screen
        screen.finish_animation()
        powerup = self.powerup(name)
        if screen.paused or powerup is None:
            return
        if powerup.target == "undo":
            screen.action_undo()
            return
        if self.armed == name:
            self.disarm()
            return
        if powerup.target == "none":
            screen.act(powerup.id)
            return
        status = screen.status
        if status.powerups.get(name, 0) < 1 and name not in status.free:
            screen.refused(_("No {powerup} left").format(powerup=powerup.name))
            return
        board = screen.board
        board.cancel()
        self.armed = name
        board.picking = name
        board.picks.clear()
        board.hint = ()
        screen.refresh_all()
        board.refresh()

    def disarm(self, *, refresh: bool = True) -> None:
        self.armed = None
        board = self.screen.board
        board.picking = None
        board.picks.clear()
        if refresh:
            board.refresh()
            self.screen.refresh_all()

    def picked(self, cell: Cell) -> None:
        """A tile picked for the armed power-up: one for a tile, two for a pair."""
        powerup = self.powerup(self.armed or "")
        if powerup is None:
            return
        screen = self.screen
        board = screen.board
        if powerup.target == "tile":
            screen.act(f"{powerup.id} {cell_text(cell)}")
        elif powerup.target == "pair":
            if not board.picks:
                board.picks.append(cell)
            elif cell == board.picks[0]:
                board.picks.clear()
            elif screen.act(f"{powerup.id} {cell_text(board.picks[0])} {cell_text(cell)}") is None:
                board.flash(cell)
            board.refresh()
            screen.refresh_status()

    def armed_powerup(self) -> PowerUp | None:
        return self.powerup(self.armed) if self.armed else None
