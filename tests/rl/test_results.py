"""An episode's end gives its result, marked as played by a program, which verify accepts."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from tests.plugins.test_contract import REGISTRY  # noqa: E402
from twofold.core.proof import proof_of  # noqa: E402
from twofold.core.verify import verify  # noqa: E402
from twofold.rl import TwofoldEnv  # noqa: E402


def played_to_the_end(env: gym.Env, seed: int, **reset: object) -> tuple[dict, float]:
    """The last step's info of a random game, and the rewards summed."""
    rng = np.random.default_rng(seed)
    _observation, info = env.reset(seed=seed, **reset)
    total = 0.0
    for _step in range(20_000):
        legal = np.flatnonzero(info["action_mask"])
        _observation, reward, over, _cut, info = env.step(legal[rng.integers(len(legal))])
        total += reward
        if over:
            return info, total
        assert "result" not in info
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("mode_id", "reset"),
    [
        ("2048", {}),
        ("2248-daily", {"options": {"daily": "2026-11-30"}}),
        ("chainsum", {}),
        ("drop", {}),
    ],
)
def test_the_result_verifies_as_played_by_a_program(mode_id: str, reset: dict) -> None:
    env = TwofoldEnv(REGISTRY.mode(mode_id))
    info, total = played_to_the_end(env, seed=3, **reset)
    verified = verify(info["result"], lambda found: REGISTRY.modes.get(found.lower()))
    assert verified.status == 0 and verified.differences == []
    assert verified.replayed.played == "program"
    assert (verified.score, verified.moves) == (info["score"], env.episode.state.moves)
    assert total == info["score"]
    if "options" in reset:
        assert verified.day is not None and verified.day.isoformat() == "2026-11-30"


@pytest.mark.parametrize("mode_id", ["2048", "2248", "chainsum", "drop"])
def test_the_proof_written_as_the_episode_plays_is_the_proof_replayed(mode_id: str) -> None:
    # undo included where the mode has it (2248's Undo): an undone state taken back too
    mode = REGISTRY.mode(mode_id)
    env = TwofoldEnv(mode)
    rng = np.random.default_rng(5)
    _observation, info = env.reset(seed=5)
    states = []
    for _step in range(150):
        legal = np.flatnonzero(info["action_mask"])
        _observation, _reward, over, _cut, info = env.step(legal[rng.integers(len(legal))])
        if info["command"] is not None:
            states.append(env.episode.state)
        if over:
            break
    episode = env.episode
    assert episode.proving is not None and len(episode.log) == len(states) > 0
    replayed = proof_of(mode, episode.code, episode.log, program=True)
    assert episode.proving.line() == replayed
    assert proof_of(mode, episode.code, episode.log, program=True, states=states) == replayed
    assert episode.copy().proving.line() == replayed


def test_results_false_leaves_the_proof_out() -> None:
    info, _total = played_to_the_end(gym.make("twofold/2048-v0", results=False), seed=3)
    assert "result" not in info


@pytest.mark.slow
def test_twofold_verify_accepts_it() -> None:
    info, _total = played_to_the_end(gym.make("twofold/2048-v0"), seed=5)
    done = subprocess.run(
        [sys.executable, "-m", "twofold", "verify", "-", "--json"],
        input=info["result"], capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)
    assert reply["verified"] and reply["played"] == "program"
    assert reply["score"] == info["score"]
