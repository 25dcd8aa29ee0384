"""The MCP server (``python -m core mcp``): research agents check their claims before an editor sees them.

Tools ``check_claims``, ``check_brief``, ``get_source`` and ``get_claims`` over stdio, built with the official
MCP Python SDK's ``MCPServer``. Each call goes through ``core.api`` with the fetch policy the
server was started with (no private addresses unless ``--allow-private``, the allowlist, every
limit): an agent can narrow nothing and widen nothing. Runs go into the same store as the
desk's, under the name the agent's MCP client gave, so an editor opens them in History.
A brief is read from a path only inside a folder the server was started with (``--brief-dir``).
Nothing but protocol goes to stdout: logs go to stderr, and while serving the SDK points the
process's own stdout at stderr so that a stray print cannot corrupt the protocol.
"""

from __future__ import annotations

import gc
import json
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, TextIO

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field
from pydantic_core import PydanticSerializationError, to_json

from core import api
from core.api.calls import claims_brief, read_brief_file, run
from core.api.feedback import agent_page, agent_report
from core.brief import read_brief
from core.errors import RequestError, VerbatimError
from core.report import clean_text
from core.report.wording import FOUND_IS_NOT_SUPPORT
from core.settings import MCP_COLLECT_EVERY_S, MCP_COLLECT_SETTLE_S, Settings
from core.store import Store, open_store

logger = logging.getLogger("verbatim.mcp")

#: What every tool says about verdicts, so that an agent reads a failure for what it is.
VERDICTS_NOTE = (
    "Verdicts: verified (the quote is on the page word for word and the claim's figures are in it; "
    f"{FOUND_IS_NOT_SUPPORT}), figures_mismatch (the quote is there, a figure of the claim is not in it), "
    "needs_review (the quote is there but cut away a 'not' or an 'unless', is too short, or the claim says "
    "the opposite of it: negation_differs), quote_not_found "
    "(the page was read and the quote is not on it), no_quote (NOT checked: the claim offers no quote, so "
    "its words were not checked against the page, only its figures; it passes the gate unchecked and is listed "
    "in gate.unchecked), "
    "dead_link (possibly an invented source), "
    "not_checked (the page could not be read: NOT a failure and NOT a wrong quote; do not rewrite or retry the "
    "quote because of it), blocked (this server's policy refuses the URL; nothing was fetched). Each claim "
    "carries 'meaning', saying what to do. A near_miss is the page's exact words closest to a failed quote, "
    "labelled diagnosis_only: it explains the failure, it is never a verdict, and replacing the quote with it "
    "does not make the claim true. gate.passed is the --strict gate: it fails on quote_not_found, "
    "figures_mismatch and dead_link only; gate.unchecked lists the claims that passed without being checked "
    "(no quote), so a passed gate with claims in gate.unchecked is not a checked brief. For a claim without a "
    "quote, near_miss.candidates are the page's passages closest to the claim, best first, with the claim's "
    "words, names and figures each holds and lacks and its signs (a negation, hedge or condition where the "
    "claim parts from it), and each figure says where it stands on the page (where: passage, elsewhere with "
    "around, or nowhere with instead; a figure nowhere on the cited page makes the claim figures_mismatch). "
    "Use them this way: correct the claim to what the page says, then resubmit it with the page's exact words "
    "as its quote, and the code decides; never take a candidate as a verdict."
)

_CLIENT_MAX = 100  # characters of an MCP client's name kept on a run: a name, not a payload

#: How an agent with little room reads a long brief's answer.
PAGING_NOTE = (
    "A claim's record takes about two thousand characters: with max_claims the answer holds only the first that "
    "many claims (0: none) while run_id, summary and gate still cover them all, and claims_next says where "
    "get_claims(run_id, start=claims_next) goes on; get_claims(run_id, ids=gate.failing) reads the failing ones."
)
#: A tool argument: how many claims the answer holds at most.
MaxClaims = Annotated[
    int | None,
    Field(ge=0, description="At most this many claims in the answer, in the brief's order (0: none; default all)."),
]

#: A tool's answer: the JSON object (the published output schema) and the same JSON as text for the model.
Answer = Annotated[CallToolResult, dict[str, Any]]


def answer(data: dict[str, Any]) -> CallToolResult:
    """Return data as a tool result: structured, and as compact JSON text (the SDK's own is indented, twice as long).

    A lone surrogate sent in (JSON allows "\\ud800") and echoed back could not be written as
    UTF-8: the SDK would drop the answer and leave the agent waiting. It becomes U+FFFD.
    """
    try:
        # pydantic-core's encoder: the same compact JSON as json.dumps(ensure_ascii=False), in half the time
        # (a 500-claim answer is 1 MB); it refuses a lone surrogate instead of writing it.
        text = to_json(data).decode("utf-8")
    except PydanticSerializationError:
        text = clean_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        data = json.loads(text)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


_calls_lock = threading.Lock()
_calls_running = 0
_collected_at = 0.0  # time.monotonic() of the last collection while calls ran
_deferred = 0  # how many times the last call's collection was put off; the timer due for the latest one acts
_deferring = False  # a collection is put off: it runs when its timer fires, or when the next call starts


def _collect() -> None:
    """Collect what the calls left in cycles: the young generations only, the server's own objects are frozen."""
    global _collected_at
    gc.collect(1)
    _collected_at = time.monotonic()


@contextmanager
def collector_paused(settle: float = 0.0) -> Iterator[None]:
    """Pause Python's cyclic collector while any tool call runs; collect once when the last one ends, or settle s later.

    A 500-claim check makes a few hundred thousand objects, almost all freed by reference counting:
    the collector's passes over them during the call cost 40-80 ms of a 2 s check (CPU time, the
    same check with and without). What the calls left in cycles is collected once after them. With
    settle, that happens settle seconds after the last call ends (or as the next one starts, if
    sooner), so that the SDK copies and writes out the answer before the collector runs again: turned
    on at once, it made a full pass of 15-30 ms in the middle of that copy. The server's process is
    its own: nothing else in it waits on the collector.
    """
    global _calls_running, _collected_at, _deferred, _deferring
    with _calls_lock:
        _calls_running += 1
        if _calls_running == 1:
            if _deferring:  # what the last call left is collected before this one adds to it
                _deferring = False
                _collect()
            gc.disable()
            _collected_at = time.monotonic()
    try:
        yield
    finally:
        with _calls_lock:
            _calls_running -= 1
            if _calls_running == 0 and settle > 0:
                _deferred += 1
                _deferring = True
                timer = threading.Timer(settle, _collect_when_idle, args=(_deferred,))
                timer.daemon = True  # a server exiting does not wait for it
                timer.start()
            elif _calls_running == 0:
                # Not while another call runs: it still holds its own.
                _collect()
                gc.enable()
            elif time.monotonic() - _collected_at > MCP_COLLECT_EVERY_S:
                # Calls that keep overlapping never reach none running: collect as they go, so memory stays bounded.
                _collect()


def _collect_when_idle(due: int) -> None:
    """Run the collection put off as the due'th time, unless a call has started (and so run it) since."""
    global _deferring
    with _calls_lock:
        if _deferring and _deferred == due and _calls_running == 0:
            _deferring = False
            _collect()
            gc.enable()


def paused(call: Callable[[], dict[str, Any]]) -> CallToolResult:
    """Return call's answer (see answer), made with the collector paused until the SDK has written it out."""
    with collector_paused(MCP_COLLECT_SETTLE_S):
        return answer(call())


class ClaimIn(BaseModel):
    """One claim an agent wrote: what it says, the URL it cites, the quote it offers as evidence."""

    claim: str = Field(description="The claim as written in the brief.")
    url: str = Field(description="The http(s) URL of the cited source.")
    quote: str | None = Field(
        default=None, description="The words copied from the source as evidence; '...' joins fragments."
    )
    id: str | None = Field(default=None, description="Optional id, kept in the result.")


def client_name(ctx: Context) -> str:
    """Return the name the MCP client gave in its handshake (printable, at most 100 characters), or ""."""
    params = ctx.session.client_params
    name = params.client_info.name if params is not None else ""
    return "".join(c for c in name if c.isprintable())[:_CLIENT_MAX]


class Gate:
    """The server's fixed policy, store and allowed folders (a class: it owns the open store for the session)."""

    def __init__(self, settings: Settings, store: Store, brief_dirs: Sequence[Path], offline: bool) -> None:
        self.settings = settings
        self.store = store
        self.brief_dirs = tuple(d.resolve() for d in brief_dirs)
        self.offline = offline
        self.runs: set[str] = set()  # the runs this server checked: get_claims reads these and no other

    def checked(self, agent: dict[str, Any], max_claims: int | None) -> dict[str, Any]:
        """Return a check's answer holding at most max_claims claims; its run is kept for get_claims."""
        self.runs.add(agent["run_id"])
        return agent_page(agent, 0, max_claims)

    def check_claims(self, claims: list[ClaimIn], client: str, max_claims: int | None = None) -> dict[str, Any]:
        rows = [c.model_dump(exclude_none=True) for c in claims]
        name = f"claims from {client or 'an agent'}"
        try:
            brief = claims_brief(rows, name, self.settings)
            agent = run(brief, self.settings, self.store, offline=self.offline, client=client).for_agent()
        except VerbatimError as exc:
            raise ToolError(str(exc)) from None
        return self.checked(agent, max_claims)

    def get_claims(self, run_id: str, start: int, count: int | None, ids: list[str] | None) -> dict[str, Any]:
        """Return claims of a run this server checked, as its check answered them; never checks again."""
        report = self.store.load_run(run_id) if run_id in self.runs else None
        if report is None:
            raise ToolError(
                f"{run_id!r} is not a run this server checked since it started: give the run_id a check_claims or "
                "check_brief answer of this session named."
            )
        agent = agent_report(report)
        page = agent_page(agent, start, count, None if ids is None else set(ids))
        if ids is not None:
            page["unknown_ids"] = sorted(set(ids) - {c["id"] for c in agent["claims"]})
        return page

    def brief_path(self, path: str) -> Path:
        """Return the brief's real path when it lies inside an allowed folder; raises RequestError otherwise."""
        if not self.brief_dirs:
            raise RequestError(
                "This server reads no brief files (it was started without --brief-dir): pass the brief's text instead."
            )
        wanted = Path(path)
        folders = ", ".join(str(d) for d in self.brief_dirs)
        try:
            real = (wanted if wanted.is_absolute() else self.brief_dirs[0] / wanted).resolve()
        except (OSError, ValueError) as exc:  # a NUL byte, a loop of links
            why = f"{path!r} is not a path this server can read ({exc})"
            raise RequestError(f"{why}: give a brief in {folders}.") from None
        if not any(real.is_relative_to(d) for d in self.brief_dirs):
            raise RequestError(
                f"{path} is outside the folders this server reads briefs from ({folders}): put the brief there, "
                "or pass its text."
            )
        return real

    def check_brief(
        self, text: str | None, path: str | None, name: str | None, client: str, max_claims: int | None = None
    ) -> dict[str, Any]:
        try:
            if (text is None) == (path is None):
                raise RequestError("Give either the brief's text or its path, not both and not neither.")
            if path is not None:
                real = self.brief_path(path)
                data, filename = read_brief_file(real, self.settings), name or real.name
            else:
                data = clean_text(text or "").encode("utf-8")
                filename = name or f"brief from {client or 'an agent'}"
            brief = read_brief(data, filename, self.settings)
            agent = run(brief, self.settings, self.store, offline=self.offline, client=client).for_agent()
        except VerbatimError as exc:
            raise ToolError(str(exc)) from None
        return self.checked(agent, max_claims)

    def get_source(self, url: str, start: int | None, end: int | None, chars: int | None) -> dict[str, Any]:
        try:
            return api.get_source(url, store=self.store, settings=self.settings, start=start, end=end, chars=chars)
        except VerbatimError as exc:
            raise ToolError(str(exc)) from None


def build(gate: Gate) -> MCPServer[Any]:
    """Return the MCP server whose tools call the gate."""
    server: MCPServer[Any] = MCPServer(
        "verbatim",
        title="Verbatim quote and figure checker",
        instructions=(
            "Check every quote and figure of a brief against its sources before an editor sees it. " + VERDICTS_NOTE
        ),
        log_level="WARNING",
    )
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    fetches = ToolAnnotations(read_only_hint=False, open_world_hint=True, idempotent_hint=True)

    @server.tool(
        annotations=fetches,
        description=(
            "Check claims given as {claim, url, quote}: fetch each source (this server's fetch policy applies), "
            "find each quote word for word, check each figure of the claim against the quote. Returns per claim "
            "the verdict, its meaning, reasons, the matched page text with its span, figures, flags, and for "
            "failures a near_miss (diagnosis only); for a claim without a quote, its best passages (candidates, "
            "with holds, lacks and signs) and where each figure stands on the page. The run is kept for the "
            "editor's review. " + PAGING_NOTE + " " + VERDICTS_NOTE
        ),
    )
    def check_claims(claims: list[ClaimIn], ctx: Context, max_claims: MaxClaims = None) -> Answer:
        return paused(lambda: gate.check_claims(claims, client_name(ctx), max_claims))

    @server.tool(
        annotations=fetches,
        description=(
            "Check a whole brief (Markdown, text, or a JSON/CSV claims file): give its text, or the path of a "
            "file inside a folder this server was started with (--brief-dir). Returns what check_claims "
            "returns, plus the sentences that cite no source (uncited) and the links no claim cites "
            "(unused_links). " + PAGING_NOTE + " " + VERDICTS_NOTE
        ),
    )
    def check_brief(
        ctx: Context,
        text: str | None = None,
        path: str | None = None,
        name: str | None = None,
        max_claims: MaxClaims = None,
    ) -> Answer:
        return paused(lambda: gate.check_brief(text, path, name, client_name(ctx), max_claims))

    @server.tool(
        annotations=read_only,
        description=(
            "Read claims of a run this server checked in this session, as its check answered them: from start "
            "(claims_next of the last answer), at most count, or only those of ids (gate.failing, gate.unchecked); "
            "unknown_ids lists ids the run does not have. Never checks again: to check a corrected claim, send it "
            "to check_claims. " + PAGING_NOTE
        ),
    )
    def get_claims(
        run_id: str,
        start: Annotated[int, Field(ge=0, description="The first claim to give, counted from 0.")] = 0,
        count: MaxClaims = None,
        ids: Annotated[list[str] | None, Field(description="Only the claims with these ids.")] = None,
    ) -> Answer:
        return answer(gate.get_claims(run_id, start, count, ids))

    @server.tool(
        annotations=read_only,
        description=(
            "Read the stored evidence of a URL that was checked: status, HTTP status, sha256 of the bytes, when "
            "it was fetched, and the page's text around a span (start and end of a matched fragment, from "
            "check_claims) or its opening. Never fetches: read what was checked instead of fetching it again."
        ),
    )
    def get_source(url: str, start: int | None = None, end: int | None = None, chars: int | None = None) -> Answer:
        return answer(gate.get_source(url, start, end, chars))

    return server


def serve(settings: Settings, *, offline: bool, brief_dirs: Sequence[Path], err: TextIO = sys.stderr) -> int:
    """Serve MCP on stdio until the client closes it; return the exit status (2 when the store cannot be opened)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="verbatim mcp: %(levelname)s %(message)s")
    missing = [d for d in brief_dirs if not d.is_dir()]
    if missing:
        err.write(f"error: --brief-dir {missing[0]} is not a folder. Give a folder that exists.\n")
        return 2
    try:
        store = open_store(settings)  # --no-cache: in memory, so get_source still reads this session's evidence
    except VerbatimError as exc:
        err.write(f"error: {exc}\n")
        return 2
    with store:
        server = build(Gate(settings, store, brief_dirs, offline))
        # What the server holds for its whole life (the SDK's and core's modules, classes and schemas: about
        # 120,000 objects) is frozen out of the collector: otherwise every full collection during a call walks
        # it again, 100-250 ms of a 500-claim check. What a call makes is still collected as before.
        gc.collect()
        gc.freeze()
        server.run("stdio")
    return 0
