"""The plugin hooks of twofold.

A plugin is any module or object with functions marked ``@hookimpl`` whose names
match the specifications below. Third-party packages are found through entry
points in the ``twofold`` group; twofold's own variants are registered the same way.

Every hook is documented in full in ``docs/plugins/reference/hooks.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

PROJECT = "twofold"

#: the contract's version, (major, minor): a minor release adds and breaks nothing; a major
#: one may remove what was deprecated before (CHANGELOG.md, "For plugin authors")
CONTRACT_VERSION: tuple[int, int] = (1, 3)
#: the attribute a plugin states the contract it was written for in (``(1, 2)``), optional
WRITTEN_FOR = "TWOFOLD_CONTRACT"

hookspec = pluggy.HookspecMarker(PROJECT)
#: the marker plugin authors use: ``from twofold.plugin import hookimpl``
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def twofold_register_modes(register: Callable[..., None]) -> None:
    """Register the modes a plugin adds. Called once per plugin, when plugins load.

    Call ``register(mode)`` once for each :class:`twofold.plugin.Mode`. A mode that
    cannot be taken (its id is already registered by an earlier plugin, the id has a
    space or a ``/``, its rules lack a method of the Rules protocol, its ``controls``
    is not ``"slide"``, ``"chain"`` or ``"place"``) is skipped and reported as this plugin's
    problem; the plugin's other modes stay. Twofold's own variants load first, so a
    plugin can never take a built-in id. ``register`` raises TypeError for anything
    that is not a Mode; an exception escaping this hook drops the plugin's modes.

    :param register: the function to call with each ``Mode``.
    :returns: nothing; the return value is ignored.
    """


@hookspec
def twofold_game_finished(mode_id: str, result: dict[str, Any]) -> None:
    """Observe a finished game (over, or replaced by a new one after at least one action).

    Called after the game is recorded, for every game of every mode, counted or not; a
    plugin that only cares about its own modes checks ``mode_id``.

    :param mode_id: the id of the mode the game was played in.
    :param result: the record as stored (``twofold.core.session.FinishedGame`` as a
        dict): ``game_id``, ``mode_id``, ``code``, ``score``, ``largest``, ``moves``,
        ``elapsed`` (seconds), ``counted``, ``won``, ``tiles`` (every value on the final
        board), ``stats`` (the mode's own numbers, a dict), ``day`` (ISO date of a daily
        game, else None) and ``finished_at`` (Unix time).
    :returns: nothing; the return value is ignored. An exception is reported as this
        plugin's problem and the game is still recorded.
    """
