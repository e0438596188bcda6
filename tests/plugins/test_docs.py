"""The plugin guide (docs/plugins/) stays true: its walk-throughs load and play as written."""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.guide import GUIDE, guide_text
from twofold.core import plugins
from twofold.core._events import VOCABULARY, is_known
from twofold.core._rules import Mode, Refused
from twofold.core.codes import parse_code, parse_share
from twofold.core.session import MemoryStore, Session
from twofold.ui.lines import run_lines

from .conftest import EXAMPLES

DOCS = GUIDE
PROTOCOL = EXAMPLES.parent / "docs" / "protocol.md"
README = EXAMPLES.parent / "README.md"


def walkthrough_files() -> dict[str, str]:
    """Each code block marked ``<!-- walkthrough: PATH -->`` in the docs, by path."""
    text = guide_text()
    pattern = r"<!-- walkthrough: (\S+) -->\s*```python\n(.*?)```"
    return dict(re.findall(pattern, text, re.DOTALL))


@pytest.fixture
def walkthrough(tmp_path: Path) -> Iterator[None]:
    """Every walk-through file written out and importable, then forgotten."""
    files = walkthrough_files()
    assert {"twofold_tens/__init__.py", "twofold_steps/__init__.py"} <= set(files)
    for path, code in files.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(code, encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("twofold_tens", "twofold_steps"):
            sys.modules.pop(name, None)


@pytest.fixture
def tens(walkthrough: None) -> ModuleType:
    return importlib.import_module("twofold_tens")


@pytest.fixture
def steps(walkthrough: None) -> ModuleType:
    return importlib.import_module("twofold_steps")


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
    assert [e.kind for e in joined.events] == ["moved", "moved", "merged", "appeared"]
    assert all(is_known(e) for e in joined.events)


def test_the_readme_links_the_plugin_docs() -> None:
    assert "docs/plugins/index.md" in README.read_text(encoding="utf-8")


def test_the_chain_walkthrough_registers_judges_hints_and_plays(steps: ModuleType) -> None:
    registry = plugins.load([("steps", steps)], entry_points_=[])
    try:
        assert registry.problems == []
        mode = registry.mode("steps")
        assert mode.controls == "chain" and mode.powerups == () and mode.judge is not None
        state = steps.StepsState(
            "KAF3Q0D0",
            tuple(tuple(row) for row in ([2, 2, 2, 1, 3], *[[1, 3, 1, 3, 1], [3, 1, 3, 1, 3]] * 2)),
        )
        assert mode.judge(state, [(0, 0), (0, 1), (0, 2)]).value == 3
        assert mode.judge(state, [(0, 0), (1, 1)]).reason == "a chain goes side by side, not across"
        assert mode.judge(state, [(0, 2), (0, 3)]).reason == "only equal tiles chain"
        outcome = mode.rules.apply(state, mode.rules.parse("chain 0,0 0,1 0,2"))
        assert [e.kind for e in outcome.events] == ["merged", "appeared", "appeared"]
        assert all(is_known(e) for e in outcome.events)
        assert outcome.state.board[0][2] == 3 and outcome.state.score == 9
        with pytest.raises(Refused, match="side by side"):
            mode.rules.apply(state, "chain 0,0 1,1")
        session = Session(mode, MemoryStore())
        session.new_game("KAF3Q0D0")
        for _turn in range(10):
            hint = mode.hint(session.game.state)
            if hint is None:
                break
            assert session.act(hint.action).changed
        session.act("u")
        assert mode.status_of(session.game.state).gauges["longest"] == str(
            session.game.state.longest
        )
    finally:
        registry.manager.unregister(name="steps")


#: MODE/CODE, or a lone code in backticks (``7K3M-9QXF``)
SHARE = re.compile(r"\b[a-z0-9][a-z0-9-]*/[0-9A-Z]{4}-?[0-9A-Z]{4}\b")
CODE = re.compile(r"`([0-9A-Z]{4}-[0-9A-Z]{4})`")


@pytest.mark.parametrize("page", [DOCS, PROTOCOL, README], ids=lambda p: p.name)
def test_every_share_string_and_code_in_the_docs_is_valid(page: Path) -> None:
    text = guide_text() if page == GUIDE else page.read_text(encoding="utf-8")
    shares = SHARE.findall(text)
    codes = CODE.findall(text)
    assert shares or codes
    for share in shares:
        parse_share(share)  # raises CodeError for a code with a typo
    for code in codes:
        parse_code(code)


def test_the_protocols_sample_session_is_what_twofold_answers() -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    session_part = text.split("## A session", 1)[1]
    command = re.search(r"\$ printf '(.*?)' \| twofold play (\S+) --code (\S+) --json", text)
    assert command is not None
    lines = command.group(1).encode().decode("unicode_escape").splitlines(keepends=True)
    expected = [json.loads(line) for line in re.findall(r"^    (\{.*\})$", session_part, re.M)]
    registry = plugins.registry()
    session = Session(registry.mode(command.group(2)), MemoryStore())
    session.new_game(parse_code(command.group(3)))
    out = io.StringIO()
    run_lines(session, json_mode=True, stdin=lines, stdout=out)
    assert [json.loads(line) for line in out.getvalue().splitlines()] == expected


def test_the_protocol_names_every_event_type_and_the_readme_points_at_it() -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    for kind in VOCABULARY:
        assert f"| `{kind}` |" in text
    readme = README.read_text(encoding="utf-8")
    assert "docs/protocol.md" in readme and "section 9" not in readme


def test_the_plugin_guide_documents_every_mode_field_and_event() -> None:
    text = guide_text()
    # the Mode page renders each field from its docstring (mkdocstrings lists the members)
    rendered = re.search(
        r"::: twofold.core._rules.Mode\n(?:\s+.*\n)*?\s+members: \[([^\]]*)\]", text
    )
    assert rendered is not None
    for f in dataclasses.fields(Mode):
        assert f.name in rendered[1].split(", "), f"Mode.{f.name} is not in the plugin guide"
    for kind, cls in VOCABULARY.items():
        assert f"| `{cls.__name__}` | `{kind}` |" in text
    for name in ("draw(code, index)", "below(code, index, n)", "chance(code, index)"):
        assert name in text


def test_the_walkthroughs_keep_the_whole_contract(tens: ModuleType, steps: ModuleType) -> None:
    from twofold.testing import check_mode

    check_mode(tens.TENS, actions=150)  # the docs' own call, on the docs' own modes
    check_mode(steps.STEPS, actions=150)


@pytest.mark.parametrize(
    ("module", "names"),
    [
        ("_rules", ("Mode", "Outcome")),
        ("_capabilities", ("Hint", "Sample", "Verdict")),
        ("_presentation", ("Direction",)),
    ],
)
def test_every_field_of_the_contracts_values_has_a_docstring_the_reference_renders(
    module: str, names: tuple[str, ...]
) -> None:
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parents[2] / "core" / f"{module}.py"
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in names:
            body = node.body
            fields = [
                (n.target.id, body[i + 1] if i + 1 < len(body) else None)
                for i, n in enumerate(body)
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            ]
            bare = [
                name
                for name, after in fields
                if not (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant))
            ]
            assert bare == [], f"{node.name}: no docstring for {bare}"
