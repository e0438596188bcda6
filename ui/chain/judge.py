"""The board's questions about chains, answered by the 2248 rules themselves."""

from __future__ import annotations

from twofold.core.rules import Board, Refused
from twofold.variants.chain2248.board import merge_value
from twofold.variants.chain2248.rules import check_chain

Cell = tuple[int, int]
Chain = tuple[Cell, ...]


class RulesJudge:
    """A :class:`twofold.ui.chain.board.ChainJudge` that asks ``check_chain``."""

    def fits(self, board: Board, chain: Chain, cell: Cell) -> bool:
        return not self.refusal(board, chain, cell)

    def refusal(self, board: Board, chain: Chain, cell: Cell) -> str:
        """Why ``cell`` cannot follow ``chain``, in the rules' words ("" if it can)."""
        try:
            check_chain(board, [*chain, cell])
        except Refused as refused:
            return str(refused)
        return ""

    def value(self, board: Board, chain: Chain) -> int:
        if len(chain) < 2:
            return 0
        try:
            return merge_value(check_chain(board, chain))
        except Refused:
            return 0
