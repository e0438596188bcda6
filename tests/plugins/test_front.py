"""One front for plugin authors: twofold.plugin holds every name of the contract and its
version; the old paths still import, warning with the new one; the examples use the front
and require a bounded twofold."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
import warnings
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import twofold.plugin
from twofold.core import moved

from .conftest import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def as_plugin(source: str) -> None:
    """Run ``source`` as the module of a plugin (not one of twofold's)."""
    exec(compile(source, "twofold_someone/__init__.py", "exec"), {"__name__": "twofold_someone"})


def test_the_front_holds_every_name_of_the_contract_and_its_version() -> None:
    assert set(twofold.plugin.__all__) == {*moved.NAMES, "CONTRACT_VERSION"}
    assert all(hasattr(twofold.plugin, name) for name in twofold.plugin.__all__)
    major, minor = twofold.plugin.CONTRACT_VERSION
    assert (major, minor) >= (1, 1)


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


def test_reading_a_name_as_an_attribute_or_from_twofold_is_silent() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        as_plugin("import twofold.core.rules as rules\nrules.Mode\nrules.largest_tile")
        as_plugin("from twofold.core.rules import largest_tile")  # not a contract name
        as_plugin("from twofold.plugin import Mode, hookimpl")


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
    assert modules <= {"twofold.plugin", "twofold.testing"}


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
    assert f"contract {major}.{minor}" in release
    headings = {line for line in release.splitlines() if line.startswith("### ")}
    allowed = {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert headings - {"### For plugin authors"} <= {f"### {h}" for h in allowed}
