"""The installed distribution carries every package the source tree has, found rather than listed.

setup.py finds the packages under ``twofold/`` and the three folders installed as its
subpackages (``core/``, ``variants/``, ``ui/``); every package found imports from its own
folder, and every folder with an ``__init__.py`` is found.
"""

from __future__ import annotations

import importlib
import importlib.util
import runpy
from pathlib import Path
from typing import Any
from unittest import mock

import twofold

ROOT = Path(__file__).resolve().parent.parent


def setup_py() -> dict[str, Any]:
    """setup.py's names, run with ``setup()`` itself doing nothing."""
    with mock.patch("setuptools.setup"):
        return runpy.run_path(str(ROOT / "setup.py"))


def test_every_package_found_imports_from_its_folder() -> None:
    namespace = setup_py()
    folders: dict[str, str] = namespace["FOLDERS"]
    for name in namespace["packages"]():
        top = max((n for n in folders if name == n or name.startswith(n + ".")), key=len)
        folder = ROOT / folders[top] / name.removeprefix(top).lstrip(".").replace(".", "/")
        if not (folder / "__init__.py").exists():
            assert folder.is_dir(), name  # a folder of data (catalogs, templates) in a package
            continue
        module = importlib.import_module(name)
        assert Path(module.__file__ or "").parent == folder, name


def test_every_folder_with_an_init_is_found() -> None:
    namespace = setup_py()
    folders: dict[str, str] = namespace["FOLDERS"]
    found = set(namespace["packages"]())
    for name, folder in folders.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            assert ".".join([name, *relative.parts]) in found


def test_the_moved_packages_live_in_twofold() -> None:
    for name in ("twofold.testing", "twofold.rl", "twofold.leaderboard"):
        spec = importlib.util.find_spec(name)
        assert spec and spec.origin
        assert Path(spec.origin).parent.parent == ROOT / "twofold", name
    assert importlib.util.find_spec("twofold.ui.leaderboard") is None


def test_twofold_has_a_version_from_the_installed_metadata() -> None:
    from importlib import metadata

    from twofold.ui.command.about import version

    assert twofold.__version__ == metadata.version("twofold") == version()
