"""``make bench``: run every tests/bench/bench_*.py and print its lines.

Each bench module exposes ``run() -> list[str]``: times, each with its ratio against a simple
baseline measured in the same run, most of them the best of a few runs (``best_of``).
Benchmarks never fail a build; floors are for quality.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent


def best_of(call: Callable[[], object], repeat: int = 3, before: Callable[[], None] | None = None) -> float:
    """Return the best of repeat timings of call (before runs untimed ahead of each): noise only adds time."""
    times = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main(names: list[str]) -> int:
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if names:
        modules = [m for m in modules if m.removeprefix("bench_") in names]
    for module_name in modules:
        started = time.perf_counter()
        lines = importlib.import_module(f"tests.bench.{module_name}").run()
        print(f"== {module_name.removeprefix('bench_')} ({time.perf_counter() - started:.1f} s)")
        for line in lines:
            print(f"  {line}")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
