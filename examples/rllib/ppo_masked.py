"""PPO with action masks on a twofold environment, through Ray RLlib (its new API stack).

For a user who outgrows one machine: RLlib spreads the environments over
``--runners`` processes, on one machine or a Ray cluster, and learns a policy network
with PPO. The policy never picks a move the game refuses: each observation carries
twofold's exact ``action_mask``, and RLlib's own action-masking module
(``ray.rllib.examples.rl_modules.classes.action_masking_rlm``) sets the logits of the
masked moves to the lowest float before sampling. :class:`Masked` turns a twofold
environment into the observation that module reads, ``{"observations": ...,
"action_mask": ...}``, and refuses a masked action, so a run that ends proves the masks
were kept.

    python -m venv rayvenv && rayvenv/bin/pip install torch "ray[rllib]" . # twofold's folder
    rayvenv/bin/python examples/rllib/ppo_masked.py --mode 2048 --iterations 5

Ray and torch are not twofold dependencies; :class:`Masked` needs only the ``rl`` extra.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium as gym
import numpy as np

import twofold.rl
from twofold.rl import OneHot, TwofoldEnv

gym.register_envs(twofold.rl)


class Masked(gym.Wrapper[dict[str, np.ndarray], int, Any, int]):
    """A twofold mode as RLlib's masking module reads it: the board as one-hot planes
    (with a chain mode's other keys) flattened to floats, beside the legal actions."""

    def __init__(self, mode: str = "2048", **options: Any) -> None:
        super().__init__(OneHot(TwofoldEnv(mode, **options)))
        self.inner_space = self.env.observation_space
        actions = self.env.action_space
        assert isinstance(actions, gym.spaces.Discrete)
        flat = gym.spaces.flatten_space(self.inner_space)
        self.observation_space = gym.spaces.Dict(
            {
                "observations": gym.spaces.Box(
                    flat.low.astype(np.float32), flat.high.astype(np.float32), dtype=np.float32
                ),
                "action_mask": gym.spaces.Box(0.0, 1.0, (int(actions.n),), np.float32),
            }
        )
        self.mask = np.zeros(int(actions.n), np.float32)

    def _observe(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        self.mask = info["action_mask"].astype(np.float32)
        flat = gym.spaces.flatten(self.inner_space, observation)
        return {"observations": flat.astype(np.float32), "action_mask": self.mask}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        observation, info = self.env.reset(seed=seed, options=options)
        return self._observe(observation, info), info

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if not self.mask[int(action)]:
            raise ValueError(f"action {int(action)} is masked out: the masking module let it by")
        observation, reward, terminated, truncated, info = self.env.step(int(action))
        return self._observe(observation, info), float(reward), terminated, truncated, info


def make(config: dict[str, Any]) -> Masked:
    """RLlib's environment maker: ``config`` is the run's ``env_config``."""
    return Masked(config.get("mode", "2048"), reward=config.get("reward", "log2"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="2048", help="a twofold mode id (2048, 2248, ...)")
    parser.add_argument("--reward", default="log2", help="score, log2 or normalised")
    parser.add_argument("--iterations", type=int, default=5, help="PPO iterations")
    parser.add_argument("--runners", type=int, default=1, help="environment processes")
    parser.add_argument("--envs", type=int, default=4, help="environments a runner")
    parser.add_argument("--batch", type=int, default=4000, help="steps an iteration")
    parser.add_argument("--cpus", type=int, help="CPUs Ray may use here (default: all)")
    args = parser.parse_args(argv)
    # ray and torch only here: the wrapper above needs the rl extra alone
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )
    from ray.tune.registry import register_env

    ray.init(num_cpus=args.cpus, include_dashboard=False)
    register_env("twofold", make)
    config = (
        PPOConfig()
        .environment("twofold", env_config={"mode": args.mode, "reward": args.reward})
        .env_runners(num_env_runners=args.runners, num_envs_per_env_runner=args.envs)
        .training(
            train_batch_size_per_learner=args.batch, minibatch_size=500, num_epochs=4, lr=3e-4
        )
        .rl_module(
            rl_module_spec=RLModuleSpec(
                module_class=ActionMaskingTorchRLModule,
                model_config={"head_fcnet_hiddens": [256, 256], "head_fcnet_activation": "relu"},
            )
        )
    )
    algo = config.build_algo()
    started = time.perf_counter()
    try:
        for _ in range(args.iterations):
            result = algo.train()
            runners = result.get("env_runners", {})
            print(
                f"iteration {result['training_iteration']}: "
                f"{int(runners.get('num_env_steps_sampled_lifetime', 0)):,} env steps, "
                f"{int(runners.get('num_episodes_lifetime', 0)):,} episodes, "
                f"mean episode return {runners.get('episode_return_mean', float('nan')):.2f}, "
                f"mean episode length {runners.get('episode_len_mean', float('nan')):.0f}, "
                f"{time.perf_counter() - started:.0f} s",
                flush=True,
            )
    finally:
        algo.stop()
        ray.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
