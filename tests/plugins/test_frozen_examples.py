"""The example plugins as they shipped under contract 1.1 (copied unchanged into frozen/) still
register and play: a plugin written against an older contract keeps working, with
deprecation warnings at most. Beside them, the kinds of game players wrote against those
docs: Threes (a slide with 1+2=3) and a tap game, each importing the contract from the core
modules it then lived in."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FROZEN = Path(__file__).resolve().parent / "frozen"
#: the plugins that import the contract from its old paths: each warns, naming the front
OLD_PATHS = ("twofold_threes", "twofold_tap")

#: registers the frozen plugin alone and plays each of its modes through the kit; every
#: warning but a DeprecationWarning is an error
PLAY = """
import sys, warnings
warnings.simplefilter("error")
warnings.simplefilter("default", DeprecationWarning)
sys.path.insert(0, {folder!r})
import importlib
from twofold.core import plugins
from twofold.testing import check_events, check_replay, check_undo_never_rerolls
plugin = importlib.import_module({name!r})
registry = plugins.load([({name!r}, plugin)], entry_points_=[])
assert not registry.problems, registry.problems
assert not registry.notes, registry.notes
assert registry.modes, "no mode registered"
for mode in registry.modes.values():
    check_events(mode, actions=40)
    check_replay(mode)
    check_undo_never_rerolls(mode)
print(len(registry.modes))
"""


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "twofold_fibonacci",
        "twofold_chainsum",
        "twofold_drop",
        "twofold_stones",
        "twofold_threes",
        "twofold_tap",
    ],
)
def test_an_example_as_it_shipped_registers_and_plays_unchanged(name: str) -> None:
    assert (FROZEN / name / "__init__.py").is_file()
    result = subprocess.run(
        [sys.executable, "-c", PLAY.format(folder=str(FROZEN), name=name)],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert int(result.stdout.split()[-1]) >= 1
    if name in OLD_PATHS:
        assert "deprecated: import it from twofold.plugin" in result.stderr
