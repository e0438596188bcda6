"""Core's modules import each other in one direction only: no cycle, lazy imports too.

``lint-imports`` keeps core's layers contract (pyproject.toml); this reads the same graph
(grimp, import-linter's own, which sees an import inside a function as any other) and
looks for a cycle directly, so a module left out of the contract cannot hide one.
"""

from __future__ import annotations

import grimp


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


def core_imports() -> dict[str, set[str]]:
    """Each module of core -> the modules of core it imports, lazy imports too."""
    graph = grimp.build_graph("twofold", include_external_packages=False, cache_dir=None)
    core = {m for m in graph.modules if m == "twofold.core" or m.startswith("twofold.core.")}
    return {module: graph.find_modules_directly_imported_by(module) & core for module in core}


def test_no_module_of_core_is_in_an_import_cycle() -> None:
    edges = core_imports()
    assert "twofold.core._rules" in edges["twofold.core.game"]  # the graph is core's, whole
    cycles = [sorted(c) for c in strongly_connected(edges) if len(c) > 1]
    assert cycles == []
