"""The MCP server through a real MCP session: the SDK's stdio client spawns ``python -m core mcp``.

Sources are the sample brief's real corpus pages served on loopback; the store is a real
SQLite file that the desk then reads.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from streamlit.testing.v1 import AppTest

from core.report.wording import FOUND_IS_NOT_SUPPORT
from core.store import Store
from tests.api.test_api import SAMPLE
from tests.builders import ROOT, every, mcp_session, sample_claims, sample_on_loopback
from tests.servers import LoopbackServer


def call(args: list[str], *calls: tuple[str, dict[str, Any]], client: str = "research-agent") -> list[Any]:
    """Return the results of tool calls made in order in one MCP session with a server started with args."""

    async def session() -> list[Any]:
        async with mcp_session(*args, client=client) as mcp:
            return [await mcp.call_tool(name, arguments) for name, arguments in calls]

    return anyio.run(session)


def answer(result: Any) -> dict[str, Any]:
    """Return a tool's structured answer, failing with its error text when the call failed."""
    assert not result.is_error, result.content[0].text
    data: dict[str, Any] = result.structured_content
    return data


def error(result: Any) -> str:
    """Return a failed tool call's message (the SDK prefixes it with the tool's name)."""
    assert result.is_error and result.structured_content is None
    text: str = result.content[0].text
    return text


def test_every_tool_says_what_a_verdict_means_and_does_not() -> None:
    async def listed() -> Any:
        async with mcp_session("--no-cache") as mcp:
            return (await mcp.list_tools()).tools

    tools = {t.name: t for t in anyio.run(listed)}
    assert set(tools) == {"check_claims", "check_brief", "get_source", "get_claims"}
    for name in ("check_claims", "check_brief"):
        words = tools[name].description
        assert FOUND_IS_NOT_SUPPORT in words
        assert "not_checked (the page could not be read: NOT a failure and NOT a wrong quote" in words
        assert "labelled diagnosis_only" in words and "does not make the claim true" in words
        # A claim without a quote: its passages and figure places, how to use them, and that it passed unchecked.
        assert "near_miss.candidates are the page's passages closest to the claim" in words
        assert "resubmit it with the page's exact words as its quote, and the code decides" in words
        assert "gate.unchecked lists the claims that passed without being checked" in words
    claim = tools["check_claims"].input_schema["$defs"]["ClaimIn"]
    assert set(claim["properties"]) == {"claim", "url", "quote", "id"} and claim["required"] == ["claim", "url"]
    assert "Never fetches" in tools["get_source"].description
    words = tools["get_claims"].description
    assert tools["get_source"].annotations.read_only_hint is True
    assert tools["get_claims"].annotations.read_only_hint is True and "Never checks again" in words
    for name in ("check_claims", "check_brief", "get_claims"):
        assert "get_claims(run_id, start=claims_next)" in tools[name].description
    assert tools["check_claims"].output_schema["type"] == "object"


def test_an_agent_checks_its_claims_and_the_editor_finds_the_run_in_history(server: LoopbackServer) -> None:
    db = Path(os.environ["VERBATIM_DB"])  # the desk's store in this test
    claims = sample_claims(server)
    checked, source = call(
        ["--allow-private", "--db", str(db)],
        ("check_claims", {"claims": claims}),
        ("get_source", {"url": claims[0]["url"], "start": 0, "end": 0}),
    )
    report = answer(checked)
    assert json.loads(checked.content[0].text) == report  # what the model reads is the same JSON
    assert [c["verdict"] for c in report["claims"]] == SAMPLE
    assert report["client"] == "research-agent" and report["run_id"]
    assert report["gate"]["failing"] == ["c3", "c4", "c7", "c8", "c9", "c10"] and not report["gate"]["passed"]
    assert report["gate"]["unchecked"] == ["c6"]  # the claim without a quote passed, unchecked, and says so
    unquoted = report["claims"][5]
    assert (unquoted["verdict"], unquoted["unchecked"], unquoted["fails_gate"]) == ("no_quote", True, False)
    assert unquoted["near_miss"]["candidates"] and set(unquoted["near_miss"]["candidates"][0]) >= {
        "holds",
        "lacks",
        "signs",
    }
    assert "resubmit it with one passage's exact words as its quote" in unquoted["near_miss"]["candidates_use"]
    first, dropped = report["claims"][0], report["claims"][7]
    assert first["matched"][0]["page_text"].startswith("CPython 3.11 is an average of 25% faster")
    assert dropped["near_miss"]["diagnosis_only"] and "experimental support" in dropped["near_miss"]["page_words"]
    evidence = answer(source)
    assert evidence["sha256"] == first["source"]["sha256"] and evidence["excerpt"]["start"] == 0
    with Store(db) as store:
        (run,) = store.list_runs()
        assert (run.run_id, run.client) == (report["run_id"], "research-agent")
    at = AppTest.from_file(str(ROOT / "ui" / "app.py"), default_timeout=60).run()
    at.switch_page("views/history.py").run()
    shown = "\n".join(h.proto.body for h in at.html)
    assert f"run {report['run_id']} · asked by agent research-agent" in shown


def _timeless(claim: dict[str, Any]) -> dict[str, Any]:
    """Return an agent's claim without its source's fetch time: a dead link is asked again at every check."""
    return {**claim, "source": {k: v for k, v in claim["source"].items() if k != "fetched_at"}}


def test_an_agent_with_little_room_reads_a_long_answer_a_page_at_a_time(server: LoopbackServer, tmp_path: Path) -> None:
    claims = sample_claims(server)  # ten claims
    args = ["--allow-private", "--db", str(tmp_path / "s.sqlite3")]

    async def session() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any], str]:
        async with mcp_session(*args) as mcp:
            await mcp.call_tool("check_claims", {"claims": claims})  # the sources fetched: every answer reads the store
            full = answer(await mcp.call_tool("check_claims", {"claims": claims}))
            pages = [answer(await mcp.call_tool("check_claims", {"claims": claims, "max_claims": 4}))]
            run_id = pages[0]["run_id"]
            while pages[-1]["claims_next"] is not None:
                more = {"run_id": run_id, "start": pages[-1]["claims_next"], "count": 4}
                pages.append(answer(await mcp.call_tool("get_claims", more)))
            failing = {"run_id": run_id, "ids": [*pages[0]["gate"]["failing"], "c99"]}
            picked = answer(await mcp.call_tool("get_claims", failing))
            none = answer(await mcp.call_tool("check_claims", {"claims": claims, "max_claims": 0}))
            return full, pages, picked, none, run_id

    async def another_session(run_id: str) -> Any:
        async with mcp_session(*args) as mcp:
            return await mcp.call_tool("get_claims", {"run_id": run_id})

    full, pages, picked, none, run_id = anyio.run(session)
    assert (full["claims_total"], full["claims_start"], full["claims_next"]) == (10, 0, None)
    assert [(p["claims_start"], len(p["claims"]), p["claims_next"]) for p in pages] == [
        (0, 4, 4),
        (4, 4, 8),
        (8, 2, None),
    ]
    # Page by page, the same claims as one whole answer, in order; the gate of the first covers all ten.
    assert [_timeless(c) for p in pages for c in p["claims"]] == [_timeless(c) for c in full["claims"]]
    assert pages[0]["gate"] == full["gate"] and pages[0]["summary"] == full["summary"]
    assert [c["id"] for c in picked["claims"]] == full["gate"]["failing"] and picked["unknown_ids"] == ["c99"]
    assert none["claims"] == [] and none["claims_next"] == 0 and none["gate"] == full["gate"]
    # Another session's server reads no run it did not check, though the store holds it.
    assert "is not a run this server checked" in error(anyio.run(another_session, run_id))


def test_get_source_and_offline_read_the_stored_copy_only(server: LoopbackServer, tmp_path: Path) -> None:
    claims = sample_claims(server)[:1]
    args = ["--allow-private", "--db", str(tmp_path / "s.sqlite3")]
    (checked,) = call(args, ("check_claims", {"claims": claims}))
    fragment = answer(checked)["claims"][0]["matched"][0]
    span = {"url": claims[0]["url"], "start": fragment["start"], "end": fragment["end"], "chars": 40}
    server.requests.clear()
    read, offline = call([*args, "--offline"], ("get_source", span), ("check_claims", {"claims": claims}))
    excerpt = answer(read)["excerpt"]
    assert excerpt["start"] == fragment["start"] - 40 and excerpt["end"] == fragment["end"] + 40
    assert excerpt["text"][40:-40] == fragment["page_text"]
    assert answer(offline)["claims"][0]["verdict"] == "verified"
    assert server.requests == []  # the stored copy was read, and nothing fetched


def test_check_brief_takes_text_or_a_path_inside_the_allowed_folder(server: LoopbackServer, tmp_path: Path) -> None:
    folder = tmp_path / "briefs"
    folder.mkdir()
    brief = sample_on_loopback(server) + "\nThis sentence cites nothing at all, and is listed as uncited.\n"
    (folder / "python-releases.md").write_text(brief, encoding="utf-8")
    args = ["--allow-private", "--no-cache", "--brief-dir", str(folder)]
    as_text, as_path = call(
        args,
        ("check_brief", {"text": brief, "name": "python-releases.md"}),
        ("check_brief", {"path": "python-releases.md", "max_claims": 3}),
    )
    text, path = answer(as_text), answer(as_path)
    assert [c["verdict"] for c in text["claims"]] == SAMPLE and [c["verdict"] for c in path["claims"]] == SAMPLE[:3]
    assert (path["claims_total"], path["claims_next"], path["gate"]) == (10, 3, text["gate"])
    assert text["brief"] == path["brief"] == {"name": "python-releases.md", "format": "markdown"}
    assert any("cites nothing at all" in s for s in text["uncited"])
    assert "unused_links" in text


def test_five_hundred_claims_come_back_in_one_call(server: LoopbackServer) -> None:
    (checked,) = call(["--allow-private", "--no-cache"], ("check_claims", {"claims": sample_claims(server, 50)}))
    report = answer(checked)
    assert len(report["claims"]) == 500
    assert [c["verdict"] for c in report["claims"]] == SAMPLE * 50
    assert len({c["id"] for c in report["claims"]}) == 500


def test_hostile_requests_get_clear_tool_errors_and_nothing_refused_is_fetched(
    server: LoopbackServer, tmp_path: Path
) -> None:
    folder, outside = tmp_path / "briefs", tmp_path / "secret.md"
    folder.mkdir()
    outside.write_text(sample_on_loopback(server), encoding="utf-8")
    (folder / "escape.md").symlink_to(outside)
    claims = sample_claims(server)
    server.requests.clear()
    private, to_store, up, link, nul, huge, broken, shape, after = call(
        ["--db", str(tmp_path / "s.sqlite3"), "--brief-dir", str(folder)],  # private addresses not allowed
        ("check_claims", {"claims": claims}),
        ("get_source", {"url": claims[0]["url"]}),
        ("check_brief", {"path": "../secret.md"}),
        ("check_brief", {"path": "escape.md"}),
        ("check_brief", {"path": "brief\x00.md"}),
        ("check_brief", {"text": "x" * (50 << 20)}),
        ("check_brief", {"text": '{"claims": [{"claim": "Python 3.11 is faster", "url": '}),
        ("check_claims", {"claims": "CPython 3.11 is an average of 25% faster"}),
        ("check_claims", {"claims": claims[:1]}),
    )
    refused = answer(private)["claims"]
    every(refused, lambda c: c["verdict"] == "blocked" and "not a public internet address" in c["reasons"][0])
    assert server.requests == []  # refused before any connection
    assert "This server does not read 'http://127.0.0.1:" in error(to_store)
    assert "not a public internet address" in error(to_store)
    assert error(up) == (
        f"Error executing tool check_brief: ../secret.md is outside the folders this server reads briefs from "
        f"({folder.resolve()}): put the brief there, or pass its text."
    )
    assert "escape.md is outside the folders this server reads briefs from" in error(link)
    assert error(nul) == (
        f"Error executing tool check_brief: 'brief\\x00.md' is not a path this server can read (embedded null byte): "
        f"give a brief in {folder.resolve()}."
    )
    assert error(huge) == (
        "Error executing tool check_brief: brief from research-agent is 50 MB, more than the 20 MB a brief may be. "
        "Split it into smaller briefs, or remove images and attachments."
    )
    assert error(broken).startswith(
        "Error executing tool check_brief: brief from research-agent is not valid JSON "
        "(line 1, column 55: Expecting value)."
    )
    assert "Input should be a valid list" in error(shape)
    assert answer(after)["claims"][0]["verdict"] == "blocked"  # the session goes on after every refusal
    assert server.requests == []


@pytest.mark.parametrize("given", [{}, {"text": "a", "path": "b.md"}])
def test_check_brief_wants_text_or_a_path(given: dict[str, str]) -> None:
    (result,) = call(["--no-cache"], ("check_brief", given))
    assert error(result) == (
        "Error executing tool check_brief: Give either the brief's text or its path, not both and not neither."
    )


def test_without_brief_dir_no_file_is_read(tmp_path: Path) -> None:
    (result,) = call(["--no-cache"], ("check_brief", {"path": str(ROOT / "README.md")}))
    assert error(result) == (
        "Error executing tool check_brief: This server reads no brief files (it was started without --brief-dir): "
        "pass the brief's text instead."
    )


def test_an_answer_is_the_same_json_as_text_and_structured_and_a_lone_surrogate_becomes_a_replacement() -> None:
    from core.api.server import answer

    plain = {"claims": [{"claim": "Zürich grew 3%", "verdict": "verified"}], "gate": {"passed": True}}
    sent = answer(plain)
    assert json.loads(sent.content[0].text) == sent.structured_content == plain
    assert sent.content[0].text == json.dumps(plain, ensure_ascii=False, separators=(",", ":"))  # compact, UTF-8
    # JSON allows "\\ud800": echoed back, it could not be written as UTF-8, and the agent would wait forever.
    odd = answer({"claims": [{"claim": "faster \ud800"}]})
    assert odd.structured_content == {"claims": [{"claim": "faster \ufffd"}]}
    assert json.loads(odd.content[0].text) == odd.structured_content
    odd.content[0].text.encode("utf-8")
