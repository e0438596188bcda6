"""Reading a proof costs time linear in its length: no choice divides the whole proof.

Format 2 codes its choices a chunk at a time, so the number a reader divides stays a few
thousand bits long however long the game; format 1 (one number for the whole game, read in
time the square of its length) is still read. ``twofold verify`` takes a leaderboard's
caps by default and ``--no-caps`` lifts them.
"""

from __future__ import annotations

import random

import pytest

from tests.long_games import back_and_forth
from twofold.core import choices
from twofold.core.choices import CHUNK
from twofold.core.codes import code_from_text
from twofold.core.game import Game
from twofold.core.proof import _END, Proving, _kinds, proof_of, replay
from twofold.core.proof_line import line_of
from twofold.core.verify import MOST_ACTIONS
from twofold.ui.command.cli import main

from .test_contract import REGISTRY


def long_game(actions: int) -> Game:
    """2048 played at random, taking back ten moves whenever it is over."""
    mode = REGISTRY.mode("2048")
    rng = random.Random(3)
    game = Game.start(mode, code_from_text("linear proof"))
    while len(game.log) < actions:
        if game.over:
            for _undo in range(min(10, len(game.history))):
                game.act("undo")
        game.act(rng.choice(mode.rules.legal(game.state)))
    return game


def test_no_choice_divides_the_whole_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    game = long_game(6000)
    proof = proof_of(game.mode, game.code, game.log)
    payload_bits = (len(proof) - 9) * 5
    widest = [0]
    pick, uniform = choices.Reader.pick, choices.Reader.uniform

    def watched_pick(self: choices.Reader, weights: list[int]) -> int:
        widest[0] = max(widest[0], self.x.bit_length())
        return pick(self, weights)

    def watched_uniform(self: choices.Reader, count: int) -> int:
        widest[0] = max(widest[0], self.x.bit_length())
        return uniform(self, count)

    monkeypatch.setattr(choices.Reader, "pick", watched_pick)
    monkeypatch.setattr(choices.Reader, "uniform", watched_uniform)
    assert replay(proof, REGISTRY.modes.get).actions == game.log
    # a chunk holds CHUNK choices of at most a few bits each (2048: a move's rank, its kind)
    assert payload_bits > 4 * 2 * CHUNK
    assert widest[0] <= 2 * CHUNK, (widest[0], payload_bits)


def test_a_proof_of_format_1_still_replays() -> None:
    game = long_game(3000)
    proving = Proving(game.mode, game.code)
    for action in game.log:
        proving.played(action)
    proving.writer.pick(_END, _kinds(proving.play, proving.coder, proving.counts))
    old = line_of(format(proving.writer.number(), "b"), "1")
    assert old.startswith("TF1")
    assert proof_of(game.mode, game.code, game.log).startswith("TF2")
    assert replay(old, REGISTRY.modes.get).actions == game.log


@pytest.mark.slow
def test_verify_takes_the_servers_caps_unless_lifted(capsys: pytest.CaptureFixture[str]) -> None:
    proof = back_and_forth(MOST_ACTIONS + 1, "caps")
    assert main(["verify", proof]) == 2
    err = capsys.readouterr().err
    assert f"more than {MOST_ACTIONS} actions" in err and "--no-caps" in err
    assert main(["verify", "--no-caps", "--json", proof]) == 0
    assert f'"actions": {MOST_ACTIONS + 1}' in capsys.readouterr().out
    assert main(["verify", proof + " " * 600_000]) == 2
    assert "over 524288 bytes" in capsys.readouterr().err
