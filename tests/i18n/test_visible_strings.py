"""No player-visible English slips past ``_()``: literals handed to widgets and errors.

Extraction only finds strings wrapped in ``_()``; this finds the ones that are not:
a literal with words given to a widget, a notification, a binding's description, a
palette command, or an error a player reads.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "ui", ROOT / "variants", ROOT / "core"]
#: calls whose positional text arguments a player sees
VISIBLE_CALLS = {
    "Label",
    "Static",
    "Button",
    "Checkbox",
    "RadioButton",
    "Option",
    "Binding",
    "Group",
    "SystemCommand",
    "notify",
    "announce",
    "say",
    "Refused",
    "PositionError",
    "UsageError",
    "CodeError",
}
#: keyword arguments a player sees, whatever the call
VISIBLE_KEYWORDS = {"description", "tooltip", "title", "label", "placeholder", "help", "prompt"}
#: positions that are not text: Binding's key and action, Option's id
NOT_TEXT = {"Binding": {0, 1}}
WORDS = re.compile(r"[A-Za-z]{2,}")
#: names that stay as they are in every language
NAMES = {"twofold"}


def literal_text(node: ast.expr) -> str | None:
    """The text of a literal (or the fixed parts of an f-string) with words in it."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(
            part.value
            for part in node.values
            if isinstance(part, ast.Constant) and isinstance(part.value, str)
        )
    else:
        return None
    return text if WORDS.search(text) and text not in NAMES else None


def call_name(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def bare_literals(path: Path) -> Iterator[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        if name in VISIBLE_CALLS:
            for index, arg in enumerate(node.args):
                if index in NOT_TEXT.get(name, set()):
                    continue
                if (text := literal_text(arg)) is not None:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}: {name}({text!r})"
        for keyword in node.keywords:
            if keyword.arg in VISIBLE_KEYWORDS and (text := literal_text(keyword.value)):
                yield f"{path.relative_to(ROOT)}:{node.lineno}: {keyword.arg}={text!r}"


def test_player_visible_literals_go_through_gettext() -> None:
    found = [
        line
        for folder in SOURCES
        for path in sorted(folder.rglob("*.py"))
        for line in bare_literals(path)
    ]
    assert found == []


def test_the_check_finds_a_bare_literal(tmp_path: Path) -> None:
    sample = ROOT / "ui" / "_sample_for_test.py"
    source = (
        'Label("Hello there")\nLabel(_("Fine"))\nBinding("q", "quit", "Quit")\n'
        'self.notify(f"Saved {n} games")\nButton("2048")\n'
    )
    sample.write_text(source)
    try:
        lines = list(bare_literals(sample))
    finally:
        sample.unlink()
    assert [line.rsplit(": ", 1)[1] for line in lines] == [
        "Label('Hello there')",
        "Binding('Quit')",
        "notify('Saved  games')",
    ]
