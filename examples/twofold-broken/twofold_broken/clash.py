"""A plugin that registers mode id ``2048``, which twofold's classic variant already has.

Only that mode is refused (and reported); its other mode, ``clash-ok``, is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from twofold.plugin import Mode, hookimpl
from twofold_broken.faulty import FaultyRules


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    register(Mode(id="2048", title="Not 2048", rules=FaultyRules()))
    register(Mode(id="clash-ok", title="Clash survivor", rules=FaultyRules()))
