"""The examples are written against twofold's public API only: no built-in variant, no ui.

twofold's own layers are checked by import-linter (``make lint``, contracts in
pyproject.toml); the examples are not installed in the test environment, so they are
read here with ``ast``, every import statement of every module, lazy ones included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .conftest import EXAMPLES

#: packages a plugin must not import: the built-in variants and the app
PRIVATE = ("twofold.variants", "twofold.ui")


def imported_names(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` for every import in ``path``, ``from X import Y`` giving ``X.Y``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def is_private(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in PRIVATE)


def private_imports(path: Path) -> list[str]:
    return [
        f"{path.relative_to(EXAMPLES)}:{line}: {name}"
        for line, name in imported_names(path)
        if is_private(name)
    ]


SOURCES = sorted(EXAMPLES.glob("*/**/*.py"))


def test_there_are_examples_to_check() -> None:
    folders = {path.relative_to(EXAMPLES).parts[0] for path in SOURCES}
    assert {"twofold-fibonacci", "twofold-chainsum", "twofold-drop", "twofold-broken"} <= folders


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_an_example_imports_only_twofolds_public_api(path: Path) -> None:
    assert private_imports(path) == []


def test_the_check_catches_every_spelling(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import twofold.variants.chain2248\n"
        "from twofold import ui\n"
        "def lazy():\n"
        "    from twofold.variants.classic2048.rules import ClassicRules\n"
        "from twofold.core._rules import Mode\n",
        encoding="utf-8",
    )
    assert [name for _line, name in imported_names(sample) if is_private(name)] == [
        "twofold.variants.chain2248",
        "twofold.ui",
        "twofold.variants.classic2048.rules",
        "twofold.variants.classic2048.rules.ClassicRules",
    ]
