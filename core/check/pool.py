"""A pool of worker processes that read pages: started lazily, reused, and each task isolated.

Each worker is ``python -m core.check.worker``, fed one task at a time over its own pipes, so
that the pool always knows which task a worker holds: a worker that dies (a hostile PDF crashing
its parser, the kernel killing it for memory) or overruns the task's time limit (a huge page) is
killed and replaced, and only that task ends, as a ``Lost`` value with a reason; the run goes on.
Workers are plain child processes rather than ``multiprocessing``'s: no main module is imported
again in them (the desk's is Streamlit), and a crash breaks no shared executor.
Tasks are pickled between this process and its own children only; it refuses any other peer.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import selectors
import signal
import struct
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

_HEADER = struct.Struct("!Q")
#: Seconds a new worker may take to load the readers (about one on a quiet machine) before it is given up.
_STARTUP = 60.0
_ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Lost:
    """A task whose worker crashed or overran its time: the reason says which."""

    reason: str


def write_frame(stream: IO[bytes], value: object) -> None:
    """Write one pickled value, its length first."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> object:
    """Return the next pickled value; EOFError when the other end closed (or died) before a whole frame."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("the pipe closed")
    size = _HEADER.unpack(head)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the pipe closed inside a frame")
    return pickle.loads(data)  # noqa: S301 - frames come from this process's own child only


def cores() -> int:
    """Return the number of cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass
class _Task:
    function: str  # "module:name"
    arg: object
    timeout: float
    future: Future[object]


class _Worker:
    """One child process and the task it holds (a class: it owns a process and its pipes)."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_ROOT), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "core.check.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=_ROOT,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout
        self.task: _Task | None = None
        self.deadline = 0.0

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def death(self) -> str:
        """Return how the worker ended, in words."""
        code = self.process.wait()
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit status {code}"


class PagePool:
    """At most ``size`` worker processes (a class: it owns processes and the thread that watches them)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._lock = threading.Lock()
        self._pending: deque[_Task] = deque()
        self._idle: list[_Worker] = []
        self._busy: list[_Worker] = []
        self._starting: list[_Worker] = []
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self._closed = False

    @property
    def started(self) -> bool:
        """Return True once a worker has been started (a warm pool costs nothing to use again)."""
        return self._thread is not None

    def pids(self) -> list[int]:
        """Return the process ids of the running workers."""
        with self._lock:
            return [w.process.pid for w in (*self._idle, *self._busy, *self._starting) if w.process.poll() is None]

    def submit(self, function: Callable[[Any], object], arg: object, timeout: float) -> Future[object]:
        """Return a future of function(arg) run in a worker: its value, or Lost when the worker died or overran."""
        future: Future[object] = Future()
        name = f"{function.__module__}:{function.__qualname__}"
        with self._lock:
            if self._closed:
                raise RuntimeError("the page pool is closed")
            self._pending.append(_Task(name, arg, timeout, future))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="verbatim-page-pool", daemon=True)
                self._thread.start()
        os.write(self._wake_w, b"x")
        return future

    def close(self) -> None:
        """Stop every worker; tasks not yet done end as Lost."""
        with self._lock:
            self._closed = True
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=10)

    # ------------------------------------------------------------------ the watching thread

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._wake_r, selectors.EVENT_READ)
        try:
            while True:
                with self._lock:
                    if self._closed:
                        break
                    self._assign(selector)
                    deadline = min((w.deadline for w in (*self._busy, *self._starting)), default=None)
                timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
                for key, _ in selector.select(timeout):
                    if key.fileobj == self._wake_r:
                        os.read(self._wake_r, 4096)
                    elif key.data in self._starting:
                        self._ready(key.data, selector)
                    else:
                        self._answer(key.data, selector)
                now = time.monotonic()
                for worker in [w for w in self._starting if w.deadline <= now]:
                    self._not_started(worker, selector, f"did not start within {_STARTUP:.0f} s")
                for worker in [w for w in self._busy if w.deadline <= now]:
                    self._lose(worker, selector, f"took longer than {worker.task.timeout:g} s" if worker.task else "")
        finally:
            self._shutdown(selector)

    def _assign(self, selector: selectors.BaseSelector) -> None:
        """Hand pending tasks to ready workers, starting workers up to size (the caller holds the lock)."""
        workers = len(self._idle) + len(self._busy) + len(self._starting)
        while len(self._pending) > len(self._idle) + len(self._starting) and workers < self.size:
            worker = _Worker()
            worker.deadline = time.monotonic() + _STARTUP
            self._starting.append(worker)
            selector.register(worker.stdout, selectors.EVENT_READ, worker)
            workers += 1
        while self._pending and self._idle:
            worker = self._idle.pop()
            task = self._pending.popleft()
            if not task.future.set_running_or_notify_cancel():
                self._idle.append(worker)
                continue
            try:
                write_frame(worker.stdin, (task.function, task.arg))
            except OSError:  # it died while idle (killed from outside): the page it was handed is lost
                task.future.set_result(Lost(f"The page's reader crashed ({worker.death()}) before reading it"))
                worker.kill()
                continue
            worker.task, worker.deadline = task, time.monotonic() + task.timeout
            self._busy.append(worker)
            selector.register(worker.stdout, selectors.EVENT_READ, worker)

    def _ready(self, worker: _Worker, selector: selectors.BaseSelector) -> None:
        """Take a started worker's first frame: it has loaded the readers and waits for pages."""
        try:
            read_frame(worker.stdout)
        except (EOFError, OSError, pickle.UnpicklingError):
            self._not_started(worker, selector, f"could not start ({worker.death()})")
            return
        selector.unregister(worker.stdout)
        with self._lock:
            self._starting.remove(worker)
            self._idle.append(worker)

    def _not_started(self, worker: _Worker, selector: selectors.BaseSelector, how: str) -> None:
        """Give up a worker that did not start; the pages waiting then fail, rather than wait for ever."""
        selector.unregister(worker.stdout)
        worker.kill()
        with self._lock:
            self._starting.remove(worker)
            failed = [] if self._idle or self._busy or self._starting else list(self._pending)
            if failed:
                self._pending.clear()
        for task in failed:
            if task.future.set_running_or_notify_cancel():
                task.future.set_result(Lost(f"The page's reader {how}"))

    def _answer(self, worker: _Worker, selector: selectors.BaseSelector) -> None:
        try:
            status, value = cast(tuple[str, object], read_frame(worker.stdout))
        except (EOFError, OSError, pickle.UnpicklingError):
            self._lose(worker, selector, f"crashed ({worker.death()})")
            return
        task = worker.task
        selector.unregister(worker.stdout)
        with self._lock:
            self._busy.remove(worker)
            self._idle.append(worker)
        worker.task = None
        if task is not None:
            if status == "ok":
                task.future.set_result(value)
            else:  # a bug in the task: raised in the caller's thread, as in-process
                task.future.set_exception(RuntimeError(f"a page worker's task failed: {value}"))

    def _lose(self, worker: _Worker, selector: selectors.BaseSelector, how: str) -> None:
        selector.unregister(worker.stdout)
        worker.kill()
        with self._lock:
            self._busy.remove(worker)
        if worker.task is not None:
            worker.task.future.set_result(Lost(f"The page's reader {how} while reading it"))

    def _shutdown(self, selector: selectors.BaseSelector) -> None:
        with self._lock:
            workers = [*self._idle, *self._busy, *self._starting]
            self._idle, self._busy, self._starting = [], [], []
            pending = list(self._pending)
            self._pending.clear()
        for worker in workers:
            if worker.task is not None:
                worker.task.future.set_result(Lost("The page's reader was stopped before it finished"))
            worker.kill()
        for task in pending:
            if task.future.set_running_or_notify_cancel():
                task.future.set_result(Lost("The page's reader was stopped before it started"))
        selector.close()


_SHARED: PagePool | None = None
_SHARED_LOCK = threading.Lock()


def shared_pool(size: int | None = None) -> PagePool:
    """Return this process's pool (started lazily, reused by every check), of size workers (default: one per core)."""
    global _SHARED
    want = size if size is not None else cores()
    with _SHARED_LOCK:
        if _SHARED is None or (size is not None and _SHARED.size != want):
            if _SHARED is not None:
                _SHARED.close()
            _SHARED = PagePool(want)
        return _SHARED


@atexit.register
def _close_shared() -> None:
    if _SHARED is not None:
        _SHARED.close()
