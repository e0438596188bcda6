"""One front for plugin authors: twofold.plugin holds every name of the contract and its
version; the old paths still import, warning with the new one; the examples use the front
and require a bounded twofold."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import tomllib
import types
import warnings
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import twofold.plugin
from tests.core.toy import TALLY
from twofold.core import _blocks, _chains, _gravity, _layout, _positions, old_paths
from twofold.core.plugins import load
from twofold.ui.command import cli

from .conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def as_plugin(source: str) -> None:
    """Run ``source`` as the module of a plugin (not one of twofold's)."""
    exec(compile(source, "twofold_someone/__init__.py", "exec"), {"__name__": "twofold_someone"})


#: every old path that once held contract names
OLD_PATHS = sorted(old_paths.OLD_PATHS)


def old_names(path: str) -> frozenset[str]:
    module = importlib.import_module(path)
    return (
        frozenset({"hookimpl"})
        if path == "twofold.core"
        else module.NAMES
        if hasattr(module, "NAMES")
        else frozenset({"data_dir"})
    )


def test_the_front_holds_every_name_of_the_contract_and_its_version() -> None:
    every_old_name = set().union(*(old_names(path) for path in OLD_PATHS))
    # what the docs recommend is in the front too
    assert {"LegalActions", "ActionCoder", "Pick", "Weights", "PowerUpTarget"} <= every_old_name
    # the building blocks came with the front: they have no old path
    modules = (_blocks, _chains, _gravity, _positions)
    blocks = {name for name in twofold.plugin.__all__ if any(name in vars(m) for m in modules)}
    assert {"RulesBase", "slide", "lines_toward", "spawn", "equal_pairs"} <= blocks
    assert {"fall", "settle", "check_chain", "groups", "position_board"} <= blocks
    # so did board shapes
    blocks |= {name for name in twofold.plugin.__all__ if name in vars(_layout)}
    assert {"Layout", "NO_CELL", "HEX_STEPS", "HEX_DIRECTIONS"} <= blocks
    assert set(twofold.plugin.__all__) == {*every_old_name, *blocks, "CONTRACT_VERSION"}
    assert all(hasattr(twofold.plugin, name) for name in twofold.plugin.__all__)
    major, minor = twofold.plugin.CONTRACT_VERSION
    assert (major, minor) >= (1, 2)


def test_the_front_stands_on_core_only() -> None:
    tree = ast.parse((ROOT / "twofold" / "plugin.py").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert {m for m in modules if m and m.startswith("twofold")} <= {
        m for m in modules if m and m.startswith("twofold.core.")
    }


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("from twofold.core.rules import Mode", "Mode"),
        ("from twofold.core import hookimpl", "hookimpl"),
        ("from twofold.core.events import Merged", "Merged"),
        ("from twofold.core.i18n import _", "_"),
        ("def later():\n    from twofold.core.deal import below\nlater()", "below"),
    ],
)
def test_an_old_path_still_imports_and_warns_naming_the_front(source: str, name: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"from twofold.plugin import {name}"):
        as_plugin(source)


@pytest.mark.parametrize("path", OLD_PATHS)
def test_every_old_path_gives_each_of_its_names_with_a_warning(path: str) -> None:
    for name in sorted(old_names(path)):
        with pytest.warns(DeprecationWarning, match=f"from twofold.plugin import {name}"):
            found = getattr(importlib.import_module(path), name)
        assert found is getattr(twofold.plugin, name)


def test_an_old_path_is_a_module_getattr_not_a_swapped_class_or_a_frame_read() -> None:
    source = (ROOT / "core" / "old_paths.py").read_text(encoding="utf-8")
    assert "_getframe" not in source and "import dis" not in source
    assert "__class__" not in source
    for path in OLD_PATHS:
        module = importlib.import_module(path)
        assert type(module) is types.ModuleType
        assert callable(vars(module)["__getattr__"])
        assert not old_names(path) & set(vars(module))


def test_an_old_path_names_its_other_names_silently_and_refuses_unknown_ones() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        as_plugin("from twofold.core.rules import largest_tile")  # not a contract name
        as_plugin("from twofold.plugin import Mode, hookimpl, LegalActions, data_dir")
        as_plugin("from twofold.core import plugins")  # a module of the package
    with pytest.raises(ImportError):
        as_plugin("from twofold.core.rules import NoSuchName")


def test_twofold_itself_imports_without_a_deprecation_warning() -> None:
    code = (
        "import twofold.plugin, twofold.testing, twofold.variants.chain2248, "
        "twofold.variants.classic2048, twofold.ui.app.app, twofold.ui.command.cli"
    )
    result = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    # run as a program, a module's __name__ is __main__: it is still twofold's own
    result = subprocess.run(
        [
            sys.executable,
            "-W",
            "error::DeprecationWarning",
            "-m",
            "twofold.ui.command.cli",
            "--version",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*/**/*.py")), ids=lambda p: p.name)
def test_an_example_imports_the_contract_from_the_front_only(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules = {
        node.module
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("twofold.")
    }
    # a plugin takes the contract from the front; a learning example also the rl package
    assert modules <= {"twofold.plugin", "twofold.testing", "twofold.rl"}


@pytest.mark.parametrize(
    "path", sorted(EXAMPLES.glob("*/pyproject.toml")), ids=lambda p: p.parent.name
)
def test_an_example_requires_a_bounded_twofold_that_this_one_meets(path: Path) -> None:
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    [twofold] = [Requirement(r) for r in project["dependencies"] if r.startswith("twofold")]
    operators = {spec.operator for spec in twofold.specifier}
    assert {">=", "<"} <= operators, "an example names the lowest and the first breaking twofold"
    assert twofold.specifier.contains(PYPROJECT["project"]["version"])


def test_the_changelog_keeps_a_changelog_with_a_part_for_plugin_authors() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "https://keepachangelog.com/en/1.1.0/" in text
    version = PYPROJECT["project"]["version"]
    assert f"## [{version}] - " in text
    release = text.split(f"## [{version}] - ", 1)[1].split("\n## [", 1)[0]
    assert "### For plugin authors" in release
    major, minor = twofold.plugin.CONTRACT_VERSION
    # the contract may be ahead of the last release: then what is unreleased names it
    unreleased = text.split("## [Unreleased]", 1)[1].split("\n## [", 1)[0]
    assert f"contract {major}.{minor}" in release + unreleased
    headings = {line for line in release.splitlines() if line.startswith("### ")}
    allowed = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert headings - {"### For plugin authors"} <= {f"### {h}" for h in allowed}


class Stated:
    """A plugin stating the contract it was written for, with one mode."""

    def __init__(self, written_for: object) -> None:
        self.TWOFOLD_CONTRACT = written_for

    @twofold.plugin.hookimpl
    def twofold_register_modes(self, register: Any) -> None:
        register(TALLY)


def test_a_plugin_written_for_a_newer_major_is_refused_with_one_line() -> None:
    major, minor = twofold.plugin.CONTRACT_VERSION
    registry = load([("later", Stated((major + 1, 0)))], entry_points_=[])
    [problem] = registry.problems
    assert problem.plugin == "later" and "\n" not in problem.reason
    assert f"contract {major + 1}.0" in problem.reason and f"{major}.{minor}" in problem.reason
    assert "tally" not in registry.modes


@pytest.mark.parametrize("written_for", [(1, 0), (1, 1), (1, 99), None])
def test_a_plugin_written_for_this_major_or_stating_none_loads(written_for: object) -> None:
    plugin = Stated(written_for) if written_for is not None else Stated(None)
    if written_for is None:
        del plugin.TWOFOLD_CONTRACT
    registry = load([("now", plugin)], entry_points_=[])
    assert registry.problems == [] and "tally" in registry.modes


@pytest.mark.parametrize("written_for", ["1.2", (1,), (1, -1), [1, 2]])
def test_a_stated_contract_that_is_no_version_is_refused_with_one_line(
    written_for: object,
) -> None:
    [problem] = load([("odd", Stated(written_for))], entry_points_=[]).problems
    assert "TWOFOLD_CONTRACT" in problem.reason and "\n" not in problem.reason


def test_twofold_plugins_says_why_a_newer_plugin_is_not_loaded(
    installed: list[tuple[str, object]], capsys: pytest.CaptureFixture[str]
) -> None:
    installed.append(("later", Stated((99, 0))))
    assert cli.main(["plugins"]) == 0
    [line] = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("later")]
    assert line.startswith("later: skipped: was written for plugin contract 99.0")


async def test_the_menu_says_why_a_newer_plugin_is_not_loaded(
    installed: list[tuple[str, object]],
) -> None:
    from textual.widgets import OptionList

    from twofold.core import plugins
    from twofold.core.store import open_store
    from twofold.ui.app.app import TwofoldApp

    installed.append(("later", Stated((99, 0))))
    store = open_store()
    try:
        app = TwofoldApp(plugins.registry(), store)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            options = app.screen.query_one("#modes", OptionList)
            count = options.option_count
            shown = [str(options.get_option_at_index(i).prompt) for i in range(count)]
            assert any("not loaded: was written for plugin contract 99.0" in s for s in shown)
    finally:
        store.close()


def test_the_testing_page_imports_only_the_front_and_the_kit() -> None:
    text = (ROOT / "docs" / "plugins" / "how-to" / "test.md").read_text(encoding="utf-8")
    blocks = [b.split("\n", 1)[1] for b in text.split("```python")[1:]]
    modules = set()
    for block in blocks:
        code = "\n".join(
            line[2:] if line.startswith("  ") else line
            for line in block.split("```")[0].splitlines()
        )
        modules |= {
            node.module
            for node in ast.walk(ast.parse(code))
            if isinstance(node, ast.ImportFrom) and node.module and "twofold." in node.module
        }
    assert modules == {"twofold.testing"} or modules <= {"twofold.plugin", "twofold.testing"}
    assert "twofold.testing" in modules


def test_the_kit_registers_a_plugin_alone_and_gives_a_fresh_data_folder(tmp_path: Path) -> None:
    import os

    from twofold.testing import MemoryStore, Session, fresh_home, registered, twofold_home

    assert callable(twofold_home)
    plugin = Stated((1, 2))
    with registered("alone", plugin) as registry:
        assert list(registry.modes) == ["tally"] and registry.problems == []
        session = Session(registry.mode("tally"), MemoryStore())
        session.act("add")
        assert session.game.state.moves == 1
    assert not registry.manager.has_plugin("alone")
    before = os.environ.get("TWOFOLD_HOME")
    with fresh_home(tmp_path) as folder:
        assert os.environ["TWOFOLD_HOME"] == str(folder) == str(tmp_path)
    assert os.environ.get("TWOFOLD_HOME") == before
