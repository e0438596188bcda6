"""The example agent (examples/learning) learns: a few seconds of it beat random play."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

LEARNING = Path(__file__).resolve().parents[2] / "examples" / "learning"


@pytest.fixture(scope="module")
def ntuple():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(LEARNING))
    try:
        import ntuple

        yield ntuple
    finally:
        sys.path.remove(str(LEARNING))


def test_its_slide_is_the_environments(ntuple) -> None:  # type: ignore[no-untyped-def]
    env = gym.make("twofold/2048-v0")
    ntuple.play(env, ntuple.random_player(1), None, seed=4)  # asserts every reward


@pytest.mark.slow
def test_a_few_seconds_of_learning_beat_random_play_on_the_same_codes(ntuple) -> None:  # type: ignore[no-untyped-def]
    agent, curve = ntuple.train(seconds=4.0, every=5)
    assert curve and curve[-1]["games"] >= 5
    env = gym.make("twofold/2048-v0")
    codes = [env.reset(seed=900 + i)[1]["code"] for i in range(8)]
    learned = ntuple.mean_score(env, agent.choose, codes)
    chance = ntuple.mean_score(env, ntuple.random_player(0), codes)
    assert learned > chance, f"learned {learned}, random {chance}"
