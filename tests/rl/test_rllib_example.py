"""The RLlib example (examples/rllib/ppo_masked.py): its environment wrapper everywhere,
and one short PPO iteration where Ray and torch are installed (they are no dependency)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "rllib" / "ppo_masked.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    import importlib.util

    spec = importlib.util.spec_from_file_location("ppo_masked", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # needs no ray: ray is imported in main() only
    return module


@pytest.mark.parametrize("mode", ["2048", "2248", "2048-5x5"])
def test_the_wrapper_is_an_environment_rllib_masking_reads(example: ModuleType, mode: str) -> None:
    env = example.Masked(mode, reward="log2")
    observation, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(100):  # random legal actions: every observation is in the space
        assert set(observation) == {"observations", "action_mask"}
        assert observation in env.observation_space
        np.testing.assert_array_equal(observation["action_mask"], info["action_mask"])
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            break
        observation, _reward, _over, _cut, info = env.step(int(rng.choice(legal)))


def test_a_masked_action_is_refused(example: ModuleType) -> None:
    env = example.Masked("2048")
    observation, _info = env.reset(seed=0)
    for _ in range(200):
        refused = np.flatnonzero(observation["action_mask"] == 0)
        if len(refused):
            with pytest.raises(ValueError, match="masked out"):
                env.step(int(refused[0]))
            return
        observation, *_rest = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    pytest.fail("no masked move in 200 moves")


@pytest.mark.slow
def test_one_ppo_iteration_through_rllib() -> None:
    pytest.importorskip("ray.rllib")
    pytest.importorskip("torch")
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *("--iterations", "1", "--batch", "500"), "--runners", "0"],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "iteration 1: " in done.stdout and " 0 env steps" not in done.stdout
