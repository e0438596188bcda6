"""The board's questions about chains, answered by the mode's own judge (or by touch alone)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twofold.core._capabilities import Verdict
from twofold.core._rules import Board, Mode

Cell = tuple[int, int]
Chain = tuple[Cell, ...]


def touching(a: Cell, b: Cell) -> bool:
    """Whether two cells are neighbours, diagonals included."""
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


class ModeJudge:
    """A :class:`twofold.ui.app.board.chain.ChainJudge` that asks the mode's ``judge``.

    A mode without a judge gets chains of touching cells and no preview; its rules
    still refuse a wrong chain when it is played. A judge that raises is the mode's
    fault: ``failed`` hears of it once and the chain is refused meanwhile.
    """

    def __init__(
        self,
        mode: Mode,
        state: Callable[[], Any],
        failed: Callable[[BaseException], None] = lambda error: None,
    ) -> None:
        self.mode = mode
        self.state = state
        self.failed = failed
        self._broken = False

    def verdict(self, chain: Chain) -> Verdict:
        judge = self.mode.judge
        if judge is None or self._broken:
            return Verdict()
        try:
            verdict = judge(self.state(), chain)
            if not isinstance(verdict, Verdict):
                raise TypeError(f"judge returned {type(verdict).__name__}, not a Verdict")
        except Exception as error:  # a plugin's judge must never take the app down
            self._broken = True
            self.failed(error)
            return Verdict(reason=str(error)[:80])
        return verdict

    def refusal(self, board: Board, chain: Chain, cell: Cell) -> str:
        """Why ``cell`` cannot follow ``chain`` in the mode's words ("" if it can, or unsaid)."""
        return self.verdict((*chain, cell)).reason

    def fits(self, board: Board, chain: Chain, cell: Cell) -> bool:
        if self.mode.judge is None or self._broken:
            return cell not in chain and (not chain or touching(chain[-1], cell))
        return not self.verdict((*chain, cell)).reason

    def value(self, board: Board, chain: Chain) -> int:
        return self.verdict(chain).value if len(chain) >= 2 else 0
