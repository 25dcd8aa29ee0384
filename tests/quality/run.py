"""``make eval``: run every tests/quality/eval_*.py, print its figures, record them.

Each eval module exposes ``evaluate() -> dict[str, float | int]``; its figures are written to
tests/quality/figures_<name>.json (committed, so a change in quality shows in review) and
compared with tests/quality/floor_<name>.json, the floor that tests/test_quality_<name>.py
enforces in CI. Raise a floor on purpose, in its own commit.
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def compare(figures: dict[str, float | int], floor: dict[str, dict[str, object]]) -> list[str]:
    """Return one line per figure that is worse than its floor (empty when none is)."""
    worse = []
    for key, rule in floor.items():
        if key not in figures:
            worse.append(f"{key}: missing from the evaluation's figures")
            continue
        value, limit = float(figures[key]), float(rule["floor"])  # type: ignore[arg-type]
        better = rule.get("better", "higher")
        if (better == "higher" and value < limit) or (better == "lower" and value > limit):
            worse.append(f"{key}: {value:g} is worse than the floor {limit:g} ({better} is better)")
    return worse


def main(names: list[str]) -> int:
    modules = sorted(p.stem for p in HERE.glob("eval_*.py"))
    if names:
        modules = [m for m in modules if m.removeprefix("eval_") in names]
    failed = False
    for module_name in modules:
        name = module_name.removeprefix("eval_")
        module = importlib.import_module(f"tests.quality.{module_name}")
        started = time.perf_counter()
        figures = module.evaluate()
        took = time.perf_counter() - started
        print(f"== {name} ({took:.1f} s)")
        for key, value in figures.items():
            print(f"  {key:<44} {value:g}" if isinstance(value, float) else f"  {key:<44} {value}")
        (HERE / f"figures_{name}.json").write_text(json.dumps(figures, indent=2, sort_keys=True) + "\n")
        floor_path = HERE / f"floor_{name}.json"
        if floor_path.exists():
            worse = compare(figures, json.loads(floor_path.read_text()))
            for line in worse:
                print(f"  BELOW FLOOR {line}")
            failed = failed or bool(worse)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
