"""A proof round-trips every game of every mode, built-in and example, undo and power-ups in."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twofold.core._capabilities import LegalActions
from twofold.core._rules import Refused
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.proof import ProofError, game_key, normalise, proof_of, replay
from twofold.testing import check_proof, random_action

from .test_contract import REGISTRY

MODES = sorted(REGISTRY.modes)


def find(mode_id: str):  # type: ignore[no-untyped-def]
    return REGISTRY.modes.get(mode_id)


def played(mode_id: str, seed: int, length: int, undo_odds: float = 0.1) -> Game:
    """Random play of the kit's random player, with undo tried every so often."""
    mode = REGISTRY.mode(mode_id)
    rng = random.Random(f"{mode_id}:{seed}")
    game = Game.start(mode, code_from_text(f"proof {seed}"))
    for _number in range(length):
        if game.over:
            break
        action = "undo" if rng.random() < undo_odds else random_action(mode, game.state, rng)
        try:
            game.act(action)
        except Refused:
            continue
    return game


@pytest.mark.parametrize("mode_id", MODES)
@given(seed=st.integers(0, 10**6), length=st.integers(0, 80))
def test_a_random_game_replays_from_its_proof(mode_id: str, seed: int, length: int) -> None:
    game = played(mode_id, seed, length)
    text = proof_of(game.mode, game.code, game.log)
    again = replay(text, find)
    assert again.actions == game.log
    assert again.state == game.state
    assert (again.state.score, again.state.moves) == (game.state.score, game.state.moves)
    assert again.played == ("undo" if "undo" in game.log else "unassisted")


@pytest.mark.parametrize("mode_id", MODES)
def test_the_kit_checks_the_proof_of_every_mode(mode_id: str) -> None:
    check_proof(REGISTRY.mode(mode_id), seed=3)


def test_a_proof_reads_as_a_code_does_in_any_case_with_spaces_and_look_alikes() -> None:
    game = played("2048", 1, 40)
    text = proof_of(game.mode, game.code, game.log)
    mangled = " ".join(text[i : i + 4] for i in range(0, len(text), 4)).lower()
    assert normalise(mangled) == text
    assert replay(mangled, find).actions == game.log
    assert set(text) <= set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


def test_how_it_was_played_is_kept() -> None:
    game = played("2248", 2, 20, undo_odds=0)
    hinted = replay(proof_of(game.mode, game.code, game.log, hinted=True), find)
    program = replay(proof_of(game.mode, game.code, game.log, program=True), find)
    assert (hinted.played, program.played) == ("hints", "program")
    assert game_key(hinted) == game_key(program)  # one game, however it is said


def test_a_log_that_does_not_replay_has_no_proof() -> None:
    mode = REGISTRY.mode("2048")
    with pytest.raises(ProofError, match="action 1"):
        proof_of(mode, code_from_text("x"), ["undo"])


def test_a_mode_that_is_not_installed_is_named() -> None:
    game = played("fib", 1, 10)
    text = proof_of(game.mode, game.code, game.log)
    with pytest.raises(ProofError, match="'fib' is not installed"):
        replay(text, lambda mode_id: None)


def test_a_proof_of_newer_rules_says_so_and_an_older_one_too() -> None:
    mode = REGISTRY.mode("2048")
    game = played("2048", 4, 30)
    for version, words in ((2, "newer version of 2048's rules"), (0, "no longer replays")):
        coder = LegalActions(mode.rules.legal, version, mode.rules.advance)
        other = dataclasses.replace(mode, proof=coder)
        text = proof_of(other, game.code, game.log)
        with pytest.raises(ProofError, match=words):
            replay(text, find)


def test_a_plugin_mode_with_no_coder_round_trips_any_action_text() -> None:
    mode = dataclasses.replace(REGISTRY.mode("2248"), proof=None)
    game = played("2248", 5, 60)
    text = proof_of(mode, game.code, game.log)
    assert replay(text, lambda mode_id: mode).actions == game.log


def test_a_cap_on_actions_is_kept() -> None:
    game = played("2048", 6, 50, undo_odds=0)
    text = proof_of(game.mode, game.code, game.log)
    with pytest.raises(ProofError, match="more than 10 actions"):
        replay(text, find, max_actions=10)
