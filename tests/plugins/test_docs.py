"""docs/plugins.md stays true: its walk-through plugin loads and plays as written."""

from __future__ import annotations

import importlib
import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from twofold.core import plugins
from twofold.core.session import MemoryStore, Session
from twofold.ui.lines import run_lines

from .conftest import EXAMPLES

DOCS = EXAMPLES.parent / "docs" / "plugins.md"
README = EXAMPLES.parent / "README.md"


def walkthrough_files() -> dict[str, str]:
    """Each code block marked ``<!-- walkthrough: PATH -->`` in the docs, by path."""
    text = DOCS.read_text(encoding="utf-8")
    pattern = r"<!-- walkthrough: (\S+) -->\s*```python\n(.*?)```"
    return dict(re.findall(pattern, text, re.DOTALL))


@pytest.fixture
def tens(tmp_path: Path) -> Iterator[ModuleType]:
    files = walkthrough_files()
    assert "twofold_tens/__init__.py" in files
    for path, code in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("twofold_tens")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("twofold_tens", None)


def test_the_walkthrough_plugin_registers_and_plays(tens: ModuleType) -> None:
    registry = plugins.load([("tens", tens)], entry_points_=[])
    try:
        assert registry.problems == []
        mode = registry.mode("tens")
        store = MemoryStore()
        session = Session(mode, store)
        opening = session.game.state
        assert sum(1 for row in opening.board for v in row if v) == 2
        changed = [a for a in ("left", "up", "right", "down", "left") if session.act(a).changed]
        assert changed
        session.act("u")
        again = Session(mode, store)
        assert again.game.state == session.game.state
        out = io.StringIO()
        run_lines(again, json_mode=True, stdin=["left\n", "quit\n"], stdout=out)
        replies = [json.loads(line) for line in out.getvalue().splitlines()]
        assert len(replies) == 3 and "tens" in replies[0]
    finally:
        registry.manager.unregister(name="tens")


def test_the_walkthrough_game_ends_when_nothing_can_move(tens: ModuleType) -> None:
    rules = tens.TensRules()
    stuck = tens.TensState("7K3M9QXP", ((10, 9, 10), (9, 10, 9), (10, 9, 10)))
    assert rules.is_over(stuck)
    assert not rules.is_over(tens.TensState("7K3M9QXP", ((1, 9, 10), (9, 10, 9), (10, 9, 10))))
    joined = rules.apply(tens.TensState("7K3M9QXP", ((3, 3, 3), (0, 0, 0), (0, 0, 0))), "left")
    assert joined.state.board[0][:2] == (6, 3)
    assert [e.kind for e in joined.events] == ["merged", "appeared"]


def test_the_readme_links_the_plugin_docs() -> None:
    assert "docs/plugins.md" in README.read_text(encoding="utf-8")
