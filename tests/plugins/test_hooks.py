"""Every hook is tested here and documented in the plugin guide (checked, as datasette does)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.guide import guide_text
from twofold.core import _hookspecs as hookspecs
from twofold.core import plugins
from twofold.core._rules import Mode
from twofold.plugin import hookimpl
from twofold.ui.command.cli import open_session

from .conftest import EXAMPLES

ROOT = EXAMPLES.parent
TESTS = Path(__file__).resolve().parent


def hook_signatures() -> dict[str, str]:
    """Each hook's name and its signature exactly as written in hookspecs.py."""
    source = Path(hookspecs.__file__).read_text(encoding="utf-8")
    lines = source.splitlines()
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef) and any(
            isinstance(d, ast.Name) and d.id == "hookspec" for d in node.decorator_list
        ):
            header = " ".join(lines[node.lineno - 1 : node.body[0].lineno - 1])
            header = " ".join(header.split()).removeprefix("def ").removesuffix(":")
            found[node.name] = header.replace("( ", "(").replace(", )", ")")
    return found


def test_the_hooks_found_are_the_hooks_pluggy_sees() -> None:
    marked = {name for name, obj in vars(hookspecs).items() if hasattr(obj, "twofold_spec")}
    assert set(hook_signatures()) == marked
    assert marked  # the meta-tests below must have something to check


@pytest.mark.parametrize("name", sorted(hook_signatures()))
def test_every_hook_has_its_own_test(name: str) -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_*.py"))
    assert re.search(rf"^def test_hook_{name}\(", sources, re.MULTILINE), (
        f"tests/plugins has no test_hook_{name}"
    )


@pytest.mark.parametrize(("name", "signature"), sorted(hook_signatures().items()))
def test_every_hook_signature_is_in_the_docs(name: str, signature: str) -> None:
    docs = " ".join(guide_text().split())
    assert signature in docs, f"the plugin guide lacks the signature {signature}"


# -- one test per hook -------------------------------------------------------------------------


def test_hook_twofold_register_modes() -> None:
    from tests.core.toy import TALLY, TIMED

    calls: list[object] = []

    class TwoModes:
        @hookimpl
        def twofold_register_modes(self, register: Any) -> object:
            calls.append(register)
            register(TALLY)
            register(TIMED)
            return ["the return value is ignored"]

    class Later:
        @hookimpl
        def twofold_register_modes(self, register: Any) -> None:
            register(Mode(id="later", title="Later", rules=TALLY.rules))

    registry = plugins.load([("two", TwoModes()), ("later", Later())], entry_points_=[])
    assert len(calls) == 1 and callable(calls[0])
    assert list(registry.modes) == ["tally", "tally-timed", "later"]
    assert registry.owner("tally-timed") == "two" and registry.owner("later") == "later"
    assert [(p.name, p.modes) for p in registry.plugins] == [
        ("two", ("tally", "tally-timed")),
        ("later", ("later",)),
    ]
    assert registry.problems == []


def test_hook_twofold_game_finished(installed: list[tuple[str, object]]) -> None:
    import twofold_fibonacci

    seen: list[tuple[str, dict[str, Any]]] = []

    class Observer:
        @hookimpl
        def twofold_game_finished(self, mode_id: str, result: dict[str, Any]) -> None:
            seen.append((mode_id, result))

    class Failing:
        @hookimpl
        def twofold_game_finished(self, mode_id: str, result: dict[str, Any]) -> None:
            raise OSError("disk full\nand more")

    installed += [("fibonacci", twofold_fibonacci), ("observer", Observer()), ("bad", Failing())]
    registry = plugins.registry()
    session = open_session(registry, registry.mode("fib"))  # the wiring the line modes use
    moved = [a for a in ("left", "up", "right", "down") if session.act(a).changed]
    session.new_game()  # the old game had actions: it is finished and recorded
    session.store.close()

    [(mode_id, result)] = seen
    assert mode_id == "fib"
    for key in ("score", "largest", "moves", "elapsed", "code", "counted", "stats"):
        assert key in result
    assert result["moves"] == len(moved) and result["counted"] is True
    assert result["stats"] == {"sums": result["stats"]["sums"]}
    # a failing hook is a note of a loaded plugin, never a plugin "not loaded"
    assert registry.problems == []
    [problem] = registry.notes
    assert problem.plugin == "bad"
    assert problem.reason == "twofold_game_finished failed: OSError: disk full"
    [line] = twofold_fibonacci.journal_path().read_text(encoding="utf-8").splitlines()
    entry = json.loads(line)
    assert entry["mode_id"] == "fib" and entry["moves"] == len(moved)
    assert entry["sums"] == result["stats"]["sums"]


def test_the_docs_never_promise_twofold_plugins_lists_a_failed_finished_hook() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "plugins"
    hooks = (docs / "reference" / "hooks.md").read_text(encoding="utf-8")
    finished = hooks.split("## twofold_game_finished", 1)[1]
    faults = (docs / "explanation" / "faults.md").read_text(encoding="utf-8")
    [row] = [line for line in faults.splitlines() if "`twofold_game_finished` raises" in line]
    # twofold plugins runs in a process of its own, which has played no game
    for text in (finished, row):
        assert "listed by `twofold plugins`" not in text
        assert "twofold plugins" in text and "never" in text
