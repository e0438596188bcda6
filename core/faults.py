"""A mode's rules failing in play: anything but ``Refused`` becomes one :class:`PluginFault`.

Every caller of a mode's rules during play (the session, the app's screens, the solve
command) wraps the call in :func:`rules_faults`, so a broken plugin stops its game with a
one-line message and never a traceback.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from twofold.core._rules import Mode, Refused
from twofold.core.plugins import PluginFault


@contextmanager
def rules_faults(mode: Mode, plugin: str | None = None) -> Iterator[None]:
    """Turn anything but ``Refused`` raised by a mode's rules into a one-line PluginFault.

    ``plugin`` names the plugin that registered the mode (the fault's message says it).
    """
    try:
        yield
    except (Refused, PluginFault):
        raise
    except Exception as error:
        raise PluginFault(mode.id, error, plugin) from error
