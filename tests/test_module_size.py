"""Each module of core, the variants, the ui, the front and the test kit does one job, in a
length a reader takes in."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
#: about how long a module may grow before it holds more than one job
MOST_LINES = 450
#: the folders of the installed package a reader learns from
FOLDERS = ("core", "variants", "ui", "testing", "twofold", "rl", "startup")


@pytest.mark.parametrize(
    "module",
    sorted(path for folder in FOLDERS for path in (ROOT / folder).rglob("*.py")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_module_is_over_450_lines(module: Path) -> None:
    lines = len(module.read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{module.relative_to(ROOT)} has {lines} lines"


def test_the_reference_solver_lives_with_the_tests() -> None:
    from twofold.variants.chain2248 import hint

    assert not hasattr(hint, "brute_force_chain")
