"""The plugin reference renders every name of the front and every field of the contract's
values from one source, their docstrings (mkdocstrings): no hand table repeats them."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

import twofold.plugin
from twofold.core import _presentation, _rules

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "plugins" / "reference"
#: the contract's values whose every field the reference renders from its docstring
VALUES = {
    "_rules": ("Mode",),
    "_presentation": (
        "Statistic",
        "Gauge",
        "PowerUp",
        "TutorialPage",
        "Status",
        "Direction",
        "Command",
    ),
}


def rendered() -> tuple[set[str], set[str]]:
    """The names the reference's mkdocstrings directives render, and the objects they name."""
    text = "\n".join(page.read_text(encoding="utf-8") for page in REFERENCE.glob("*.md"))
    members = {
        name.strip()
        for listed in re.findall(r"members: \[([^\]]*)\]", text)
        for name in listed.split(",")
    }
    objects = {path.rsplit(".", 1)[-1] for path in re.findall(r"^::: (\S+)", text, re.M)}
    return members, objects


def test_the_mode_page_renders_modes_fields_and_repeats_none_by_hand() -> None:
    page = (REFERENCE / "mode.md").read_text(encoding="utf-8")
    assert "::: twofold.core._rules.Mode" in page
    fields = [f.name for f in dataclasses.fields(_rules.Mode)]
    hand_rows = [name for name in fields if re.search(rf"^\| `{name}` \|", page, re.M)]
    assert hand_rows == []
    listed = re.search(r"::: twofold.core._rules.Mode\n(?:\s+.*\n)*?\s+members: \[([^\]]*)\]", page)
    assert listed is not None
    assert set(fields) <= {name.strip() for name in listed[1].split(",")}


def test_every_name_of_the_front_is_rendered_from_its_docstring() -> None:
    members, objects = rendered()
    # the hook marker and the data folder are the hooks page's own subject
    hooks = (REFERENCE / "hooks.md").read_text(encoding="utf-8")
    described = {name for name in ("hookimpl", "data_dir") if name in hooks}
    assert set(twofold.plugin.__all__) - members - objects - described == set()


@pytest.mark.parametrize(("module", "names"), sorted(VALUES.items()))
def test_every_field_of_the_values_a_mode_carries_has_a_docstring(
    module: str, names: tuple[str, ...]
) -> None:
    source = {"_rules": _rules, "_presentation": _presentation}[module].__file__
    assert source is not None
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for name in names:
        body = classes[name].body
        bare = [
            node.target.id
            for index, node in enumerate(body)
            if isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and not (
                index + 1 < len(body)
                and isinstance(body[index + 1], ast.Expr)
                and isinstance(body[index + 1].value, ast.Constant)  # type: ignore[attr-defined]
            )
        ]
        assert bare == [], f"{name}: no docstring for {bare}"
