"""The README cannot go stale: its two commands exist, CI runs its test command, its module map is the tree.

The module map is the markdown table under "## Module map"; its first column holds backticked
paths, each a file, a folder (ending in "/") or a glob (``core/brief*.py``, ``core/fetch/*.py``)
whose "*" stays inside one path segment. Every path must exist, and every package and
top-level module of core/ (and ui/, tests/) must be named by one of them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def section(readme: str, title: str) -> str:
    """Return the text under a "## title" heading, up to the next heading of that level."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", readme, re.MULTILINE | re.DOTALL)
    assert match, f"the README has no '## {title}' section"
    return match.group(1)


def commands(readme: str) -> list[str]:
    """Return the commands the README's "The two commands" section shows (its indented code lines)."""
    return [line.strip() for line in section(readme, "The two commands").splitlines() if line.startswith("    ")]


def make_targets(makefile: str) -> set[str]:
    """Return the Makefile's target names (every "name:" at the start of a line, phony or not)."""
    return {m.group(1) for m in re.finditer(r"^([A-Za-z][\w.-]*)\s*:(?!=)", makefile, re.MULTILINE)}


def map_paths(readme: str) -> list[str]:
    """Return every backticked path in the first column of the module map's table, in order."""
    rows = [line for line in section(readme, "Module map").splitlines() if line.startswith("|")]
    body = rows[2:]  # after the header row and the |---| row
    return [p for row in body for p in re.findall(r"`([^`]+)`", row.split("|")[1])]


def matches(root: Path, pattern: str) -> list[Path]:
    """Return the files and folders a map path names (a glob's "*" never crosses a "/")."""
    pattern = pattern.rstrip("/")
    if any(c in pattern for c in "*?["):
        return sorted(root.glob(pattern))
    path = root / pattern
    return [path] if path.exists() else []


def unnamed(root: Path, patterns: list[str]) -> list[str]:
    """Return the packages and modules of core/ (and ui/, tests/) that no map path names."""
    named = {p for pattern in patterns for p in matches(root, pattern)}
    wanted = [root / "ui", root / "tests"]
    for entry in sorted((root / "core").iterdir()):
        if (entry.is_dir() and (entry / "__init__.py").exists()) or (
            entry.suffix == ".py" and entry.name not in ("__init__.py", "__main__.py")
        ):
            wanted.append(entry)
    # A folder counts as named when the map names it or something inside it.
    return [
        str(w.relative_to(root)) + ("/" if w.is_dir() else "")
        for w in wanted
        if w not in named and not any(w in n.parents for n in named)
    ]


def test_the_two_commands_are_make_targets_and_ci_runs_the_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = commands(readme)
    assert [c.split()[0] for c in shown] == ["make", "make"], f"the README shows {shown}"
    targets = make_targets((ROOT / "Makefile").read_text(encoding="utf-8"))
    missing = [c for c in shown if c.split()[1] not in targets]
    assert missing == [], f"the README's {missing} have no Makefile target"
    said = re.search(r"`\.ci/run` calls `([^`]+)`", readme)
    assert said and said.group(1) in shown, "the README must say which of its commands `.ci/run` calls"
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert said.group(1) in ci, f".ci/run does not call {said.group(1)}"


def test_every_path_of_the_module_map_exists() -> None:
    paths = map_paths((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(paths) >= 10, paths
    missing = [p for p in paths if not matches(ROOT, p)]
    assert missing == [], f"the README's module map names paths that do not exist: {missing}"


def test_the_module_map_names_every_package_and_module_of_core() -> None:
    paths = map_paths((ROOT / "README.md").read_text(encoding="utf-8"))
    missing = unnamed(ROOT, paths)
    assert missing == [], f"add these to the README's module map, one line each: {missing}"


def test_map_checks_fail_on_a_stale_map(tmp_path: Path) -> None:
    for name in ("core/brief/__init__.py", "core/brief/read.py", "core/cli.py", "core/models.py", "ui/app.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    readme = (
        "## Module map\n\n| path | what it does |\n|---|---|\n"
        "| `core/brief*.py`, `core/cli.py` | old layout |\n| `ui/` | the desk |\n| `tests/` | tests |\n\n## Next\n"
    )
    paths = map_paths(readme)
    assert paths == ["core/brief*.py", "core/cli.py", "ui/", "tests/"]
    assert [p for p in paths if not matches(tmp_path, p)] == ["core/brief*.py"]  # "*" does not reach brief/read.py
    assert unnamed(tmp_path, paths) == ["core/brief/", "core/models.py"]
    assert unnamed(tmp_path, [*paths, "core/brief/", "core/models.py"]) == []
    assert unnamed(tmp_path, [*paths, "core/brief/*.py", "core/*.py"]) == []
