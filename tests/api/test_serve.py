"""The MCP server's process before it serves: what it holds for its whole life is frozen out of the collector."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

from core.api.server import collector_paused, paused, serve
from core.settings import Settings


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


def test_a_tool_call_runs_with_the_collector_paused_and_its_cycles_are_collected_after() -> None:
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
    result = paused(call)
    assert seen == [False, False, False]
    assert gc.isenabled()  # on again once no call runs
    assert left[0]() is None  # the cycle the call left is collected
    assert result.structured_content == {"run_id": "r1"} and not result.is_error


def test_calls_that_keep_overlapping_still_have_their_cycles_collected(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy gate may never have no call running: what ended calls left in cycles is collected all the same."""
    import core.api.server as server

    monkeypatch.setattr(server, "_COLLECT_EVERY_S", 0.0)  # as if the calls had overlapped for longer than that
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
