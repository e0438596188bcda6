"""An episode's result: what a person pastes after a game, with its proof.

At the end of an episode ``info["result"]`` is :func:`twofold.core.result.result_text` of
the game played: the headline, the link and the proof, the proof marked as played by a
program (an agent is one), so ``twofold verify`` replays it and says so. An episode that
wrote its proof as it was played (``Proving``) gives that one, with no replay.
"""

from __future__ import annotations

from datetime import date

from twofold.core.game import Flags, Game
from twofold.core.proof import ProofError
from twofold.core.result import result_text
from twofold.core.verify import OK, verify
from twofold.rl.episode import Episode


def result_of(episode: Episode, day: date | None = None) -> str:
    """The result text of ``episode`` (a daily mode's ``day`` names its board's date)."""
    game = Game(
        mode=episode.mode,
        code=episode.code,
        state=episode.state,
        log=list(episode.log),
        flags=Flags(uncounted=True, solver=True),
    )
    proof = episode.proving.line() if episode.proving is not None else None
    return result_text(game, day=day, proof=proof)


def verified_score(result: str) -> int | None:
    """The score ``twofold verify`` replays ``result`` to, or None where it refuses it.

    An agent's games are checked the way a person's are: the proof is replayed on the
    installed rules, and a result whose headline differs from its replay counts as refused.
    """
    try:
        found = verify(result)
    except ProofError:
        return None
    return found.score if found.status == OK else None
