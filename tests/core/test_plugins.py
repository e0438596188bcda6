from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pytest

from tests.core.toy import TALLY, TallyPlugin
from twofold.core import plugins
from twofold.core._rules import Mode
from twofold.plugin import hookimpl


class Raising:
    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        raise RuntimeError("boom\nsecond line")


class Clashing:
    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register(Mode(id="TALLY", title="Impostor", rules=TALLY.rules))


class NotAMode:
    @hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register("2048")


def test_a_plugin_registers_its_modes() -> None:
    registry = plugins.load([("tally", TallyPlugin())], entry_points_=[])
    assert registry.mode("tally") is TALLY
    assert registry.mode("TALLY") is TALLY
    assert [m.id for m in registry.family("tally")] == ["tally", "tally-timed"]
    assert registry.plugins[0].modes == ("tally", "tally-timed")
    assert registry.problems == []


@pytest.mark.parametrize(
    ("plugin", "fragment"),
    [
        (Raising(), "RuntimeError: boom"),
        (Clashing(), "already registered by tally"),
        (NotAMode(), "takes a Mode"),
    ],
)
def test_a_faulty_plugin_is_reported_and_skipped(plugin: object, fragment: str) -> None:
    registry = plugins.load([("tally", TallyPlugin()), ("bad", plugin)], entry_points_=[])
    assert registry.mode("tally") is TALLY
    assert registry.mode("tally").title == "Tally"
    [problem] = registry.problems
    assert problem.plugin == "bad"
    assert fragment in problem.reason
    assert "\n" not in problem.reason


@pytest.mark.usefixtures("other_entry_points")
def test_a_plugin_that_fails_to_import_is_reported() -> None:
    broken = EntryPoint(name="broken", value="twofold_no_such_module", group="twofold")
    registry = plugins.load([("tally", TallyPlugin())], entry_points_=[broken])
    assert "tally" in registry.modes
    [problem] = registry.problems
    assert problem.plugin == "broken"
    assert "failed to import" in problem.reason


def test_builtin_variants_load_through_entry_points() -> None:
    registry = plugins.registry()
    names = {info.name for info in registry.plugins}
    assert "classic2048" in names
    assert all(info.distribution == "twofold" for info in registry.plugins)


def test_discovery_loads_every_installed_plugin_and_the_suite_sees_twofolds_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Whatever plugins the developer has installed: each is loaded, and the suite's
    registry (``TWOFOLD_NO_PLUGINS``, set by its conftest) holds twofold's own only."""
    installed = {
        ep.name: ep.dist.name if ep.dist is not None else ""
        for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)
    }
    own = {name for name, dist in installed.items() if dist == plugins.BUILTIN_DISTRIBUTION}
    assert own == {"classic2048", "chain2248"}
    assert {info.name for info in plugins.registry().plugins} == own
    monkeypatch.delenv(plugins.DISABLE_VARIABLE)
    everything = plugins.load()
    loaded = {info.name: info.distribution for info in everything.plugins}
    assert set(loaded) | {problem.plugin for problem in everything.problems} == set(installed)
    assert all(installed[name] == dist for name, dist in loaded.items())


def test_disabling_plugins_keeps_the_builtins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(plugins.DISABLE_VARIABLE, "1")
    outsider = EntryPoint(name="outsider", value="tests.core.toy:TallyPlugin", group="twofold")
    registry = plugins.load(entry_points_=[outsider])
    assert "tally" not in registry.modes
