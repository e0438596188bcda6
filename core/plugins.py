"""The plugin manager: finds plugins, collects their modes, and isolates their faults.

Entry points of the ``twofold`` group are loaded once, lazily. Set
``TWOFOLD_NO_PLUGINS=1`` to load only twofold's own variants (for debugging a
broken install). A plugin that fails to import, raises in a hook or registers a
mode id that is taken is recorded as a :class:`PluginProblem` and skipped.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from twofold.core import hookspecs
from twofold.core.rules import Mode

ENTRY_POINT_GROUP = "twofold"
DISABLE_VARIABLE = "TWOFOLD_NO_PLUGINS"
BUILTIN_DISTRIBUTION = "twofold"


@dataclass(frozen=True)
class PluginProblem:
    """A plugin that was skipped or stopped, and why (one line)."""

    plugin: str
    reason: str

    def __str__(self) -> str:
        return f"{self.plugin}: {self.reason}"


@dataclass(frozen=True)
class PluginInfo:
    name: str
    distribution: str
    modes: tuple[str, ...]


def _one_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    detail = text[0] if text else ""
    return f"{type(error).__name__}: {detail}" if detail else type(error).__name__


@dataclass
class Registry:
    """The loaded plugins and the modes they registered."""

    manager: pluggy.PluginManager
    modes: dict[str, Mode] = field(default_factory=dict)
    owners: dict[str, str] = field(default_factory=dict)
    problems: list[PluginProblem] = field(default_factory=list)
    plugins: list[PluginInfo] = field(default_factory=list)

    def mode(self, mode_id: str) -> Mode:
        """The mode with this id (case-insensitive); KeyError if none."""
        return self.modes[mode_id.lower()]

    def family(self, name: str) -> list[Mode]:
        name = name.lower()
        return [m for m in self.modes.values() if m.family.lower() == name]

    def report(self, plugin: str, error: BaseException | str) -> None:
        reason = error if isinstance(error, str) else _one_line(error)
        self.problems.append(PluginProblem(plugin, reason))

    def notify_finished(self, mode_id: str, result: dict[str, Any]) -> None:
        """Call ``twofold_game_finished`` on every plugin, one at a time, isolating faults."""
        for impl in self.manager.hook.twofold_game_finished.get_hookimpls():
            try:
                impl.function(mode_id=mode_id, result=result)
            except Exception as error:  # a plugin's bug must not lose the player's game
                self.report(impl.plugin_name, error)


def new_manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    return manager


def _entry_points() -> Iterable[EntryPoint]:
    return entry_points(group=ENTRY_POINT_GROUP)


def load(
    extra: Iterable[tuple[str, object]] = (),
    *,
    entry_points_: Iterable[EntryPoint] | None = None,
) -> Registry:
    """Load every plugin and collect the modes they register.

    :param extra: ``(name, plugin)`` pairs registered after the entry points (tests use it).
    """
    registry = Registry(new_manager())
    only_builtin = os.environ.get(DISABLE_VARIABLE, "").strip() not in ("", "0")
    found = list(_entry_points() if entry_points_ is None else entry_points_)
    for ep in sorted(found, key=lambda e: (_distribution(e) != BUILTIN_DISTRIBUTION, e.name)):
        distribution = _distribution(ep)
        if only_builtin and distribution != BUILTIN_DISTRIBUTION:
            continue
        try:
            plugin = ep.load()
        except Exception as error:  # a broken plugin is reported, never fatal
            registry.report(ep.name, f"failed to import: {_one_line(error)}")
            continue
        _register(registry, ep.name, plugin, distribution)
    for name, plugin in extra:
        _register(registry, name, plugin, "")
    return registry


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else ""


def _register(registry: Registry, name: str, plugin: object, distribution: str) -> None:
    try:
        registry.manager.register(plugin, name=name)
    except Exception as error:
        registry.report(name, f"could not be registered: {_one_line(error)}")
        return
    impls = [
        impl
        for impl in registry.manager.hook.twofold_register_modes.get_hookimpls()
        if impl.plugin_name == name
    ]
    mine: list[Mode] = []

    def register(mode: Mode) -> None:
        if not isinstance(mode, Mode):
            raise TypeError(f"register() takes a Mode, not {type(mode).__name__}")
        key = mode.id.lower()
        if key in registry.modes or any(m.id.lower() == key for m in mine):
            owner = registry.owners.get(key, name)
            raise ValueError(f"mode id {mode.id!r} is already registered by {owner}")
        mine.append(mode)

    for impl in impls:
        try:
            impl.function(register=register)
        except Exception as error:  # a plugin that raises keeps none of its modes
            registry.report(name, f"raised in twofold_register_modes: {_one_line(error)}")
            registry.manager.unregister(name=name)
            return
    for mode in mine:
        registry.modes[mode.id.lower()] = mode
        registry.owners[mode.id.lower()] = name
    registry.plugins.append(PluginInfo(name, distribution, tuple(m.id for m in mine)))


_registry: Registry | None = None


def registry() -> Registry:
    """The process-wide registry, loaded on first use."""
    global _registry
    if _registry is None:
        _registry = load()
    return _registry


def reset() -> None:
    """Forget the loaded registry (tests use it after installing a plugin)."""
    global _registry
    _registry = None
