"""A plugin whose ``twofold_register_modes`` raises."""

from __future__ import annotations

from collections.abc import Callable

from twofold.plugin import hookimpl


@hookimpl
def twofold_register_modes(register: Callable[..., None]) -> None:
    raise RuntimeError("twofold-broken raises in twofold_register_modes on purpose")
