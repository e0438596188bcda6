"""twofold.rl: every twofold mode, plugins included, as a Gymnasium environment.

Importing it registers ``twofold/MODE-v0`` for every installed mode (see
:mod:`.registration`): ``import twofold.rl`` then ``gymnasium.register_envs(twofold.rl)``,
or ``gymnasium.make("twofold.rl:twofold/2048-v0")``, which imports it. It needs the
``rl`` extra (``pip install 'twofold[rl]'``: gymnasium and numpy) and reaches a mode's
rules only through the variant contract (``twofold.core``), so a plugin's mode is an
environment with no work by its author. The action spaces, the observations and the
masks: docs/learning.md.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401 (the extra's first need, said plainly when missing)
    import numpy  # noqa: F401
except ImportError as missing:  # pragma: no cover - only without the extra
    raise ImportError(
        f"twofold.rl needs the rl extra ({missing.name} is missing): pip install 'twofold[rl]'"
    ) from missing

from twofold.rl.env import TwofoldEnv, mode_of
from twofold.rl.observation import OneHot
from twofold.rl.registration import NAMESPACE, env_id, register_envs
from twofold.rl.result import verified_score

__all__ = [
    "NAMESPACE",
    "OneHot",
    "TwofoldEnv",
    "env_id",
    "mode_of",
    "register_envs",
    "verified_score",
]

register_envs()
