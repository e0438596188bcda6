"""What an environment observes: the board as small numbers, and for chain modes more.

A cell is ``0`` when empty, else its tile's *exponent* (``2`` → 1, ``2048`` → 11), as the
anchors (gymnasium-2048, pgx) give it. A mode whose values are not all powers of two from
2 (Fibonacci's 1, 3, 5, ...; Chain Sum's sums) gets each value's *rank* instead: 1 for the
smallest value the episode has shown, 2 for the next, and so on, from the moment such a
value first shows (so a value that arrives between two others moves the ranks above it
up by one). Numbers are capped at 254; 255 is a place of the board's rows that is no cell
of its layout (``NO_CELL``: a hexagon's corners), which :class:`OneHot` gives no plane.

Chain modes observe a dict: ``board``; ``chain``, the cells being built, each its place
in the order tapped (1 for the first, 0 for a cell not in it); ``powerups``, the count
held of each of the mode's power-ups, in ``Mode.powerups`` order; ``aimed``, 0 or the
tool aimed plus one. The game code is never observed: a planner must not see the deal.
"""

from __future__ import annotations

from bisect import insort
from typing import Any

import gymnasium as gym
import numpy as np

from twofold.core._layout import NO_CELL
from twofold.core._presentation import Status
from twofold.core._rules import Board, Mode

MOST = 255
#: a place that is no cell of the board's layout (a tile's number is capped below it)
NO_CELL_CODE = MOST
#: the most a tile's number is
TILE_MOST = MOST - 1
#: rows of values an encoder keeps the bytes of (a bound on its memory)
ROWS_KEPT = 1 << 16


class Encoder:
    """The board's numbers (exponents; ranks, for one episode, once a value asks for them)."""

    def __init__(self) -> None:
        self.codes: dict[int, int] = {0: 0, NO_CELL: NO_CELL_CODE}
        self.ranked = False
        self.shown: list[int] = []
        #: each row of values met, as the bytes of its numbers (rows repeat across boards)
        self.rows: dict[tuple[int, ...], bytes] = {}

    def copy(self) -> Encoder:
        twin = Encoder()
        twin.codes, twin.ranked, twin.shown = dict(self.codes), self.ranked, list(self.shown)
        twin.rows = dict(self.rows)
        return twin

    def encode(self, board: Board) -> np.ndarray:
        rows = self.rows
        try:
            line = b"".join(map(rows.__getitem__, board))  # a list comprehension costs half again
        except KeyError:
            self._learn(board)  # every new value first: ranks may renumber rows kept
            line = b"".join([rows.get(row) or self._row(row) for row in board])
        found = np.frombuffer(bytearray(line), np.uint8)
        found.shape = (len(board), -1)
        return found

    def _row(self, row: tuple[int, ...]) -> bytes:
        if len(self.rows) > ROWS_KEPT:
            self.rows.clear()
        found = self.rows[row] = bytes(self.codes[v] for v in row)
        return found

    def _learn(self, board: Board) -> None:
        new = {v for row in board for v in row if v not in self.codes}
        if not new:
            return
        if not self.ranked and all(v >= 2 and not v & (v - 1) for v in new):
            self.codes.update({v: min(v.bit_length() - 1, TILE_MOST) for v in new})
            return
        # the first value that is no power of two turns exponents into ranks, and a value
        # between two others moves the ranks above it: rows kept so far are stale
        self.rows.clear()
        if not self.ranked:
            self.ranked = True
            self.shown = sorted(v for v in self.codes if v and v != NO_CELL)
        for v in new:
            insort(self.shown, v)
        ranks = {v: min(rank, TILE_MOST) for rank, v in enumerate(self.shown, 1)}
        self.codes = {0: 0, NO_CELL: NO_CELL_CODE, **ranks}


def board_space(rows: int, cols: int) -> gym.spaces.Box:
    return gym.spaces.Box(0, MOST, (rows, cols), np.uint8)


def observation_space(mode: Mode, rows: int, cols: int, tools: int) -> gym.Space[Any]:
    board = board_space(rows, cols)
    if mode.controls != "chain":
        return board
    return gym.spaces.Dict(
        {
            "board": board,
            "chain": gym.spaces.Box(0, MOST, (rows, cols), np.uint8),
            "powerups": gym.spaces.Box(0, MOST, (len(mode.powerups),), np.uint8),
            "aimed": gym.spaces.Discrete(tools + 1),
        }
    )


def chain_planes(rows: int, cols: int, cells: tuple[tuple[int, int], ...]) -> np.ndarray:
    planes = np.zeros((rows, cols), dtype=np.uint8)
    for order, (r, c) in enumerate(cells, start=1):
        planes[r, c] = min(order, MOST)
    return planes


def held(mode: Mode, status: Status) -> np.ndarray:
    counts = status.powerups
    return np.array(
        [min(max(int(counts.get(p.id, 0)), 0), MOST) for p in mode.powerups], dtype=np.uint8
    )


class OneHot(gym.ObservationWrapper[Any, Any, Any]):
    """The board as one-hot planes, ``(rows, cols, planes)`` of 0 and 1, as the anchors
    observe it (gymnasium-2048: 16 planes; pgx: 31). A number from ``planes - 1`` up is
    put in the last plane; a place that is no cell (255) is in no plane. A chain mode's
    dict keeps its other keys."""

    def __init__(self, env: gym.Env[Any, Any], planes: int = 16) -> None:
        super().__init__(env)
        self.planes = planes
        # one row more, of zeros: where a no-cell's number is sent
        self.eye = np.vstack([np.eye(planes, dtype=np.uint8), np.zeros((1, planes), np.uint8)])
        inner = env.observation_space
        board = inner["board"] if isinstance(inner, gym.spaces.Dict) else inner
        rows, cols = board.shape  # type: ignore[misc]
        space = gym.spaces.Box(0, 1, (rows, cols, planes), np.uint8)
        if isinstance(inner, gym.spaces.Dict):
            self.observation_space = gym.spaces.Dict({**inner.spaces, "board": space})
        else:
            self.observation_space = space

    def observation(self, observation: Any) -> Any:
        if isinstance(observation, dict):
            return {**observation, "board": self._planes(observation["board"])}
        return self._planes(observation)

    def _planes(self, board: np.ndarray) -> np.ndarray:
        index = np.minimum(board, self.planes - 1)
        index[board == NO_CELL_CODE] = self.planes
        return self.eye[index]
