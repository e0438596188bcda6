"""A game's result: the headline, the link and the proof, as one text to paste.

The headline says what a person compares: the mode (and the day of a daily), the score,
the largest tile and what the mode counts, each as the Statistics screen names it. The
link starts the same game from its first move. The proof (:mod:`twofold.core.proof`) is
the last line: ``twofold verify`` replays it, and a leaderboard counts nothing else.

The stable API: :func:`result_text` ``(game, *, link=None, day=None) -> str`` for a game
in play or finished, and :func:`headline` for its first line alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from twofold.core._i18n import _
from twofold.core._rules import Mode, largest_tile
from twofold.core.codes import share_string
from twofold.core.game import Game
from twofold.core.proof import ProofError, proof_of

#: what a result's headline starts with, in every language
HEADLINE_START = "twofold "
#: between the figures of a headline
SEPARATOR = " · "


def figures(mode: Mode, state: object, own: Mapping[str, int]) -> list[str]:
    """What the mode counts in a game beyond score and tile, one figure per statistic."""
    counted = {k: v for k, v in own.items() if isinstance(v, int)}
    counted["moves"] = state.moves  # type: ignore[attr-defined]
    shown: list[str] = []
    seen = {"score", "largest"}  # said first, in every mode
    for statistic in mode.statistics:
        key = statistic.key
        if key in seen or key not in counted or statistic.aggregate in ("reached", "average"):
            continue
        seen.add(key)
        shown.append(f"{statistic.label} {counted[key]}")
    return shown or [_("Moves {moves}").format(moves=counted["moves"])]


def mode_stats(mode: Mode, state: object) -> dict[str, int]:
    """The mode's own numbers of ``state`` (``Rules.stats``), empty if the mode fails."""
    try:
        return {k: v for k, v in dict(mode.rules.stats(state)).items() if isinstance(v, int)}
    except Exception:  # what can be told is told; play already checked the rules
        return {}


def headline(mode: Mode, state: object, day: date | None = None) -> str:
    """The first line: ``twofold 2048 Daily 2026-12-01: Score 3020 · Largest tile 256 · …``."""
    title = mode.title if day is None else f"{mode.title} {day.isoformat()}"
    shown = [
        _("Score {score}").format(score=state.score),  # type: ignore[attr-defined]
        _("Largest tile {largest}").format(largest=largest_tile(state.board)),  # type: ignore[attr-defined]
        *figures(mode, state, mode_stats(mode, state)),
    ]
    return f"{HEADLINE_START}{title}: {SEPARATOR.join(shown)}"


def proof_line(game: Game) -> str | None:
    """The game's proof, or None for one that has none (a game from a position)."""
    if game.position is not None:
        return None
    try:
        return proof_of(
            game.mode,
            game.code,
            game.log,
            hinted=game.flags.hinted,
            program=game.flags.solver,
        )
    except ProofError:  # a log the rules no longer replay proves nothing
        return None


def result_text(
    game: Game,
    *,
    link: str | None = None,
    day: date | None = None,
    proof: str | None = None,
) -> str:
    """Headline, link (the share string unless given) and proof, one a line (the proof
    unless given: the learning environment writes it as it plays, ``proof.Proving``)."""
    lines = [
        headline(game.mode, game.state, day if game.mode.daily else None),
        link or share_string(game.mode.id, game.code),
    ]
    proof = proof or proof_line(game)
    if proof is not None:
        lines.append(proof)
    return "\n".join(lines)
