"""make_vec's async vector environment works for every mode."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from twofold.core import plugins  # noqa: E402


@pytest.mark.slow
@pytest.mark.parametrize("mode_id", sorted(plugins.registry().modes))
def test_an_async_vector_of_every_mode(mode_id: str) -> None:
    envs = gym.make_vec(f"twofold/{mode_id}-v0", num_envs=2, vectorization_mode="async")
    try:
        _observations, infos = envs.reset(seed=0)
        rng = np.random.default_rng(0)
        for _step in range(5):
            legal = [np.flatnonzero(row) for row in infos["action_mask"]]
            actions = np.array([rng.choice(row) if len(row) else 0 for row in legal])
            _observations, _rewards, _over, _cut, infos = envs.step(actions)
        assert infos["action_mask"].shape == (2, envs.single_action_space.n)
    finally:
        envs.close()
