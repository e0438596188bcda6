"""2248's actions as a proof writes them: a chain walked cell by cell, a power-up by its cells.

A chain is its first cell, chosen among the tiles that have an equal neighbour, then each
next cell among the touching ones that may follow (or the end, once two are in): about
ten bits a chain, where its text takes some 470. A hammer is one of the 40 cells, a swap
a cell and one of its neighbours, a shuffle nothing more. An action that fits none of
these (none does in a game the rules took) is written as its text.
"""

from __future__ import annotations

from collections.abc import Sequence

from twofold.plugin import Pick, Weights
from twofold.variants.chain2248.board import CELLS, NEIGHBOURS, Cell
from twofold.variants.chain2248.state import ChainState

#: raised whenever a logged action would play differently (a proof names it)
RULES_VERSION = 1
#: chains first and by far the likeliest; then the power-ups, in their words
KINDS = ("chain", "hammer", "swap", "shuffle")
_KIND_WEIGHTS = (61, 1, 1, 1)
Choices = list[tuple[int, Weights]]


def _starts(state: ChainState) -> list[Cell]:
    board = state.board
    return [
        cell
        for cell in CELLS
        if any(board[r][c] == board[cell[0]][cell[1]] for r, c in NEIGHBOURS[cell])
    ]


def _followers(state: ChainState, chain: Sequence[Cell]) -> list[Cell]:
    """The cells that may come next in ``chain`` (equal to the first, then equal or double)."""
    board = state.board
    last = chain[-1]
    value = board[last[0]][last[1]]
    fits = (value,) if len(chain) == 1 else (value, 2 * value)
    return [
        cell for cell in NEIGHBOURS[last] if cell not in chain and board[cell[0]][cell[1]] in fits
    ]


def _cells(words: Sequence[str]) -> list[Cell]:
    cells = []
    for word in words:
        r, c = word.split(",")
        cells.append((int(r), int(c)))
    return cells


class ChainCoder:
    """2248's :class:`~twofold.plugin.ActionCoder`."""

    version = RULES_VERSION

    def encode(self, state: ChainState, action: str) -> Choices | None:
        word, *rest = action.split()
        if word not in KINDS:
            return None
        choices: Choices = [(KINDS.index(word), _KIND_WEIGHTS)]
        try:
            cells = _cells(rest)
        except ValueError:
            return None
        if word == "chain":
            walked = self._walk(state, cells)
            return None if walked is None else choices + walked
        if word == "hammer" and len(cells) == 1 and cells[0] in CELLS:
            return [*choices, (CELLS.index(cells[0]), [1] * len(CELLS))]
        if word == "swap" and len(cells) == 2 and cells[0] in CELLS:
            near = NEIGHBOURS[cells[0]]
            if cells[1] not in near:
                return None
            return [
                *choices,
                (CELLS.index(cells[0]), [1] * len(CELLS)),
                (near.index(cells[1]), [1] * len(near)),
            ]
        return choices if word == "shuffle" and not cells else None

    def _walk(self, state: ChainState, cells: list[Cell]) -> Choices | None:
        starts = _starts(state)
        if len(cells) < 2 or cells[0] not in starts:
            return None
        walked: Choices = [(starts.index(cells[0]), [1] * len(starts))]
        for length in range(1, len(cells) + 1):
            options = _followers(state, cells[:length])
            # the end is the last option, once the chain has two tiles
            weights = [1] * len(options) + ([1] if length >= 2 else [])
            if length == len(cells):
                walked.append((len(options), weights))
            elif cells[length] in options:
                walked.append((options.index(cells[length]), weights))
            else:
                return None
        return walked

    def decode(self, state: ChainState, pick: Pick) -> str:
        word = KINDS[pick(_KIND_WEIGHTS)]
        if word == "shuffle":
            return word
        if word != "chain":
            first = CELLS[pick([1] * len(CELLS))]
            cells = [first]
            if word == "swap":
                near = NEIGHBOURS[first]
                cells.append(near[pick([1] * len(near))])
            return " ".join([word, *(f"{r},{c}" for r, c in cells)])
        starts = _starts(state)
        if not starts:
            raise ValueError("no chain can start on this board")
        chain = [starts[pick([1] * len(starts))]]
        while True:
            options = _followers(state, chain)
            weights = [1] * len(options) + ([1] if len(chain) >= 2 else [])
            if not weights:
                raise ValueError("a chain that cannot go on")
            index = pick(weights)
            if index == len(options):
                return " ".join(["chain", *(f"{r},{c}" for r, c in chain)])
            chain.append(options[index])
