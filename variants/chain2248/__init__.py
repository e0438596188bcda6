"""The chain variant, 2248: registered through the plugin hook like any plugin."""

from __future__ import annotations

from collections.abc import Callable

from twofold.plugin import hookimpl
from twofold.variants.chain2248.modes import modes


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    for mode in modes():
        register(mode)
