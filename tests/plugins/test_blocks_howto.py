"""The building blocks' how-to (docs/plugins/how-to/blocks.md) stays true: its tap game,
written only of what it changes, registers, passes the kit and plays as the page says."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from twofold.core import plugins
from twofold.plugin import Appeared, Merged, Refused
from twofold.testing import check_mode

from .test_docs import walkthrough_files


@pytest.fixture
def tapten(tmp_path: Path) -> Iterator[ModuleType]:
    code = walkthrough_files()["twofold_tapten/__init__.py"]
    (tmp_path / "twofold_tapten").mkdir()
    (tmp_path / "twofold_tapten" / "__init__.py").write_text(code, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("twofold_tapten")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("twofold_tapten", None)


def test_the_tap_game_of_the_blocks_page_registers_and_passes_the_kit(tapten: ModuleType) -> None:
    registry = plugins.load([("tapten", tapten)], entry_points_=[])
    try:
        assert registry.problems == [] and registry.notes == []
        check_mode(registry.mode("tapten"), actions=80, app=False)
    finally:
        registry.manager.unregister(name="tapten")


def test_a_tap_makes_its_group_one_tile_higher_and_the_deal_refills(tapten: ModuleType) -> None:
    rules = tapten.TAP_TEN.rules
    rows = [[1, 2, 3, 4, 1], [1, 3, 4, 1, 2], [2, 4, 1, 2, 3], [3, 1, 2, 3, 4], [4, 2, 3, 4, 1]]
    state = rules.from_position({"board": rows}, "ABCD2345")
    outcome = rules.apply(state, rules.parse("Place 1,0"))
    merged = outcome.events[0]
    assert merged == Merged((1, 0), 2, ((0, 0), (1, 0)))
    assert outcome.state.score == 4 and outcome.state.draws == 1
    assert outcome.state.board[1][0] == 2 and outcome.state.board[0][0] in (1, 2, 3, 4)
    assert [type(e) for e in outcome.events[1:]] == [Appeared]
    assert rules.announce(state, outcome) == "Made 2. Score 4."
    with pytest.raises(Refused, match="equal neighbour"):
        rules.apply(state, "place 0,1")
    with pytest.raises(Refused, match="unknown command"):
        rules.parse("tap")
