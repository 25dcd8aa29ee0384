"""The tests say what they prove: no timed asserts, no all() over what may be empty.

A test asserts an outcome, never a duration (STYLE.md, 10 and 16): no test module outside
tests/bench/ reads a clock; helpers that wait for a server may. A collection is checked item
by item with ``tests.builders.every``, which fails on an empty collection; a bare
``assert all(...)`` holds for nothing at all, exactly when the case under test went wrong.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.builders import every

TESTS = Path(__file__).resolve().parents[1]
#: Reading one of these in a test module times something.
CLOCKS = frozenset(
    {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "process_time", "process_time_ns", "time_ns"}
)


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if ".venv" not in p.parts)


def _test_modules() -> list[Path]:
    return [p for p in _modules() if p.name.startswith("test_") and "bench" not in p.relative_to(TESTS).parts]


def _where(path: Path, node: ast.AST) -> str:
    name = path.relative_to(TESTS.parent) if path.is_relative_to(TESTS.parent) else path.name
    return f"{name}:{getattr(node, 'lineno', 0)}"


def bare_all_in_asserts(path: Path) -> list[str]:
    """Return where an assert statement of the file calls all()."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assert):
            for inner in ast.walk(node.test):
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "all":
                    found.append(_where(path, inner))
    return found


def clock_reads(path: Path) -> list[str]:
    """Return where the file reads a clock (time.monotonic(), perf_counter, time.time(), ...)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "time":
            if node.attr in CLOCKS or node.attr == "time":
                found.append(_where(path, node))
        elif isinstance(node, ast.ImportFrom) and node.module == "time":
            found += [_where(path, node) for alias in node.names if alias.name in CLOCKS | {"time"}]
    return found


def test_the_scans_see_the_test_modules() -> None:
    names = {p.relative_to(TESTS).as_posix() for p in _test_modules()}
    assert {"fetch/test_fetcher.py", "fetch/test_hostile.py", "meta/test_honest_tests.py"} <= names
    assert "bench/bench_fetch.py" not in names


def test_no_assert_calls_all() -> None:
    found = [where for path in _modules() for where in bare_all_in_asserts(path)]
    assert found == [], "use tests.builders.every(items, holds), which fails on an empty collection: " + ", ".join(
        found
    )


def test_no_test_module_reads_a_clock() -> None:
    found = [where for path in _test_modules() for where in clock_reads(path)]
    assert found == [], "assert what was decided (a fake clock, core.fetch.clock), not how long it took: " + ", ".join(
        found
    )


def test_the_scans_catch_what_they_forbid(tmp_path: Path) -> None:
    bad = tmp_path / "test_bad.py"
    bad.write_text(
        "import time\nfrom time import perf_counter\n\n"
        "def test_x(items):\n"
        "    started = time.monotonic()\n"
        "    assert items and all(i > 0 for i in items)\n"
        "    assert time.time() - started < 4.0\n",
        encoding="utf-8",
    )
    good = tmp_path / "test_good.py"
    good.write_text("import time\n\ndef test_y(items):\n    time.sleep(0.1)\n    ok = all(items)\n", encoding="utf-8")
    assert bare_all_in_asserts(bad) == ["test_bad.py:6"]
    assert sorted(clock_reads(bad)) == ["test_bad.py:2", "test_bad.py:5", "test_bad.py:7"]
    assert bare_all_in_asserts(good) == [] and clock_reads(good) == []


# --------------------------------------------------------------------------- every


def test_every_fails_on_an_empty_collection() -> None:
    with pytest.raises(AssertionError, match="every\\(\\) over an empty collection"):
        every([], lambda x: True)
    with pytest.raises(AssertionError, match="empty"):
        every((x for x in ()), bool)


def test_every_names_the_first_item_that_does_not_hold() -> None:
    with pytest.raises(AssertionError, match=r"item 1 of 3 does not hold: \(4, 2\)"):
        every([(1, 2), (4, 2), (5, 1)], lambda span: span[0] < span[1])


def test_every_passes_when_each_item_holds() -> None:
    every(["412,345"], lambda text: text == "412,345")
    every(range(1, 4), lambda n: n > 0)
