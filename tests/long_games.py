"""Long games for the tests of proofs and replays, written without playing them."""

from __future__ import annotations

from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.plugins import registry
from twofold.core.proof import Proving


def back_and_forth(actions: int, code_text: str = "long game") -> str:
    """The proof of one 2048 move and its undo, again and again, written without playing
    them: a game of any length in the time it takes to code it."""
    mode = registry().mode("2048")
    game = Game.start(mode, code_from_text(code_text))
    move = mode.rules.legal(game.state)[0]
    start, moved = game.state, mode.proof.advance(game.state, move)
    proving = Proving(mode, game.code)
    for number in range(actions):
        proving.played(*((move, moved) if number % 2 == 0 else ("undo", start)))
    return proving.line()
