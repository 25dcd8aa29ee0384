"""``python -m core.check.worker``: one page worker of ``core.check.pool``, reading tasks on stdin, answering on stdout.

Each task is a pickled ("module:function", argument) frame, answered by ("ok", value) or
("error", what was raised). Anything a library prints goes to stderr, never into the frames.
It runs only functions of Verbatim's own ``core`` package, and only for the pool that started it.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import cast

from core.check.pool import read_frame, write_frame


def main() -> int:
    """Serve tasks until stdin closes; return the exit status."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    tasks = sys.stdin.buffer
    importlib.import_module("core.check.source")  # pay the imports before the first page's time starts
    write_frame(answers, ("ready", os.getpid()))
    while True:
        try:
            function, arg = cast(tuple[str, object], read_frame(tasks))
        except EOFError:
            return 0
        module, _, name = str(function).partition(":")
        if module.split(".")[0] != "core":
            write_frame(answers, ("error", f"refused to run {function!r}: not a function of core"))
            continue
        try:
            value = ("ok", getattr(importlib.import_module(module), name)(arg))
        except Exception as exc:  # a bug in the task: the pool raises it on the caller's side
            value = ("error", f"{type(exc).__name__}: {exc}")
        write_frame(answers, value)


if __name__ == "__main__":
    sys.exit(main())
