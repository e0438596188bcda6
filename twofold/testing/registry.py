"""The mode registers: a registry that holds only the mode under test, and what it says of it."""

from __future__ import annotations

from collections.abc import Callable

from twofold.core import plugins
from twofold.core._hookspecs import hookimpl
from twofold.core._rules import Mode


class _Offers:
    """A plugin that offers one mode (the one under test)."""

    def __init__(self, mode: Mode) -> None:
        self.mode = mode

    @hookimpl
    def twofold_register_modes(self, register: Callable[[Mode], None]) -> None:
        register(self.mode)


def registry_of(mode: Mode) -> plugins.Registry:
    """A registry holding only ``mode`` (as a plugin named ``under-test``)."""
    registry = plugins.load([("under-test", _Offers(mode))], entry_points_=[])
    registry.manager.unregister(name="under-test")  # nothing else may meet it
    return registry


def check_registers(mode: Mode) -> None:
    """The mode registers with no problem and no note."""
    registry = registry_of(mode)
    said = [str(p) for p in registry.problems + registry.notes]
    assert said == [], f"{mode.id}: registering it says {said}"
