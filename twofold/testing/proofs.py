"""A game's proof replays to the game played, with the mode's action coder and without."""

from __future__ import annotations

import dataclasses

from twofold.core._rules import Mode
from twofold.core.proof import proof_of, replay
from twofold.testing.player import random_game


def check_proof(mode: Mode, *, seed: int = 0, length: int = 60) -> None:
    """Random play (undo and power-ups included) written as a proof replays to the same game.

    A mode with an action coder (``Mode.proof``) is checked with it and with the generic
    encoding that every mode has.
    """
    game = random_game(mode, seed, length=length)
    kinds = [mode] if mode.proof is None else [mode, dataclasses.replace(mode, proof=None)]
    for kind in kinds:
        text = proof_of(kind, game.code, game.log, hinted=True)
        again = replay(text, lambda mode_id, kind=kind: kind if mode_id == kind.id else None)
        coded = "its action coder" if kind.proof is not None else "the generic encoding"
        assert again.actions == game.log, f"{mode.id}: a proof ({coded}) gives another log"
        assert again.state == game.state, f"{mode.id}: a proof ({coded}) gives another state"
        assert again.hinted and not again.program, f"{mode.id}: a proof loses how it was played"
