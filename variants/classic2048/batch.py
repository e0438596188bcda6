"""Many 2048 games stepped at once: the learning environments' batch (``ClassicRules.batch``).

The compiled ``_batch.Games`` where it was built (setup.py), else :class:`PythonGames`, the
same games in Python: the same boards, deals, rewards, masks and logs, some hundred times
slower. Both step every game of ``[start, stop)`` in place in the caller's flat arrays (see
``_batch.c``): a game that ended is started again on its next step, on the code of
:func:`code_number` of the batch's key (``seed``), the game and its episode, or on the code
``fix`` gave (a daily board); actions are indices of ``DIRECTIONS``.
"""

from __future__ import annotations

from typing import Any

from twofold.plugin import draw
from twofold.variants.classic2048.rules import FOUR_ODDS
from twofold.variants.classic2048.slide import DIRECTIONS, MAX_EXPONENT, engine, trace_line

try:
    from twofold.variants.classic2048._batch import Games as _Compiled
except ImportError:  # not built here (no C compiler): the same games in Python
    _Compiled = None

#: whether the compiled batch runs here
COMPILED = _Compiled is not None
#: a game code's symbols (core/codes.py's, which a variant does not import)
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def code_from_number(number: int) -> str:
    """The game code of ``number`` (below 32**7): its seven symbols and the check symbol in
    GF(32), as core/codes.py writes it (and _batch.c; a test holds the three together)."""
    symbols = []
    for _position in range(7):
        number, digit = divmod(number, 32)
        symbols.append(ALPHABET[digit])
    data = "".join(reversed(symbols))
    total = 0
    for ch in data:
        total = _times_x(total) ^ ALPHABET.index(ch)
    return data + ALPHABET[_times_x(total)]


#: splitmix64's constants, and the 64 bits its arithmetic keeps
GOLDEN, MIX1, MIX2, WORD = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 2**64 - 1


def code_number(key: int, game: int, episode: int) -> int:
    """The code number (below 32**7) of ``game``'s ``episode`` in a batch seeded with
    ``key``: splitmix64's mix of the three, its low 35 bits (as _batch.c's number_of)."""
    z = (key + ((game << 32 | episode & 0xFFFFFFFF) * GOLDEN)) & WORD
    z = ((z ^ z >> 30) * MIX1) & WORD
    z = ((z ^ z >> 27) * MIX2) & WORD
    return (z ^ z >> 31) & (2**35 - 1)


def _times_x(value: int) -> int:
    value <<= 1
    return value ^ 0b100101 if value & 0b100000 else value


def games(size: int, count: int, log2: bool = False) -> Any:
    """``count`` games of ``size`` x ``size``, compiled where it was built."""
    if _Compiled is not None:
        return _Compiled(size, count, log2)
    return PythonGames(size, count, log2)


class PythonGames:
    """``_batch.Games`` in Python, for where it was not compiled (the same games)."""

    compiled = False

    def __init__(self, size: int, count: int, log2: bool = False) -> None:
        if not 2 <= size <= 6 or count < 1:
            raise ValueError("a batch is 1 or more games of 2x2 to 6x6")
        self.size, self.count, self.log2 = size, count, log2
        self.cells = size * size
        lines = engine(size).lines
        #: each direction's lines, as cell indices from the wall inwards
        self.lines = [[[r * size + c for r, c in line] for line in lines(d)] for d in DIRECTIONS]
        self.boards = [[0] * self.cells for _ in range(count)]
        self.codes = [""] * count
        self.draws = [0] * count
        self.scores = [0] * count
        self.episodes = [0] * count
        self.key = 0
        self.over = [False] * count
        self.logs: list[bytearray] = [bytearray() for _ in range(count)]
        self.ended: list[tuple[str, bytes, int] | None] = [None] * count
        self.fixed: str | None = None

    def fix(self, code: str | None) -> None:
        self.fixed = code

    def seed(self, key: int) -> None:
        self.key = key & WORD
        self.episodes = [0] * self.count

    def finished(self, index: int) -> tuple[str, bytes, int] | None:
        self._check(index)
        if self.over[index]:
            return self.codes[index], bytes(self.logs[index]), self.scores[index]
        return self.ended[index]

    def playing(self, index: int) -> tuple[str, bytes]:
        self._check(index)
        return self.codes[index], bytes(self.logs[index])

    def reset(self, obs: Any, masks: Any, scores: Any, start: int = 0, stop: int = -1) -> None:
        for i in range(start, self.count if stop < 0 else stop):
            self._start(i)
            self._write(i, obs, masks, scores)

    def step(self, actions: Any, obs: Any, rewards: Any, terminated: Any, masks: Any,
             scores: Any, start: int = 0, stop: int = -1) -> None:  # fmt: skip
        bad = None
        for i in range(start, self.count if stop < 0 else stop):
            rewards[i], terminated[i] = 0.0, 0
            if self.over[i]:
                self.ended[i] = (self.codes[i], bytes(self.logs[i]), self.scores[i])
                self._start(i)
            else:
                action = int(actions[i])
                if not 0 <= action < 4:
                    bad = i if bad is None else bad
                elif self._moves(self.boards[i], action):
                    rewards[i] = self._play(i, action)
                    if not any(self._moves(self.boards[i], d) for d in range(4)):
                        self.over[i] = terminated[i] = True
            self._write(i, obs, masks, scores)
        if bad is not None:
            raise ValueError(
                f"game {bad}: action {int(actions[bad])} is not in Discrete(4): 0 to 3"
            )

    # -- inside -------------------------------------------------------------------------

    def _check(self, index: int) -> None:
        if not 0 <= index < self.count:
            raise IndexError("no such game in the batch")

    def _start(self, i: int) -> None:
        if self.fixed is not None:
            code = self.fixed
        else:
            code = code_from_number(code_number(self.key, i, self.episodes[i]))
            self.episodes[i] += 1
        self.codes[i], self.boards[i], self.draws[i] = code, [0] * self.cells, 0
        self.scores[i], self.over[i] = 0, False
        self.logs[i] = bytearray()
        self._spawn(i)
        self._spawn(i)

    def _spawn(self, i: int) -> None:
        board = self.boards[i]
        empty = [c for c, e in enumerate(board) if not e]
        d = draw(self.codes[i], self.draws[i])
        self.draws[i] += 1
        board[empty[d % len(empty)]] = 2 if (d >> 32) % FOUR_ODDS == 0 else 1

    def _moves(self, board: list[int], direction: int) -> bool:
        for line in self.lines[direction]:
            gap, last = False, 0
            for cell in line:
                e = board[cell]
                if not e:
                    gap = True
                elif gap or (e == last and e < MAX_EXPONENT):
                    return True
                else:
                    last = e
        return False

    def _play(self, i: int, direction: int) -> float:
        board = self.boards[i]
        gain = made = 0
        for line in self.lines[direction]:
            trace = trace_line(tuple(board[c] for c in line))
            for cell, e in zip(line, trace.result, strict=True):
                board[cell] = e
            gain += trace.gain
            made += sum(e for _index, e in trace.merges)
        self.scores[i] += gain
        self.logs[i].append(direction)
        self._spawn(i)
        return float(made if self.log2 else gain)

    def _write(self, i: int, obs: Any, masks: Any, scores: Any) -> None:
        board, cells = self.boards[i], self.cells
        obs[i * cells : (i + 1) * cells] = board
        for d in range(4):
            masks[i * 4 + d] = 0 if self.over[i] else int(self._moves(board, d))
        scores[i] = self.scores[i]
