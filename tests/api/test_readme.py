"""The README's Python API section cannot go stale: every name it calls is public, every keyword exists."""

from __future__ import annotations

import ast
import inspect
import re

from core import api
from tests.meta.test_readme import ROOT, section


def _example() -> ast.Module:
    text = section((ROOT / "README.md").read_text(encoding="utf-8"), "The Python API")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 1, "the README's Python API section has one python example"
    return ast.parse(blocks[0])


def _on(node: ast.AST, name: str) -> bool:
    """Return True when node is an attribute of the variable name (``api.check_claims``)."""
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name


def test_the_readme_example_uses_public_names_and_real_keywords() -> None:
    used, calls = set(), []
    for node in ast.walk(_example()):
        if _on(node, "api"):
            used.add(node.attr)
        if isinstance(node, ast.Call) and _on(node.func, "api"):
            calls.append((node.func.attr, {k.arg for k in node.keywords}))
    assert used - set(api.__all__) == set()
    assert {"check_claims", "check_brief", "get_source"} <= used
    for name, keywords in calls:
        accepted = set(inspect.signature(getattr(api, name)).parameters)
        assert keywords - accepted == set(), f"api.{name} has no parameter {keywords - accepted}"


def test_the_readme_names_the_report_s_public_members() -> None:
    members = {node.attr for node in ast.walk(_example()) if _on(node, "report")}
    assert members == {"passed", "unchecked", "summary", "to_json", "for_agent"}
    assert members <= set(dir(api.Report))
