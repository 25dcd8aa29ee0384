"""``make eval``: run every tests/quality/eval_*.py, print its figures, record them.

Each eval module exposes ``evaluate() -> dict[str, float | int]`` and ``CORPUS_FILES``, the
files it reads; its figures are written to tests/quality/figures_<name>.json (committed, so a
change in quality shows in review) with the digest of the corpus they were measured on, and
compared with tests/quality/floor_<name>.json, the floor that tests/test_quality_<name>.py
enforces in CI. Raise a floor on purpose, in its own commit; ``--pin NAME`` then records in
floor_NAME.json the corpus digest this run measured with (tests/quality/corpus.py).
"""

from __future__ import annotations

import importlib
import json
import sys
import time
from pathlib import Path

from tests.quality import corpus

HERE = Path(__file__).resolve().parent


def compare(figures: dict[str, float | int], floor: dict[str, dict[str, object]]) -> list[str]:
    """Return one line per figure that is worse than its floor (empty when none is)."""
    worse = []
    for key, rule in floor.items():
        if key == corpus.KEY:  # the pinned digest, not a figure
            continue
        if key not in figures:
            worse.append(f"{key}: missing from the evaluation's figures")
            continue
        value, limit = float(figures[key]), float(rule["floor"])  # type: ignore[arg-type]
        better = rule.get("better", "higher")
        if (better == "higher" and value < limit) or (better == "lower" and value > limit):
            worse.append(f"{key}: {value:g} is worse than the floor {limit:g} ({better} is better)")
    return worse


def floor_text(floor: dict[str, object]) -> str:
    """Return a floor file's text: one figure per line, the pinned digest last."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in floor.items() if k != corpus.KEY]
    if corpus.KEY in floor:
        lines.append(f"  {json.dumps(corpus.KEY)}: {json.dumps(floor[corpus.KEY])}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main(argv: list[str]) -> int:
    pin = "--pin" in argv
    names = [a for a in argv if a != "--pin"]
    modules = sorted(p.stem for p in HERE.glob("eval_*.py"))
    if names:
        modules = [m for m in modules if m.removeprefix("eval_") in names]
    failed = False
    for module_name in modules:
        name = module_name.removeprefix("eval_")
        module = importlib.import_module(f"tests.quality.{module_name}")
        measured = corpus.digest(module.CORPUS_FILES)
        started = time.perf_counter()
        with corpus.watch() as opened:
            figures = module.evaluate()
        took = time.perf_counter() - started
        print(f"== {name} ({took:.1f} s)")
        for key, value in figures.items():
            print(f"  {key:<44} {value:g}" if isinstance(value, float) else f"  {key:<44} {value}")
        print(f"  {'corpus sha256':<44} {measured.sha256} ({measured.files} files)")
        hidden = corpus.undeclared(opened, module.CORPUS_FILES)
        for path in hidden:
            print(f"  UNDECLARED READ {path}: add it to CORPUS_FILES of {module_name}.py")
        failed = failed or bool(hidden)
        recorded = {**figures, corpus.KEY: measured.as_json()}
        (HERE / f"figures_{name}.json").write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
        floor_path = HERE / f"floor_{name}.json"
        if floor_path.exists():
            floor = json.loads(floor_path.read_text())
            if pin and not hidden:
                floor[corpus.KEY] = measured.as_json()
                floor_path.write_text(floor_text(floor))
                print(f"  PINNED the corpus digest in {floor_path.name}")
            problem = corpus.stale(name, floor, measured)
            if problem:
                print(f"  CORPUS CHANGED {problem}")
            worse = compare(figures, floor)
            for line in worse:
                print(f"  BELOW FLOOR {line}")
            failed = failed or bool(worse) or bool(problem)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
