"""The kit's random player: actions from a mode's own controls and commands, legal or not.

Every check that plays draws its actions from :func:`random_action`, seeded, so a failing
check fails the same way each time it runs.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import Any

from twofold.core._events import Cell
from twofold.core._rules import Mode, Refused
from twofold.core.codes import code_from_text
from twofold.core.commands import commands_of
from twofold.core.game import Game

#: the code the kit's games are dealt from
CODE = code_from_text("twofold.testing")


def touching(board: Any, cell: Cell) -> list[Cell]:
    """The cells around ``cell`` on the board, diagonals too."""
    r, c = cell
    return [
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < len(board) and 0 <= c + dc < len(board[0])
    ]


def cells_text(cells: Sequence[Cell]) -> str:
    """Cells as an action writes them: ``"0,1 1,1"``."""
    return " ".join(f"{r},{c}" for r, c in cells)


def grown_chain(mode: Mode, state: Any, rng: random.Random) -> list[Cell]:
    """A path from a random cell, grown while the judge (or equal values) lets it."""
    board = state.board
    path = [(rng.randrange(len(board)), rng.randrange(len(board[0])))]
    for _step in range(rng.randint(1, 6)):
        options = [n for n in touching(board, path[-1]) if n not in path]
        if mode.judge is not None:
            options = [n for n in options if mode.judge(state, [*path, n]).fits]
        else:
            first = board[path[0][0]][path[0][1]]
            options = [n for n in options if board[n[0]][n[1]] == first]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def _random_cell(state: Any, rng: random.Random, *, off: float = 0.0) -> Cell:
    rows, columns = len(state.board), len(state.board[0])
    if rng.random() < off:
        return (rows, rng.randrange(columns))  # off the board: must be refused, not crash
    return (rng.randrange(rows), rng.randrange(columns))


def _shaped(word: str, takes: str, state: Any, rng: random.Random) -> str:
    """A command of the mode's table with arguments of its shape, sometimes wrong."""
    if takes == "cell":
        return f"{word} {cells_text([_random_cell(state, rng, off=0.05)])}"
    if takes == "pair":
        first = _random_cell(state, rng)
        return f"{word} {cells_text([first, rng.choice(touching(state.board, first))])}"
    if takes == "cells":
        spots = [_random_cell(state, rng) for _cell in range(rng.randint(2, 4))]
        return f"{word} {cells_text(spots)}"
    if takes == "column":
        return f"{word} {rng.randrange(len(state.board[0]) + 1)}"
    return word


def random_action(mode: Mode, state: Any, rng: random.Random) -> str:
    """An action for ``mode`` from its own controls and commands: mostly legal, not always."""
    roll = rng.random()
    if roll < 0.08:
        return "undo"
    if roll < 0.25 and mode.hint is not None:
        hint = mode.hint(state)
        if hint is not None:
            return hint.action
    if mode.controls == "slide" and mode.directions:
        if roll < 0.85 or not mode.commands:
            return rng.choice(tuple(direction.name for direction in mode.directions))
    elif mode.controls == "slide":
        return rng.choice(("left", "right", "up", "down", "left", "down"))
    if mode.controls == "chain" and roll < 0.7:
        return "chain " + cells_text(grown_chain(mode, state, rng))
    table = [
        c for c in commands_of(mode) if c.word not in ("read", "result", "new", "restart", "quit")
    ]
    command = rng.choice(table)
    return _shaped(command.word, command.takes, state, rng)


def played(mode: Mode, actions: int, seed: int) -> Iterator[tuple[Game, str, Any, tuple[Any, ...]]]:
    """``(game, action, state before, events)`` for each action taken, new games as needed."""
    rng = random.Random(f"{mode.id}:{seed}")
    game = Game.start(mode, CODE)
    for number in range(actions):
        if game.over:
            game = Game.start(mode, code_from_text(f"twofold.testing {number}"))
        before = game.state
        action = random_action(mode, before, rng)
        try:
            step = game.act(action)
        except Refused:
            continue
        yield game, action, before, step.events


def random_game(mode: Mode, seed: int, length: int = 60) -> Game:
    """A game of up to ``length`` random actions (fewer if it ends), refusals skipped."""
    rng = random.Random(f"{mode.id}:log:{seed}")
    game = Game.start(mode, CODE)
    for _number in range(length):
        if game.over:
            break
        with contextlib.suppress(Refused):
            game.act(random_action(mode, game.state, rng))
    return game
