"""How far the app follows Textual's own model, and how the names and history read: figures.

    .venv/bin/python tools/idiom_figures.py [--commits 50] [--rev HEAD] [--json]

The figures a review of the codebase compared with other Textual apps (posting, harlequin),
measured the same way each time, so a change can give its before and after:

* the app (``ui/app``): its lines, its reactives (``reactive``/``var`` class attributes),
  ``Message`` classes, ``@on`` handlers, ``watch_`` methods and ``data_bind`` calls;
* how many classes each game screen sits below Textual's ``Screen``;
* the members of each ``Protocol`` in the app (what a screen's parts may ask of it);
* ``GameScreen``'s own methods, its empty hooks and its one-line forwarders;
* the private Textual names the app uses (``textual_private.PRIVATE_NAMES``, and any private
  import of Textual elsewhere in the installed code);
* modules whose names say how rather than what (a gerund, a participle, ``on_``);
* references to issue numbers or SPEC sections in code and tests;
* how the package is laid out: folders mapped or linked into it, packages listed by hand;
* the last ``--commits`` commit subjects (up to ``--rev``): median length, how many
  exceed 72 characters, how many have a body.

It reads the source with ``ast`` and imports only the screens, to walk their classes.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import re
import statistics
import subprocess
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "ui" / "app"
#: the folders installed as twofold's packages
INSTALLED = ("core", "variants", "ui", "twofold")
REFERENCE = re.compile(r"\b(issue|Issue|issues) [0-9]+\b|\bSPEC (§ ?|section )?[0-9]+")
#: module names that say how a thing is done, not what it holds (a gerund, a participle)
HOW_NAMED = re.compile(r"(ing|ed|kept|shown|keeper)$|^on_")
SUBJECT_LIMIT = 72


def trees(folder: Path) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in folder.rglob("*.py")}


def base_names(node: ast.ClassDef) -> list[str]:
    return [ast.unparse(base).rsplit(".", 1)[-1] for base in node.bases]


def app_idiom(modules: dict[Path, ast.Module]) -> dict[str, int]:
    """Reactives, Message classes, @on handlers, watch_ methods and data_bind calls."""
    classes = [
        n for tree in modules.values() for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
    ]
    messages = {"Message"}
    while True:  # a class is a message if any base is one (bases may be defined later)
        found = {c.name for c in classes if messages & set(base_names(c))} | {"Message"}
        if found == messages:
            break
        messages = found
    nodes = [n for tree in modules.values() for n in ast.walk(tree)]
    reactives = sum(
        isinstance(n, ast.Call) and ast.unparse(n.func).rsplit(".", 1)[-1] in ("reactive", "var")
        for n in nodes
    )
    handlers = sum(
        ast.unparse(d).startswith("on(")
        for n in nodes
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        for d in n.decorator_list
    )
    return {
        "lines": sum(len(path.read_text(encoding="utf-8").splitlines()) for path in modules),
        "modules": len(modules),
        "reactives": reactives,
        "message_classes": len(messages) - 1,
        "message_classes_direct": sum("Message" in base_names(c) for c in classes),
        "on_handlers": handlers,
        "watch_methods": sum(
            isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("watch_")
            for n in nodes
        ),
        "data_bind_calls": sum(
            isinstance(n, ast.Call) and ast.unparse(n.func).endswith("data_bind") for n in nodes
        ),
    }


def screen_depths() -> dict[str, int]:
    """How many classes the screen that plays each kind of controls sits below Textual's
    ``Screen``: the one game screen, around the kind's play widget (a widget, not a level
    of screen; a kind whose class is a screen counts its own)."""
    from textual.screen import Screen

    from twofold.ui.app.controls import PLAYS
    from twofold.ui.app.screens.game import GameScreen

    depths = {}
    for module, name in PLAYS.values():
        cls = getattr(importlib.import_module(module), name)
        if issubclass(cls, Screen):
            depths[name] = cls.__mro__.index(Screen)
        else:
            depths[f"GameScreen({name})"] = GameScreen.__mro__.index(Screen)
    return depths


def protocol_members(modules: dict[Path, ast.Module]) -> dict[str, int]:
    """The members (attributes, properties, methods) each Protocol of the app declares."""
    found = {}
    for tree in modules.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and "Protocol" in base_names(node):
                members = [
                    n
                    for n in node.body
                    if isinstance(n, ast.AnnAssign | ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                found[node.name] = len(members)
    return found


def statements(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.stmt]:
    """The function's statements, its docstring (or a bare ``...``) left out."""
    return [
        n
        for n in function.body
        if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))
    ]


def is_empty(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A hook for subclasses: nothing, or ``raise NotImplementedError``."""
    body = statements(function)
    abstract = (
        len(body) == 1
        and isinstance(body[0], ast.Raise)
        and "NotImplementedError" in ast.unparse(body[0])
    )
    return abstract or all(isinstance(n, ast.Pass) for n in body)


def is_forwarder(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """One statement that calls a method of something the object holds (``self.part.x()``)."""
    body = statements(function)
    if len(body) != 1 or not isinstance(body[0], ast.Expr | ast.Return):
        return False
    call = body[0].value
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Attribute)
        and isinstance(call.func.value.value, ast.Name)
        and call.func.value.value.id == "self"
    )


def game_screen(modules: dict[Path, ast.Module]) -> dict[str, int]:
    tree = modules[APP / "screens" / "game.py"]
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "GameScreen")
    methods = [n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return {
        "methods": len(methods),
        "empty_hooks": sum(is_empty(m) for m in methods),
        "one_line_forwarders": sum(is_forwarder(m) for m in methods),
    }


def private_textual() -> dict[str, Any]:
    from twofold.ui.app.textual_private import PRIVATE_NAMES

    named = sorted(f"{owner}.{name}" for owner, names in PRIVATE_NAMES.items() for name in names)
    elsewhere = []
    for folder in INSTALLED:
        for path, tree in trees(ROOT / folder).items():
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("textual"):
                    private = [a.name for a in node.names if a.name.startswith("_")]
                    ours = path.name == "textual_private.py"
                    if ("._" in f".{node.module}" or private) and not ours:
                        elsewhere.append(f"{path.relative_to(ROOT)}: {node.module} {private}")
    return {"count": len(named) + len(elsewhere), "names": named, "elsewhere": elsewhere}


def how_named() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for folder in INSTALLED
        for path in (ROOT / folder).rglob("*.py")
        if HOW_NAMED.search(path.stem)
    )


def references() -> dict[str, int]:
    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    counts = {"code": 0, "tests": 0}
    for name in files:
        hits = len(REFERENCE.findall((ROOT / name).read_text(encoding="utf-8")))
        counts["tests" if name.startswith("tests/") else "code"] += hits
    return counts


def setup_package_dir() -> dict[str, str]:
    """setup.py's ``package_dir=`` (import name -> folder), read without running it."""
    module = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    assigned = {
        node.targets[0].id: node.value
        for node in module.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }
    for node in ast.walk(module):
        for keyword in node.keywords if isinstance(node, ast.Call) else []:
            if keyword.arg == "package_dir":
                value = keyword.value
                if isinstance(value, ast.Name):
                    value = assigned[value.id]
                found: dict[str, str] = ast.literal_eval(value)
                return found
    return {}


def layout() -> dict[str, Any]:
    """How the installed package is put together from the repository's folders."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = config["tool"].get("setuptools", {})
    listed = setuptools.get("packages", [])
    mapped = setuptools.get("package-dir") or setup_package_dir()
    return {
        "folders_mapped_into_twofold": len(mapped),
        # folders that stand beside twofold/ and are linked into it, so it is one folder
        "folders_linked_into_twofold": sorted(
            path.name for path in (ROOT / "twofold").iterdir() if path.is_symlink()
        ),
        "packages_listed_by_hand": len(listed) if isinstance(listed, list) else 0,
        "twofold_has_init": (ROOT / "twofold" / "__init__.py").exists(),
        "import_contracts": len(config["tool"]["importlinter"]["contracts"]),
    }


def commits(count: int, rev: str) -> dict[str, Any]:
    log = subprocess.run(
        ["git", "log", "--no-merges", f"-{count}", "--format=%s%x1f%b%x1e", rev],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    entries = [e.strip("\n").split("\x1f", 1) for e in log.split("\x1e") if e.strip()]
    lengths = [len(subject) for subject, _body in entries]
    return {
        "commits": len(entries),
        "median_subject": statistics.median(lengths) if lengths else 0,
        f"over_{SUBJECT_LIMIT}": sum(n > SUBJECT_LIMIT for n in lengths),
        "with_body": sum(bool(body.strip()) for _subject, body in entries),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=50, help="how many commits to read")
    parser.add_argument("--rev", default="HEAD", help="read the commits up to this one")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    modules = trees(APP)
    figures = {
        "app": app_idiom(modules),
        "game_screen_levels_below_Screen": screen_depths(),
        "protocol_members": protocol_members(modules),
        "GameScreen": game_screen(modules),
        "private_textual_names": private_textual(),
        "modules_named_for_how": how_named(),
        "issue_or_spec_references": references(),
        "layout": layout(),
        "commit_subjects": commits(args.commits, args.rev),
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for section, value in figures.items():
        print(f"{section}:")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            print(f"  {key}: {item}")


if __name__ == "__main__":
    main()
