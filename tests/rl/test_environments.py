"""Every mode, built-in and example, as a Gymnasium environment: check_env and exact masks."""

from __future__ import annotations

import pytest

gym = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from tests.plugins.test_contract import REGISTRY  # noqa: E402
from twofold.core import plugins  # noqa: E402
from twofold.rl import TwofoldEnv, env_id, register_envs  # noqa: E402
from twofold.testing import check_environment, check_masks  # noqa: E402

BUILT_IN = ("2048", "2048-5x5", "2048-6x6", "2048-daily", "2248", "2248-daily", "2248-blitz")


@pytest.mark.parametrize("mode_id", sorted(REGISTRY.modes))
def test_every_mode_passes_check_env(mode_id: str) -> None:
    check_environment(REGISTRY.mode(mode_id))


@pytest.mark.parametrize("mode_id", sorted(REGISTRY.modes))
def test_every_mode_has_exact_masks(mode_id: str) -> None:
    check_masks(REGISTRY.mode(mode_id), steps=60, seed=len(mode_id))


@pytest.mark.parametrize("mode_id", BUILT_IN)
def test_every_built_in_mode_is_registered(mode_id: str) -> None:
    env = gym.make(f"twofold/{mode_id}-v0")
    _observation, info = env.reset(seed=1)
    assert info["action_mask"].sum() > 0
    assert env.unwrapped.mode.id == mode_id


def test_an_installed_plugins_mode_is_an_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import twofold_drop

    registry = plugins.load([("drop", twofold_drop)])
    monkeypatch.setattr(plugins, "_registry", registry)
    try:
        assert env_id("drop") in register_envs()
        env = gym.make("twofold/drop-v0")
        observation, _info = env.reset(seed=0)
        assert env.action_space == gym.spaces.Discrete(5)  # one action a column
        assert observation.shape == (7, 5)
    finally:
        gym.registry.pop(env_id("drop"), None)


def test_the_spaces_follow_the_controls() -> None:
    assert gym.make("twofold/2048-v0").action_space == gym.spaces.Discrete(4)
    chain = gym.make("twofold/2248-v0")
    # 40 taps, then Hammer, Swap, Shuffle and Undo
    assert chain.action_space == gym.spaces.Discrete(44)
    assert [chain.unwrapped.table.name(a) for a in (0, 39, 40, 41, 42, 43)] == [
        "tap 0,0", "tap 7,4", "aim hammer", "aim swap", "shuffle", "undo"
    ]  # fmt: skip
    assert gym.make("twofold/2248-blitz-v0").action_space == gym.spaces.Discrete(41)
    assert TwofoldEnv(REGISTRY.mode("fib")).action_space == gym.spaces.Discrete(4)


def test_a_masked_action_changes_nothing_and_raises_nothing() -> None:
    env = gym.make("twofold/2048-v0")
    env.reset(seed=0)
    env.unwrapped._mask[:] = 0  # as if nothing could move
    _observation, reward, _over, _cut, info = env.step(0)
    assert reward == 0 and info["invalid"] and info["command"] is None
    with pytest.raises(ValueError, match="not in Discrete"):
        env.step(7)  # not an action at all


def test_a_chain_is_tapped_then_sent_by_its_last_cell_again() -> None:
    env = gym.make("twofold/2248-v0")
    _observation, info = env.reset(seed=4)
    hint = env.unwrapped.mode.hint(env.unwrapped.episode.state)
    cols = env.unwrapped.table.cols
    for r, c in hint.cells:
        observation, reward, _over, _cut, info = env.step(r * cols + c)
        assert info["command"] is None and reward == 0
    assert observation["chain"][hint.cells[0]] == 1
    last = hint.cells[-1]
    observation, reward, _over, _cut, info = env.step(last[0] * cols + last[1])
    assert info["command"] == hint.action
    assert reward > 0 and not observation["chain"].any()


def test_masks_for_maskable_ppo() -> None:
    env = gym.make("twofold/2248-v0")
    _observation, info = env.reset(seed=2)
    masks = env.unwrapped.action_masks()
    assert masks.dtype == bool and (masks == info["action_mask"].astype(bool)).all()
