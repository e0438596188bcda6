"""``twofold/MODE-v0`` for every installed mode, plugins included.

Gymnasium 1.0 removed the entry-point plugin system of Gymnasium 0.26 to 0.29 (the
``gymnasium.envs`` group, loaded on ``import gymnasium``): a package's environments are
registered when it is imported (as ale-py's, highway-env's and minigrid's are). So
``import twofold.rl`` registers them (``gymnasium.register_envs(twofold.rl)`` tells linters
the import is meant), and ``gymnasium.make("twofold.rl:twofold/2248-v0")`` imports it by
itself (Gymnasium's ``module:id`` form). Nothing of twofold runs at Python's start.
"""

from __future__ import annotations

import re

import gymnasium as gym

from twofold.core import plugins
from twofold.core._rules import Mode
from twofold.rl.actions import tools_of

NAMESPACE = "twofold"
#: where an episode can run on (an undo, a shuffle, taps that build): it is cut here
MAX_EPISODE_STEPS = 100_000
VERSION = 0
ENTRY_POINT = "twofold.rl.env:TwofoldEnv"
#: many games at once, for a mode whose rules step them so (2048's, in C)
VECTOR_ENTRY_POINT = "twofold.rl.batch:BatchEnv"
#: what Gymnasium takes as an environment's name (a mode id is never empty, has no "/")
_NAME = re.compile(r"[\w.-]+")


def env_id(mode_id: str) -> str:
    """The environment id of a mode: ``twofold/2248-daily-v0``."""
    return f"{NAMESPACE}/{mode_id}-v{VERSION}"


def batched(mode: Mode) -> bool:
    """Whether the mode's rules step many games at once (``batch(count, log2)``)."""
    return mode.controls == "slide" and callable(getattr(mode.rules, "batch", None))


def always_ends(mode: Mode) -> bool:
    """Whether every episode of ``mode`` ends by itself: slides with no tool (each move
    adds a tile: the board fills) or a clock (counted in steps)."""
    if mode.time_limit is not None:
        return True
    return mode.controls == "slide" and not tools_of(mode, "directions")


def register_envs(registry: plugins.Registry | None = None) -> list[str]:
    """Register every mode of ``registry`` (the installed ones by default); the ids given.

    A mode whose id Gymnasium cannot take as a name (a character beyond letters, digits,
    ``_ . -``) is left out; an id registered already is kept as it is.
    """
    found = plugins.registry() if registry is None else registry
    ids = []
    for mode in found.modes.values():
        if not _NAME.fullmatch(mode.id):
            continue
        name = env_id(mode.id)
        if name not in gym.registry:
            gym.register(
                id=name,
                entry_point=ENTRY_POINT,
                kwargs={"mode": mode.id},
                max_episode_steps=None if always_ends(mode) else MAX_EPISODE_STEPS,
                vector_entry_point=VECTOR_ENTRY_POINT if batched(mode) else None,
            )
        ids.append(name)
    return ids
