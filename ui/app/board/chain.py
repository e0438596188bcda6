"""Chain controls on the board: clicks, drags and keys draw a chain, which the judge
previews (the tiles that may join stay bright, the rest dims) and the screen plays.

The board knows how a chain is *drawn* (start, add, take back, cancel, merge) but not
which tiles may join: it asks a :class:`ChainJudge`, which asks the rules. What to do
with a finished chain is the screen's business: the board calls the ``merge`` it was
given, at once (one channel: no message besides it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, ClassVar, Protocol

from rich.color import Color
from rich.style import Style
from textual import events
from textual.message import Message
from textual.timer import Timer

from twofold.core._layout import Layout
from twofold.ui.app.board.flourish import Bubble, Flourish, bubble_text
from twofold.ui.app.board.overlay import Dot
from twofold.ui.app.board.widget import Board, Cell, CellMessage, GameBoard, Look
from twofold.ui.app.widgets.geometry import Geometry
from twofold.ui.app.widgets.tiles import dimmed, text_colour, vivid_colour, vivid_style

Chain = tuple[Cell, ...]

#: how long a refused tile flashes, in seconds
FLASH_SECONDS = 0.4
#: the arrow from a hint's tile towards the next one of its path, by (row step, column step)
TOWARDS = {
    (-1, -1): "↖", (-1, 0): "↑", (-1, 1): "↗",
    (0, -1): "←", (0, 1): "→",
    (1, -1): "↙", (1, 0): "↓", (1, 1): "↘",
}  # fmt: skip
FLASH_TEXT = Style(color="#ff5f5f")


class ChainJudge(Protocol):
    """What the board asks the rules while a chain is drawn."""

    def fits(self, board: Board, chain: Chain, cell: Cell) -> bool:
        """Whether ``cell`` may be added to the end of ``chain``."""
        ...

    def value(self, board: Board, chain: Chain) -> int:
        """The tile ``chain`` would make (0 while it is shorter than two)."""
        ...


class ChainMessage(Message):
    """Something the player did to the chain being drawn."""

    def __init__(self, chain: Chain) -> None:
        super().__init__()
        self.chain = chain


@cache
def _face(colour: Color) -> Style:
    return Style(color=text_colour(colour), bgcolor=colour, bold=True)


class ChainBoard(GameBoard, can_focus=True):
    """The board of a chain mode: turns clicks, drags and keys into chain messages."""

    #: a chain's tiles keep a line for their value and half a line between rows
    MIN_TILE_HEIGHT: ClassVar[int] = 2

    class ChainChanged(ChainMessage):
        """The chain being drawn changed (started, grew, shrank or was cancelled)."""

    class Refused(Message):
        """A tile that does not fit the chain was not added."""

        def __init__(self, chain: Chain, cell: Cell) -> None:
            super().__init__()
            self.chain = chain
            self.cell = cell

    class Picked(CellMessage):
        """A tile was picked while a power-up is armed."""

    def __init__(
        self,
        board: Board,
        judge: ChainJudge,
        merge: Callable[[Chain], None],
        *,
        layout: Layout | None = None,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(board, layout=layout, name=name, id=id, classes=classes)
        self.judge = judge
        self.chain: list[Cell] = []
        self.cursor: Cell = (len(board) - 1, 0)
        self.cursor_shown = False
        self.hint: Chain = ()
        #: each hint tile but the last -> the arrow towards the next one
        self._hint_arrows: dict[Cell, str] = {}
        #: the power-up waiting for a tile, or None: taps pick instead of drawing
        self.picking: str | None = None
        self.picks: list[Cell] = []
        self.flash_cell: Cell | None = None
        self._flash_timer: Timer | None = None
        self._pressed = False
        self._press_cell: Cell | None = None
        self._started_here = False
        self._dragged = False
        self._last_refused: Cell | None = None
        #: the bubble's shake and the confetti, drawn at the board's one frame clock
        self.flourish = Flourish()
        self._open: tuple[tuple[Any, ...], frozenset[Cell]] = ((), frozenset())
        self._chain_colour: Color | None = None
        self._dim_base: Color | None = None
        #: the one way a finished chain leaves the board: the screen's merge, called at once
        self._merge = merge

    @property
    def reduced_motion(self) -> bool:
        """No motion, no shake and no confetti (the screen keeps it in step with settings)."""
        return not self.moves_shown

    @reduced_motion.setter
    def reduced_motion(self, reduced: bool) -> None:
        self.animate_moves = not reduced

    def palette(self, value: int) -> Style:
        # one colour per power of two: equal tiles must be easy to spot in a chain
        return vivid_style(value)

    @property
    def chain_value(self) -> int:
        return self.judge.value(self.board, tuple(self.chain)) if len(self.chain) >= 2 else 0

    # -- a new board -----------------------------------------------------------------------

    def _fresh(self) -> None:
        self.chain.clear()
        self.hint = ()
        self.picks.clear()
        r, c = self.cursor
        self.cursor = (max(0, min(r, self.rows - 1)), max(0, min(c, self.cols - 1)))
        if not self.is_cell(self.cursor):
            self.cursor = self.cells[0]

    def show(self, board: Board) -> None:
        self._fresh()
        super().show(board)

    def play(self, before: Board, after: Board, events_: Iterable[Any]) -> None:
        self._fresh()
        super().play(before, after, events_)

    def show_hint(self, chain: Sequence[Cell]) -> None:
        """Mark the hint's tiles at once, each with an arrow to the next: a path to read,
        however long (a path lit a tile at a time took seconds to show 31 tiles)."""
        self.hint = tuple(chain)
        self._hint_arrows = {
            cell: TOWARDS.get((after[0] - cell[0], after[1] - cell[1]), "◇")
            for cell, after in zip(self.hint, self.hint[1:], strict=False)
        }
        self.refresh()

    def flash(self, cell: Cell) -> None:
        """Flash a tile that was refused."""
        self.flash_cell = cell
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash_timer = self.set_timer(FLASH_SECONDS, self._end_flash)
        if self.chain and not self.reduced_motion:
            self.flourish.shake(self.clock())
            self.keep_drawing()
        self.refresh()

    def _end_flash(self) -> None:
        self.flash_cell = None
        self._flash_timer = None
        self.refresh()

    # -- drawing a chain ------------------------------------------------------------------

    def _changed(self) -> None:
        self.hint = ()
        self.refresh()
        self.post_message(self.ChainChanged(tuple(self.chain)))

    def start(self, cell: Cell) -> None:
        self.chain = [cell]
        self._changed()

    def add(self, cell: Cell) -> bool:
        """Add ``cell`` if the rules let it join; flash it and say so if not."""
        if not self.chain:
            self.start(cell)
            return True
        if self.judge.fits(self.board, tuple(self.chain), cell):
            self.chain.append(cell)
            self._last_refused = None
            self._changed()
            return True
        self.flash(cell)
        self.post_message(self.Refused(tuple(self.chain), cell))
        return False

    def remove_last(self) -> None:
        if self.chain:
            self.chain.pop()
            self._changed()

    def let_go(self) -> None:
        """End a press or drag in progress (a pause, a lost focus); the chain stays."""
        self._pressed = self._dragged = self._started_here = False
        self._press_cell = None
        self.release_mouse()

    def cancel(self) -> None:
        if self.chain:
            self.chain.clear()
            self._changed()

    def merge(self) -> None:
        if len(self.chain) < 2:
            return
        # at once, not through the message queue: a chain the player starts a moment
        # later (a burst of keys, a quick press) must meet the merged board, not the old one
        self._merge(tuple(self.chain))

    def tap(self, cell: Cell) -> None:
        """A click (or Space/Enter) on a cell while a chain may be in progress."""
        chain = self.chain
        if not chain:
            self.start(cell)
        elif len(chain) >= 2 and cell == chain[-1]:
            self.merge()
        elif cell == chain[0]:
            self.cancel()
        elif len(chain) >= 2 and cell == chain[-2]:
            self.remove_last()
        elif cell not in chain:
            self.add(cell)

    # -- keyboard -------------------------------------------------------------------------

    def move_cursor(self, d_row: int, d_col: int) -> None:
        self.finish_animation()
        if self.cursor_shown:
            r, c = self.cursor
            # over a place the layout leaves out, to the next cell that way (or stay)
            for step in range(1, max(self.rows, self.cols) + 1):
                cell = (
                    max(0, min(self.rows - 1, r + step * d_row)),
                    max(0, min(self.cols - 1, c + step * d_col)),
                )
                if self.is_cell(cell):
                    self.cursor = cell
                    break
        self.cursor_shown = True
        self.refresh()

    def press_cursor(self, *, enter: bool) -> None:
        """Space (``enter=False``) or Enter on the cell under the cursor."""
        self.finish_animation()
        if not self.cursor_shown:
            self.cursor_shown = True
            self.refresh()
            return
        cell = self.cursor
        if self.picking is not None:
            self.post_message(self.Picked(cell))
        elif self.chain and cell == self.chain[-1] and len(self.chain) >= 2:
            if enter:
                self.merge()
        else:
            self.tap(cell)

    # -- mouse --------------------------------------------------------------------------

    def on_mouse_down(self, event: events.MouseDown) -> None:
        self.finish_animation()
        geometry = self.geometry
        if event.button == 3:
            # the right button drops whatever is being drawn
            self.cancel()
            return
        if geometry is None or event.button not in (0, 1):
            return
        cell = geometry.cell_at(event.x, event.y)
        self.focus()
        self.cursor_shown = False
        self._pressed = True
        self._press_cell = cell
        self._dragged = False
        self._started_here = False
        self._last_refused = None
        self.capture_mouse()
        if cell is not None:
            self.cursor = cell
        if cell is None or self.picking is not None:
            self.refresh()
            return
        if not self.chain:
            self.start(cell)
            self._started_here = True
        self.refresh()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        geometry = self.geometry
        if not self._pressed or geometry is None or self.picking is not None or not self.chain:
            return
        if not (self._started_here or self._press_cell == self.chain[-1]):
            return
        cell = geometry.cell_at(event.x, event.y, core=True)
        if cell is None or cell == self.chain[-1]:
            return
        if len(self.chain) >= 2 and cell == self.chain[-2]:
            self._dragged = True
            self.remove_last()
        elif cell not in self.chain and cell != self._last_refused:
            self._dragged = True
            if not self.add(cell):
                self._last_refused = cell

    def on_mouse_up(self, event: events.MouseUp) -> None:
        self.release_mouse()
        if not self._pressed:
            return
        self._pressed = False
        geometry = self.geometry
        cell = geometry.cell_at(event.x, event.y) if geometry is not None else None
        if self.picking is not None:
            if cell is not None and cell == self._press_cell:
                self.post_message(self.Picked(cell))
            return
        if self._dragged:
            if len(self.chain) >= 2:
                self.merge()
            else:
                self.cancel()
            return
        if self._started_here or cell is None or cell != self._press_cell:
            return
        self.tap(cell)

    # -- the marks --------------------------------------------------------------------------

    def marks(self) -> tuple[Any, ...]:
        cursor = self.cursor if self.cursor_shown else None
        return (
            tuple(self.chain),
            cursor,
            self.hint,
            tuple(self.picks),
            self.flash_cell,
            self.picking,
        )

    def open_cells(self) -> frozenset[Cell]:
        """While a chain is drawn, the touching cells that may join it (the rest is dimmed)."""
        if not self.chain or self.picking is not None or self.animating:
            return frozenset()
        key = (self.board, tuple(self.chain))
        if self._open[0] == key:
            return self._open[1]
        last, chain = self.chain[-1], tuple(self.chain)
        found = frozenset(
            (r, c)
            for r in range(last[0] - 1, last[0] + 2)
            for c in range(last[1] - 1, last[1] + 2)
            if self.is_cell((r, c))
            and (r, c) not in self.chain
            and self.judge.fits(self.board, chain, (r, c))
        )
        self._open = (key, found)
        return found

    def begin_frame(self, frame: Style) -> None:
        self._chain_colour = vivid_colour(self.chain_value) if len(self.chain) >= 2 else None
        self._dim_base = frame.bgcolor

    def look(self, cell: Cell, value: int) -> Look:
        colour = vivid_colour(value)
        if cell == self.flash_cell:
            return Look(_face(vivid_colour(0)) + FLASH_TEXT, "✗", "✗")
        if cell in self.chain:
            colour = self._chain_colour or colour
        elif (self.chain and cell not in self.open_cells()) or (
            not self.chain and self.hint and cell not in self.hint
        ):
            colour = dimmed(colour, self._dim_base)
        style = _face(colour)
        left, right = self._markers(cell)
        return Look(style, left, right, underline=bool(self.chain) and cell == self.chain[-1])

    def _markers(self, cell: Cell) -> tuple[str, str]:
        if self.cursor_shown and cell == self.cursor:
            return "▸", "◂"
        if cell in self.picks:
            return "◆", "◆"
        if cell in self.chain:
            return "•", "•"
        if cell in self.hint:
            # the first tile marked where it starts, each an arrow to the next, the last a ◇
            arrow = self._hint_arrows.get(cell, "◇")
            return ("▶" if cell == self.hint[0] else arrow), arrow
        return " ", " "

    # -- flourishes --------------------------------------------------------------------------

    def celebrate(self, cell: Cell) -> None:
        """A burst of confetti from ``cell`` (a new highest tile); none under reduced motion."""
        geometry = self.geometry
        if self.reduced_motion or geometry is None:
            return
        self.flourish.celebrate(geometry.centre(cell), self.clock(), seed=hash(cell))
        self.keep_drawing()

    @property
    def bursting(self) -> bool:
        """Whether confetti is flying (it stops by itself after CONFETTI_SECONDS)."""
        return self.flourish.burst is not None

    def moving(self, now: float) -> bool:
        return self.flourish.running(now) or super().moving(now)

    def overlay(self, geometry: Geometry) -> dict[int, list[Dot]]:
        """The bubble and the confetti of this frame, by line."""
        bubble = None
        if self.chain and self._motion is None and self.picking is None:
            last = self.chain[-1]
            value = self.chain_value or self.board[self.chain[0][0]][self.chain[0][1]]
            top = geometry.origin(last)[1]
            line = top - 1 if top > 0 else top + geometry.tile_height - 1
            text = bubble_text(value, len(self.chain))
            bubble = Bubble(text, value, geometry.centre(last), line)
        by_line: dict[int, list[Dot]] = {}
        for dot in self.flourish.dots(self.clock(), self.size.width, self.size.height, bubble):
            by_line.setdefault(dot[1], []).append(dot)
        return by_line
