"""core/ keeps the shape the issue of its layout set: no import circle, no module over 400 lines, few entries."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.meta.test_layers import CORE, core_modules

#: A module longer than this does more than one job (STYLE.md, 2).
MAX_LINES = 400
#: core/'s own entries: the pipeline's packages beside a few modules (DESIGN.md, "Layout"); 19 since
#: ``core/api/``, the face other programs call (the Python API and the MCP server over it); 20 since
#: ``core/jobs/``, checks as jobs on a team store (the task queue, the workers, the team-wide per-host limit).
MAX_ENTRIES = 20


def _path(module: str) -> Path:
    base = CORE.parent / module.replace(".", "/")
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def import_graph(core: Path = CORE) -> dict[str, set[str]]:
    """Return module -> the core modules it imports when it loads (imports inside functions left out)."""
    known = set(core_modules(core))
    graph: dict[str, set[str]] = {}
    for module in known:
        tree = ast.parse(_path(module).read_text(encoding="utf-8"))
        found: set[str] = set()
        for node in tree.body:  # module level only: a function's import runs when it is called
            if isinstance(node, ast.Import):
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                subs = {f"{node.module}.{a.name}" for a in node.names} & known
                # "from core.fetch import netguard" needs the submodule, not the package's face.
                found.update(subs if len(subs) == len(node.names) else {node.module, *subs})
        graph[module] = {m for m in found if m in known and m != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return every import circle (a strongly connected group of two or more modules), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_core_has_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_core_s_imports() -> None:
    graph = import_graph()
    assert "core.match.page" in graph["core.match.context"]
    assert "core.models" in graph["core.check.claims"]


def test_no_core_module_is_over_400_lines() -> None:
    long = {m: n for m in core_modules() if (n := len(_path(m).read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_core_has_few_entries() -> None:
    entries = sorted(p.name for p in CORE.iterdir() if p.name != "__pycache__")
    assert "match" in entries and len(entries) <= MAX_ENTRIES, entries
