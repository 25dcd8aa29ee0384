"""The MCP server's process before it serves: what it holds for its whole life is frozen out of the collector."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

from core.api.server import serve
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
