"""The plugin manager: finds plugins, collects their modes, and isolates their faults.

Entry points of the ``twofold`` group are loaded once, lazily. Set
``TWOFOLD_NO_PLUGINS=1`` to load only twofold's own variants (for debugging a
broken install). Faults are isolated at three levels:

* a plugin that fails to import, cannot be registered (a hook with the wrong
  arguments, a hook twofold does not know) or raises in ``twofold_register_modes``
  is recorded as a :class:`PluginProblem` and skipped whole;
* a mode that cannot be taken (its id is already registered, the id cannot be used
  in a share string, its rules lack a method, its controls are unknown) is recorded
  as a problem of the plugin that offered it and skipped; the plugin's other modes
  stay;
* rules that raise anything but ``Refused`` during play become a
  :class:`PluginFault` (see ``twofold.core.faults``): that game stops, its save stays.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from twofold.core import _hookspecs as hookspecs
from twofold.core._i18n import _
from twofold.core._presentation import (
    AGGREGATES,
    COMMAND_ARGUMENTS,
    POWERUP_TARGETS,
    Command,
    Direction,
    Gauge,
    PowerUp,
    Statistic,
    TutorialPage,
    direction_reserved_keys,
    reserved_keys,
)
from twofold.core._rules import CONTROLS, PLACES, RULES_MEMBERS, Mode

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


class PluginFault(Exception):
    """A mode's rules raised something other than ``Refused`` while a game was played.

    The game is left as it was before the command and its save is kept; the front end
    reports ``str(fault)`` (one line) and stops that game.
    """

    def __init__(self, mode_id: str, error: BaseException, plugin: str | None = None) -> None:
        self.mode_id = mode_id
        self.error = error
        self.plugin = plugin
        super().__init__(mode_id, error, plugin)

    def __str__(self) -> str:
        if self.plugin:
            text = _("plugin {plugin} failed in mode {mode}: {error}")
        else:
            text = _("mode {mode} failed: {error}")
        return text.format(plugin=self.plugin, mode=self.mode_id, error=_one_line(self.error))


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
    #: what went wrong in a plugin that stays loaded: a power-up key taken by twofold (the
    #: mode kept, that key dropped), a ``twofold_game_finished`` that raised
    notes: list[PluginProblem] = field(default_factory=list)

    def mode(self, mode_id: str) -> Mode:
        """The mode with this id (case-insensitive); KeyError if none."""
        return self.modes[mode_id.lower()]

    def family(self, name: str) -> list[Mode]:
        name = name.lower()
        return [m for m in self.modes.values() if m.family.lower() == name]

    def owner(self, mode_id: str) -> str | None:
        """The name of the plugin that registered ``mode_id``, if any."""
        return self.owners.get(mode_id.lower())

    def report(self, plugin: str, error: BaseException | str) -> None:
        reason = error if isinstance(error, str) else _one_line(error)
        self.problems.append(PluginProblem(plugin, reason))

    def note(self, plugin: str, reason: str) -> PluginProblem:
        problem = PluginProblem(plugin, reason)
        self.notes.append(problem)
        return problem

    def notify_finished(self, mode_id: str, result: dict[str, Any]) -> list[PluginProblem]:
        """Call ``twofold_game_finished`` on every plugin, one at a time, isolating faults.

        Returns what failed (one line each), for the front end that played the game to
        say; each is also kept in ``notes``, never in ``problems``: the plugin is loaded.
        """
        failed: list[PluginProblem] = []
        for impl in self.manager.hook.twofold_game_finished.get_hookimpls():
            try:
                impl.function(mode_id=mode_id, result=result)
            except Exception as error:  # a plugin's bug must not lose the player's game
                reason = _("twofold_game_finished failed: {error}").format(error=_one_line(error))
                failed.append(self.note(impl.plugin_name, reason))
        return failed


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
            registry.report(ep.name, _("failed to import: {error}").format(error=_one_line(error)))
            continue
        _register(registry, ep.name, plugin, distribution)
    for name, plugin in extra:
        _register(registry, name, plugin, "")
    return registry


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return dist.name if dist is not None else ""


def contract_refusal(plugin: object) -> str | None:
    """Why a plugin's stated contract (``TWOFOLD_CONTRACT``) cannot load here, or None."""
    stated = getattr(plugin, hookspecs.WRITTEN_FOR, None)
    if stated is None:
        return None
    here = "{}.{}".format(*hookspecs.CONTRACT_VERSION)
    if not (
        isinstance(stated, tuple)
        and len(stated) == 2
        and all(type(part) is int and part >= 0 for part in stated)
    ):
        return _("states {name} = {value!r}, not (major, minor) as in {here}; skipped").format(
            name=hookspecs.WRITTEN_FOR, value=stated, here=f"({here.replace('.', ', ')})"
        )
    if stated[0] > hookspecs.CONTRACT_VERSION[0]:
        return _(
            "was written for plugin contract {wanted}, newer than this twofold's {here}; "
            "update twofold to use it"
        ).format(wanted="{}.{}".format(*stated), here=here)
    return None


def _register(registry: Registry, name: str, plugin: object, distribution: str) -> None:
    refused = contract_refusal(plugin)
    if refused:
        registry.report(name, refused)
        return
    try:
        registry.manager.register(plugin, name=name)
    except Exception as error:  # pluggy refuses hooks with arguments the spec lacks
        registry.report(name, _("could not be registered: {error}").format(error=_one_line(error)))
        return
    unknown = _unknown_hooks(registry.manager, name)
    if unknown:
        registry.report(
            name,
            _("has hooks twofold does not know: {hooks}").format(hooks=", ".join(unknown)),
        )
        registry.manager.unregister(name=name)
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
        refusal = _refusal(registry, mode, mine)
        if refusal:  # only this mode is skipped: the plugin's other modes stay
            registry.report(name, refusal)
            return
        mode, clashes = _without_clashing_keys(mode)
        for clash in clashes:
            registry.note(name, clash)
        mine.append(mode)

    for impl in impls:
        try:
            impl.function(register=register)
        except Exception as error:  # a plugin that raises keeps none of its modes
            registry.report(
                name,
                _("raised in twofold_register_modes: {error}").format(error=_one_line(error)),
            )
            registry.manager.unregister(name=name)
            return
    for mode in mine:
        registry.modes[mode.id.lower()] = mode
        registry.owners[mode.id.lower()] = name
    registry.plugins.append(PluginInfo(name, distribution, tuple(m.id for m in mine)))


def _unknown_hooks(manager: pluggy.PluginManager, name: str) -> list[str]:
    """Hook functions of plugin ``name`` that match no specification (a typo, or a newer API)."""
    unknown = []
    for caller in manager.get_hookcallers(manager.get_plugin(name)) or []:
        if caller.spec is None:
            impls = [i for i in caller.get_hookimpls() if i.plugin_name == name]
            if any(not i.optionalhook for i in impls):
                unknown.append(caller.name)
    return sorted(unknown)


def _refusal(registry: Registry, mode: Mode, mine: list[Mode]) -> str | None:
    """Why ``mode`` cannot be registered, in one line, or None if it can."""
    key = mode.id.lower() if isinstance(mode.id, str) else ""
    if not key or key != key.strip() or any(ch.isspace() or ch == "/" for ch in key):
        return _("mode id {id!r} is not usable (no spaces, no '/', not empty); skipped").format(
            id=mode.id
        )
    if key in registry.modes:
        return _("mode id {id!r} is already registered by {owner}; skipped").format(
            id=mode.id, owner=registry.owners[key]
        )
    if any(m.id.lower() == key for m in mine):
        return _("mode id {id!r} is registered twice; the second is skipped").format(id=mode.id)
    missing = [member for member in RULES_MEMBERS if not hasattr(mode.rules, member)]
    if missing:
        return _("mode {id!r} has rules without {members}; skipped").format(
            id=mode.id, members=", ".join(missing)
        )
    if mode.controls not in CONTROLS:
        return _("mode {id!r} has unknown controls {controls!r} ({names}); skipped").format(
            id=mode.id, controls=mode.controls, names=", ".join(CONTROLS)
        )
    if mode.controls == "place" and mode.place not in PLACES:
        return _("mode {id!r}: place must be one of {names}; skipped").format(
            id=mode.id, names=", ".join(PLACES)
        )
    return _presentation_refusal(mode) or _controls_refusal(mode)


def _controls_refusal(mode: Mode) -> str | None:
    """Why the directions and command keys ``mode`` declares cannot be played, or None."""
    directions = mode.directions
    if not isinstance(directions, tuple | list) or not all(
        isinstance(d, Direction) for d in directions
    ):
        return _("mode {id!r}: directions must be a tuple of Direction; skipped").format(id=mode.id)
    if directions and mode.controls != "slide":
        return _("mode {id!r}: only slide controls have directions; skipped").format(id=mode.id)
    names: set[str] = set()
    for direction in directions:
        usable = isinstance(direction.name, str) and direction.name.strip() == direction.name
        if not usable or not direction.name or " " in direction.name:
            return _("mode {id!r}: direction {name!r} is not one word; skipped").format(
                id=mode.id, name=direction.name
            )
        if direction.name in names:
            return _("mode {id!r}: direction {name!r} is declared twice; skipped").format(
                id=mode.id, name=direction.name
            )
        names.add(direction.name)
        if not isinstance(direction.keys, tuple | list) or not isinstance(
            direction.angle, int | float
        ):
            return _(
                "mode {id!r}: direction {name!r} needs a tuple of keys and an angle; skipped"
            ).format(id=mode.id, name=direction.name)
    for command in mode.commands:
        if command.keys and command.takes != "none":
            return _(
                "mode {id!r}: command {word!r} takes {takes}, so it can have no key; skipped"
            ).format(id=mode.id, word=command.word, takes=command.takes)
    return _key_clash(mode)


def _key_clash(mode: Mode) -> str | None:
    """The first key of a declared direction or command that twofold keeps, or another holds."""
    owned = [(f"direction {d.name!r}", d.keys) for d in mode.directions]
    owned += [(f"command {c.word!r}", c.keys) for c in mode.commands]
    if not any(keys for _what, keys in owned):
        return None
    kept = direction_reserved_keys() if mode.directions else reserved_keys(mode.controls)
    taken: dict[str, str] = {key: "twofold" for key in kept}
    for what, keys in owned:
        for key in keys:
            named = key_name(key) if isinstance(key, str) else ""
            if not named:
                return _("mode {id!r}: {what} has a key that is not text; skipped").format(
                    id=mode.id, what=what
                )
            if named in taken:
                return _(
                    "mode {id!r}: {what} asks for key {key!r}, which {owner} keeps; skipped"
                ).format(id=mode.id, what=what, key=key, owner=taken[named])
            taken[named] = what
    return None


#: a key as a player may write it, as the app names it
_KEY_NAMES = {"?": "question_mark", ",": "comma", " ": "space", "\t": "tab", "\n": "enter",
              ".": "full_stop"}  # fmt: skip


def key_name(key: str) -> str:
    """``"?"`` -> ``"question_mark"``: the name twofold's reserved keys use."""
    key = key.strip() if key.strip() else key
    return _KEY_NAMES.get(key, key.lower())


#: the power-up targets the app can aim on each kind of controls (chain: every one)
AIMED_BY = {"slide": ("none", "undo"), "place": ("none", "undo")}


def _without_clashing_keys(mode: Mode) -> tuple[Mode, list[str]]:
    """The mode with no power-up key that twofold's screens keep (or an earlier power-up
    holds), and one line for each key dropped; the power-up itself stays. A power-up the
    app cannot aim on the mode's controls (a tile on a slide board) is said too."""
    taken = set(reserved_keys(mode.controls))
    if mode.directions:
        taken = set(direction_reserved_keys())
    for owned in (*mode.directions, *mode.commands):
        taken |= {key_name(key) for key in owned.keys}
    aimed = AIMED_BY.get(mode.controls)
    unaimed = [p for p in mode.powerups if aimed is not None and p.target not in aimed]
    said = [
        _(
            "mode {id!r}: power-up {powerup!r} aims at a {target}, which {controls} controls "
            "cannot aim in the app; it is played in the line modes only"
        ).format(id=mode.id, powerup=p.id, target=p.target, controls=mode.controls)
        for p in unaimed
    ]
    kept: list[PowerUp] = []
    clashes: list[str] = []
    for powerup in mode.powerups:
        key = key_name(powerup.key) if isinstance(powerup.key, str) else ""
        if powerup.target == "undo" or not key:
            kept.append(powerup)  # the game's own undo keeps the undo keys
            continue
        if key in taken:
            clashes.append(
                _(
                    "mode {id!r}: power-up {powerup!r} asks for key {key!r}, which twofold "
                    "keeps; it has no key"
                ).format(id=mode.id, powerup=powerup.id, key=powerup.key)
            )
            kept.append(dataclasses.replace(powerup, key=""))
            continue
        taken.add(key)
        kept.append(powerup)
    if not clashes:
        return mode, said
    return dataclasses.replace(mode, powerups=tuple(kept)), [*said, *clashes]


def _presentation_refusal(mode: Mode) -> str | None:
    """Why what ``mode`` asks the app to show cannot be shown, or None if it can."""
    checks: list[tuple[str, object, type]] = [
        ("statistics", mode.statistics, Statistic),
        ("gauges", mode.gauges, Gauge),
        ("powerups", mode.powerups, PowerUp),
        ("tutorial", mode.tutorial, TutorialPage),
        ("commands", mode.commands, Command),
    ]
    for name, values, kind in checks:
        if not isinstance(values, tuple | list) or not all(isinstance(v, kind) for v in values):
            return _("mode {id!r}: {field} must be a tuple of {kind}; skipped").format(
                id=mode.id, field=name, kind=kind.__name__
            )
    if any(s.aggregate not in AGGREGATES for s in mode.statistics):
        return _("mode {id!r}: a statistic's aggregate is not one of {names}; skipped").format(
            id=mode.id, names=", ".join(AGGREGATES)
        )
    if any(p.target not in POWERUP_TARGETS for p in mode.powerups):
        return _("mode {id!r}: a power-up's target is not one of {names}; skipped").format(
            id=mode.id, names=", ".join(POWERUP_TARGETS)
        )
    for page in mode.tutorial:  # drawn as words and tiles: a page must be both
        words = isinstance(page.title, str) and isinstance(page.text, str)
        tiles = isinstance(page.tiles, tuple | list) and all(
            type(v) is int and v > 0 for v in page.tiles
        )
        if not (words and tiles and type(page.makes) is int and page.makes >= 0):
            return _(
                "mode {id!r}: a tutorial page needs text and tiles of whole numbers above 0; "
                "skipped"
            ).format(id=mode.id)
    if any(c.takes not in COMMAND_ARGUMENTS or not c.word.strip() for c in mode.commands):
        return _("mode {id!r}: a command's takes is not one of {names}; skipped").format(
            id=mode.id, names=", ".join(COMMAND_ARGUMENTS)
        )
    if mode.next_goal is not None and not (type(mode.next_goal) is int and mode.next_goal > 0):
        return _("mode {id!r}: next_goal must be a whole number above 0 or None; skipped").format(
            id=mode.id
        )
    if not isinstance(mode.help, str):
        return _("mode {id!r}: help must be text; skipped").format(id=mode.id)
    for name in ("status", "hint", "autoplayer", "sample", "judge"):
        value = getattr(mode, name)
        if value is not None and not callable(value):
            return _("mode {id!r}: {field} must be callable or None; skipped").format(
                id=mode.id, field=name
            )
    return None


_registry: Registry | None = None


def registry() -> Registry:
    """The process-wide registry, loaded on first use."""
    global _registry
    if _registry is None:
        _registry = load()
    return _registry


def owner_of(mode_id: str) -> str | None:
    """The plugin that registered ``mode_id`` in the process-wide registry, without loading it."""
    return _registry.owner(mode_id) if _registry is not None else None


def reset() -> None:
    """Forget the loaded registry (tests use it after installing a plugin)."""
    global _registry
    _registry = None
