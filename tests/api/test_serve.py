"""The MCP server's collector: frozen before it serves, paused while calls run and their answers go out."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest
from mcp.server.mcpserver import MCPServer

from core.api.server import collector_paused, paused, serve
from core.settings import MCP_COLLECT_SETTLE_S, Settings


def test_what_the_server_holds_for_its_whole_life_is_frozen_before_it_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serving: list[tuple[str, int]] = []

    def run(
        self: MCPServer[Any], transport: str
    ) -> None:  # in place of the stdio loop: the collector as serving starts
        serving.append((transport, gc.get_freeze_count()))

    monkeypatch.setattr(MCPServer, "run", run)
    gc.unfreeze()
    try:
        assert serve(Settings(db_path=tmp_path / "s.sqlite3"), offline=True, brief_dirs=[]) == 0
    finally:
        gc.unfreeze()  # this test process goes on collecting as before
    ((transport, frozen),) = serving
    # The SDK's and core's modules, classes and schemas: a full collection during a call no longer walks them.
    assert transport == "stdio" and frozen > 100_000


class _Node:
    """An object that can hold itself: a reference cycle only the collector frees."""

    me: object = None


class _Timer:
    """In place of threading.Timer: kept, to be fired by the test when it chooses."""

    made: ClassVar[list[_Timer]] = []

    def __init__(self, interval: float, function: Callable[..., None], args: tuple[Any, ...]) -> None:
        self.interval, self.function, self.args, self.daemon = interval, function, args, False
        _Timer.made.append(self)

    def start(self) -> None:
        assert self.daemon  # a server exiting does not wait for it

    def fire(self) -> None:
        self.function(*self.args)


def test_a_tool_call_runs_with_the_collector_paused_and_its_cycles_are_collected_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import core.api.server as server

    monkeypatch.setattr(server.threading, "Timer", _Timer)
    _Timer.made.clear()
    seen: list[bool] = []
    left: list[weakref.ref[_Node]] = []

    def call() -> dict[str, Any]:
        seen.append(gc.isenabled())
        node = _Node()
        node.me = node  # freed by no reference count: only a collection finds it
        left.append(weakref.ref(node))
        with collector_paused():  # a second call running at the same time
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())  # the other call's end does not start the collector under this one
        return {"run_id": "r1"}

    assert gc.isenabled()
    stale = paused(lambda: {"run_id": "r0"})  # an earlier call, whose timer the next call makes stale
    result = paused(call)
    assert seen == [False, False, False]
    # Still paused while the SDK copies and writes the answer out: on again once it settled.
    assert not gc.isenabled() and left[0]() is not None
    earlier, last = _Timer.made
    assert earlier.interval == last.interval == MCP_COLLECT_SETTLE_S
    earlier.fire()
    assert not gc.isenabled() and left[0]() is not None  # the earlier call's timer does not resume under the last
    last.fire()
    assert gc.isenabled()  # on again once no call runs
    assert left[0]() is None  # the cycle the call left is collected
    assert result.structured_content == {"run_id": "r1"} and not result.is_error
    assert stale.structured_content == {"run_id": "r0"}


def test_a_collection_put_off_after_a_call_runs_when_the_next_call_starts_and_only_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import core.api.server as server

    monkeypatch.setattr(server.threading, "Timer", _Timer)  # a timer that does not fire unless told
    left: list[weakref.ref[_Node]] = []
    with collector_paused(settle=1.0):
        node = _Node()
        node.me = node
        left.append(weakref.ref(node))
        del node
    assert not gc.isenabled() and left[0]() is not None  # put off: the answer is being written
    with collector_paused():  # the next call
        assert left[0]() is None  # the last call's cycle collected before this one adds to it
        assert not gc.isenabled()
    assert gc.isenabled()  # and that call's own end resumes as before


def test_calls_that_keep_overlapping_still_have_their_cycles_collected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy gate may never have no call running: what ended calls left in cycles is collected all the same."""
    import core.api.server as server

    monkeypatch.setattr(server, "MCP_COLLECT_EVERY_S", 0.0)  # as if the calls had overlapped for longer than that
    left: list[weakref.ref[_Node]] = []
    with collector_paused():  # a long call that runs throughout
        with collector_paused():  # a short one that ends first, leaving a cycle behind
            node = _Node()
            node.me = node
            left.append(weakref.ref(node))
            del node
        assert not gc.isenabled()  # the long call still runs with the collector paused
        assert left[0]() is None  # but the short call's cycle is gone
    assert gc.isenabled()
