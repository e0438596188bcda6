"""The plugin hooks of twofold.

A plugin is any module or object with functions marked ``@hookimpl`` whose names
match the specifications below. Third-party packages are found through entry
points in the ``twofold`` group; twofold's own variants are registered the same way.

Every hook is documented in full in ``docs/plugins.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT = "twofold"

hookspec = pluggy.HookspecMarker(PROJECT)
#: the marker plugin authors use: ``from twofold.core import hookimpl``
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def twofold_register_modes(register: Callable[..., None]) -> None:
    """Register the modes a plugin adds.

    Call ``register(mode)`` once for each :class:`twofold.core.rules.Mode`. A mode id
    already taken by another plugin is refused and reported as that plugin's fault;
    the mode that registered first keeps the id.

    :param register: the function to call with each ``Mode``.
    :returns: nothing; the return value is ignored.
    """


@hookspec
def twofold_game_finished(mode_id: str, result: dict[str, Any]) -> None:
    """Observe a finished game (over, or replaced by a new one after at least one action).

    Called after the game is recorded, for every game, counted or not.

    :param mode_id: the id of the mode the game was played in.
    :param result: the record as stored: ``score``, ``largest``, ``moves``, ``elapsed``,
        ``code``, ``counted`` and the mode's own ``stats`` (a dict).
    :returns: nothing; the return value is ignored. An exception is reported and the
        game is still recorded.
    """
