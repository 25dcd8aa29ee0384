"""The layers hold: core/ never imports streamlit, and never imports ui/ (STYLE.md, 1).

Two checks, because each misses what the other sees: importing every module of core/ in a
fresh interpreter catches streamlit pulled in through a third module; reading every file of
core/ catches an import that only runs inside a function, or by name through importlib.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "core"
#: Top-level packages core/ must never import.
FORBIDDEN = ("streamlit", "ui")


def core_modules(core: Path = CORE) -> list[str]:
    """Return the dotted name of every module under core/ (packages included; __main__ left out: it runs the CLI)."""
    names = []
    for path in sorted(core.rglob("*.py")):
        parts = path.relative_to(core.parent).with_suffix("").parts
        if parts[-1] == "__main__":
            continue
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def forbidden_imports(path: Path) -> list[str]:
    """Return each import of streamlit or ui in a file (import, from-import, importlib or __import__ by name)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
        found += [f"{where}:{node.lineno} imports {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    return found


_IMPORT_ALL = """
import importlib, json, sys
for name in json.loads(sys.argv[1]):
    importlib.import_module(name)
print(json.dumps(sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[2])))))
"""


def test_every_core_module_is_found() -> None:
    modules = core_modules()
    assert {"core", "core.cli", "core.check", "core.fetch", "core.fetch.fetcher", "core.report.as_html"} <= set(modules)
    assert "core.__main__" not in modules


def test_importing_all_of_core_loads_neither_streamlit_nor_ui() -> None:
    modules = core_modules()
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL, json.dumps(modules), json.dumps(FORBIDDEN)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [], f"importing core loaded {done.stdout.strip()}"


def test_no_file_of_core_imports_streamlit_or_ui() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert len(files) > 20, files  # the walk found core/
    found = [line for path in files for line in forbidden_imports(path)]
    assert found == [], "core/ must not import streamlit or ui/: " + "; ".join(found)


def test_the_static_check_sees_every_spelling(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import streamlit as st\n"
        "from ui.draw import draw\n"
        "import importlib\n"
        "def late():\n"
        "    import streamlit.components.v1\n"
        "    return importlib.import_module('ui.app'), __import__('streamlit')\n"
        "from . import uix\n"
        "import uikit\n",
        encoding="utf-8",
    )
    assert forbidden_imports(bad) == [
        "bad.py:1 imports streamlit",
        "bad.py:2 imports ui.draw",
        "bad.py:5 imports streamlit.components.v1",
        "bad.py:6 imports ui.app",
        "bad.py:6 imports streamlit",
    ]
