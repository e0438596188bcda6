"""A changed result never verifies to a better score: 1,000 tampered proofs and headlines.

Each is one symbol changed, one action dropped or two swapped (written again as a proof,
so its check is good), or a headline edited. Every one is refused, or verifies to the
figures its own log truly gives; a headline that claims more is caught (status 1).
"""

from __future__ import annotations

import random

import pytest

from tests.conftest import THOROUGH
from twofold.core.codes import ALPHABET
from twofold.core.daily import daily_code
from twofold.core.game import Game, ReplayError
from twofold.core.proof import ProofError, proof_of
from twofold.core.result import result_text
from twofold.core.verify import CLAIMS_DIFFER, OK, verify

from .test_contract import REGISTRY
from .test_proof_round_trip import played

TAMPERED = 10_000 if THOROUGH else 1_000
DAY = __import__("datetime").date(2026, 12, 1)


def find(mode_id: str):  # type: ignore[no-untyped-def]
    return REGISTRY.modes.get(mode_id)


def games() -> list[Game]:
    found = [played(mode_id, 7, 60) for mode_id in ("2048", "2248", "fib", "chainsum")]
    daily = REGISTRY.mode("2048-daily")
    game = Game.start(daily, daily_code(daily.id, DAY))
    rng = random.Random(1)
    while not game.over and len(game.log) < 80:
        game.act(rng.choice(["left", "right", "up", "down"]))
    return [*found, game]


def true_score(game: Game, actions: list[str]) -> int | None:
    try:
        return Game.replay(game.mode, game.code, actions).state.score
    except ReplayError:
        return None


def tampered(game: Game, rng: random.Random) -> tuple[str, str]:
    """A changed result of ``game`` and what was changed."""
    text = result_text(game, day=DAY)
    headline, link, proof = text.splitlines()
    kind = rng.choice(["symbol", "drop", "swap", "headline"])
    if kind == "symbol":
        at = rng.randrange(len(proof))
        symbol = rng.choice([ch for ch in ALPHABET if ch != proof[at]])
        return "\n".join([headline, link, proof[:at] + symbol + proof[at + 1 :]]), kind
    if kind == "headline":
        score = game.state.score + rng.randint(1, 5000)
        edited = headline.replace(f" {game.state.score} ", f" {score} ", 1)
        return "\n".join([edited, link, proof]), kind
    actions = list(game.log)
    if len(actions) < 2:
        return text, "none"
    at = rng.randrange(len(actions) - 1)
    if kind == "drop":
        del actions[at]
    else:
        actions[at], actions[at + 1] = actions[at + 1], actions[at]
    try:
        forged = proof_of(game.mode, game.code, actions)
    except ProofError:
        return "\n".join([headline, link, proof[:-1]]), "unwritable"
    return "\n".join([headline, link, forged]), kind


@pytest.mark.slow
def test_a_tampered_result_is_refused_or_verifies_to_its_true_figures() -> None:
    rng = random.Random(31)
    found = games()
    claimed = {id(game): game.state.score for game in found}
    outcomes: dict[str, int] = {}
    for _number in range(TAMPERED):
        game = rng.choice(found)
        text, kind = tampered(game, rng)
        try:
            verified = verify(text, find, today=DAY)
        except ProofError:
            outcomes["refused"] = outcomes.get("refused", 0) + 1
            continue
        truth = true_score(game, verified.replayed.actions)
        assert verified.score == truth, f"{kind}: verified to {verified.score}, truly {truth}"
        if verified.status == OK:
            # only a change that kept the figures the headline claims verifies clean
            assert verified.score == claimed[id(game)], kind
        else:
            assert verified.status == CLAIMS_DIFFER
        outcomes[kind] = outcomes.get(kind, 0) + 1
    assert outcomes.get("refused", 0) > TAMPERED // 4
    assert outcomes.get("headline", 0) > 0  # an edited headline replays, and is caught
