"""An installed twofold carries its catalogs: pyproject's package data names them."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from twofold.core import _i18n as i18n

ROOT = Path(__file__).resolve().parents[2]


def test_the_catalogs_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"]["setuptools"]
    assert i18n.LOCALE_DIR.parent == ROOT / "core"  # the patterns are relative to twofold.core
    patterns = setuptools.get("package-data", {}).get("twofold.core", [])
    catalogs = [
        path.relative_to(i18n.LOCALE_DIR.parent).as_posix()
        for path in i18n.LOCALE_DIR.rglob("*")
        if path.suffix in {".mo", ".po", ".pot"}
    ]
    assert catalogs
    left_out = [c for c in catalogs if not any(fnmatch.fnmatch(c, p) for p in patterns)]
    assert left_out == [], 'pyproject: [tool.setuptools.package-data] "twofold.core" = [...]'


def test_babel_is_a_test_dependency() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    test_extras = config["project"]["optional-dependencies"]["test"]
    assert any(requirement.lower().startswith("babel") for requirement in test_extras)
