"""Core's modules import each other in one direction only: no cycle, lazy imports too.

``lint-imports`` keeps core's layers contract (pyproject.toml); this reads the same graph
(grimp, import-linter's own, which sees an import inside a function as any other) and
looks for a cycle directly, so a module left out of the contract cannot hide one.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: core's import graph as grimp reads it, run where the package stands whole: grimp walks
#: folders, and core/ stands beside twofold/ (tools/package_tree.py)
GRAPH = """
import grimp, json
graph = grimp.build_graph("twofold", include_external_packages=False)
core = {m for m in graph.modules if m == "twofold.core" or m.startswith("twofold.core.")}
print(json.dumps({m: sorted(graph.find_modules_directly_imported_by(m) & core) for m in core}))
"""


def strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components of a directed graph, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    components.append(component)
    return components


def test_the_search_finds_a_cycle_where_there_is_one() -> None:
    found = strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    assert {"a", "b", "c"} in found and {"d"} in found


def core_imports(tmp_path: Path) -> dict[str, set[str]]:
    """Each module of core -> the modules of core it imports, lazy imports too."""
    spec = importlib.util.spec_from_file_location("package_tree", ROOT / "tools/package_tree.py")
    assert spec and spec.loader
    package_tree = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(package_tree)
    tree = package_tree.stage(tmp_path / "package")
    run = subprocess.run(
        [sys.executable, "-c", GRAPH], cwd=tree, capture_output=True, text=True, check=True
    )
    return {module: set(imported) for module, imported in json.loads(run.stdout).items()}


def test_no_module_of_core_is_in_an_import_cycle(tmp_path: Path) -> None:
    edges = core_imports(tmp_path)
    assert "twofold.core._rules" in edges["twofold.core.game"]  # the graph is core's, whole
    cycles = [sorted(c) for c in strongly_connected(edges) if len(c) > 1]
    assert cycles == []
