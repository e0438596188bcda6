"""The installed distribution carries every package the source tree has, found rather than listed.

``twofold/`` is one package folder as every tool sees it: ``core/``, ``variants/`` and ``ui/``
stand beside it in the repository and are linked into it (``twofold/core -> ../core``...), so
setuptools' finder, Python's import, grimp (import-linter) and griffe (mkdocstrings) all read
``twofold.core`` from ``twofold/core`` with nothing mapped and no tree built first.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import tomllib
from pathlib import Path

import pytest
from setuptools import find_namespace_packages

import twofold

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: the folders the project is built around, linked into twofold/ where they stand
LINKED = ("core", "variants", "ui")


def found() -> list[str]:
    """The packages setuptools finds, as pyproject.toml asks it to."""
    find = PYPROJECT["tool"]["setuptools"]["packages"]["find"]
    return find_namespace_packages(ROOT, include=find["include"], exclude=find["exclude"])


def test_the_three_folders_are_linked_into_twofold_where_they_stand() -> None:
    for name in LINKED:
        link = ROOT / "twofold" / name
        assert link.is_symlink() and os.readlink(link) == f"../{name}", name
        assert link.resolve() == ROOT / name
    # nothing is mapped: the package is the folder
    assert "package-dir" not in PYPROJECT["tool"]["setuptools"]
    assert "package_dir" not in (ROOT / "setup.py").read_text(encoding="utf-8")


def test_every_package_found_imports_from_its_folder() -> None:
    packages = found()
    assert {"twofold", "twofold.core", "twofold.ui.app", "twofold.variants.chain2248"} <= set(
        packages
    )
    assert len(packages) == len(set(packages))
    for name in packages:
        folder = ROOT / name.replace(".", "/")
        if not (folder / "__init__.py").exists():
            assert folder.is_dir(), name  # a folder of data (catalogs, templates) in a package
            continue
        module = importlib.import_module(name)
        assert Path(module.__file__ or "").parent == folder, name


def test_every_folder_with_an_init_is_found() -> None:
    packages = set(found())
    for folder, _dirs, files in os.walk(ROOT / "twofold", followlinks=True):
        if "__init__.py" in files:
            assert ".".join(Path(folder).relative_to(ROOT).parts) in packages, folder


def test_the_moved_packages_live_in_twofold() -> None:
    for name in ("twofold.testing", "twofold.rl", "twofold.leaderboard"):
        spec = importlib.util.find_spec(name)
        assert spec and spec.origin
        assert Path(spec.origin).parent.parent == ROOT / "twofold", name
    assert importlib.util.find_spec("twofold.ui.leaderboard") is None


def test_python_lists_the_linked_folders_as_twofolds_packages() -> None:
    # what pydoc shows as the package's contents, and what any tool walking __path__ finds
    listed = {module.name for module in pkgutil.iter_modules(twofold.__path__)}
    assert {*LINKED, "plugin", "testing", "rl", "leaderboard"} <= listed


def test_the_tools_that_read_folders_see_one_package() -> None:
    grimp = pytest.importorskip("grimp")
    griffe = pytest.importorskip("griffe")
    graph = grimp.build_graph("twofold", include_external_packages=False, cache_dir=None)
    for name in ("twofold.core.game", "twofold.ui.app.app", "twofold.variants.chain2248.rules"):
        assert name in graph.modules, name
    package = griffe.load("twofold", search_paths=[ROOT], resolve_aliases=False)
    assert package["core._rules.Rules"].docstring


def test_twofold_has_a_version_from_the_installed_metadata() -> None:
    from importlib import metadata

    from twofold.ui.command.about import version

    assert twofold.__version__ == metadata.version("twofold") == version()
