"""The command line: ``python -m core check BRIEF ...`` as DESIGN.md's contract says, ``mcp`` (the MCP server),
``worker`` (checks queued on a team store), and the store's upkeep: ``migrate [--db TARGET]`` and
``store copy SQLITE_FILE POSTGRES_URL``.

It prints one line per claim and a summary. Exit status: 0 when the report was built; with
``--strict``, 1 when any claim is quote_not_found, figures_mismatch or dead_link; 2 when the
brief cannot be read, the store cannot be opened or written, or a report cannot be written where asked
(with a message that says why and what to do; the other reports are still written). Errors
become messages here, at the edge; the rest of core raises or returns values. It decides no
verdict and draws no report itself: it reads arguments, calls core and writes what core returns.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from core.api.calls import keep_run, settings_for
from core.brief import BriefError, read_brief
from core.check import check_brief
from core.errors import StoreError
from core.fetch.shown import masked_brief
from core.models import GATE_UNCHECKED, STRICT_FAILURES, ClaimResult, Report, Verdict
from core.report import ExportKind, clean_text, exports
from core.report.wording import unchecked_gate_words
from core.samples import load_samples
from core.settings import Settings
from core.store import Store, is_postgres, open_store, shown
from core.store.copy import copy_store
from core.store.migrate import known

EXIT_OK, EXIT_STRICT, EXIT_UNREADABLE = 0, 1, 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m core",
        description="Verbatim: check that a brief's quotes are on their sources and its figures in its quotes.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="check a brief and write its report")
    check.add_argument("brief", help="the brief: .md, .txt, .docx, .pdf, or a .json/.csv claims file")
    check.add_argument("--json", metavar="FILE", help="write the JSON report (schema 1) here")
    check.add_argument("--html", metavar="FILE", help="write the annotated HTML report here")
    check.add_argument("--csv", metavar="FILE", help="write one CSV row per claim here")
    check.add_argument(
        "--docx", metavar="FILE", help="write the DOCX report (the brief with comments, for a DOCX brief)"
    )
    _policy_and_store(check)
    check.add_argument(
        "--ocr",
        action="store_true",
        help="read scanned PDF pages by OCR (Tesseract; seconds a page); every quote found in OCR text is flagged",
    )
    check.add_argument("--refresh", action="store_true", help="fetch fresh copies even when the store has one")
    check.add_argument(
        "--offline",
        action="store_true",
        help="use stored copies (and the bundled sample's copies) only; never touch the network",
    )
    check.add_argument(
        "--strict", action="store_true", help="exit 1 when any claim is quote_not_found, figures_mismatch or dead_link"
    )
    mcp = sub.add_parser("mcp", help="serve the MCP tools check_claims, check_brief and get_source on stdio")
    _policy_and_store(mcp)
    mcp.add_argument(
        "--brief-dir",
        metavar="DIR",
        action="append",
        default=[],
        help="a folder whose briefs check_brief may read by path (repeatable); without it, only text is read",
    )
    mcp.add_argument("--offline", action="store_true", help="use stored copies only; never touch the network")
    worker = sub.add_parser("worker", help="run the checks queued in the team store on PostgreSQL (core/jobs)")
    _worker_options(worker)
    _store_commands(sub)
    return parser


def _store_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``migrate`` and ``store copy``: the store's own upkeep."""
    migrate = sub.add_parser("migrate", help="apply the store's missing migrations and say which")
    migrate.add_argument(
        "--db", metavar="FILE_OR_URL", help="the store: a SQLite file or a postgresql:// URL (default: $VERBATIM_DB)"
    )
    store = sub.add_parser("store", help="work on the evidence store itself")
    tasks = store.add_subparsers(dest="store_command", required=True)
    copy = tasks.add_parser("copy", help="copy a single-user SQLite store into the team store, doubling nothing")
    copy.add_argument("sqlite_file", help="the single-user desk's SQLite store file to copy from (left as it is)")
    copy.add_argument("postgres_url", help="the team store's postgresql:// URL to copy into")


def _worker_options(command: argparse.ArgumentParser) -> None:
    """Add the worker's options (core.jobs.worker reads them)."""
    command.add_argument("--db", metavar="URL", help="the team store's postgresql:// URL (default: $VERBATIM_DB)")
    command.add_argument("--concurrency", type=int, default=1, metavar="N", help="checks run at once (default 1)")
    command.add_argument("--heartbeat", type=float, metavar="SECONDS", help="seconds between heartbeats")
    command.add_argument(
        "--stalled-after", type=float, metavar="SECONDS", help="seconds without a heartbeat before a check is retried"
    )


def _policy_and_store(command: argparse.ArgumentParser) -> None:
    """Add the fetch policy's and the store's options, the same for every command that checks."""
    command.add_argument(
        "--allow-domain",
        metavar="DOMAIN",
        action="append",
        default=[],
        help="fetch only from this domain and its subdomains (repeatable); every other URL is blocked",
    )
    command.add_argument(
        "--allow-private",
        action="store_true",
        help="allow private and loopback addresses (intranet sources); off by default",
    )
    store = command.add_mutually_exclusive_group()
    store.add_argument(
        "--db",
        metavar="FILE_OR_URL",
        help="the evidence store: a SQLite file, or a team store's postgresql:// URL"
        " (default: $VERBATIM_DB or ~/.local/share)",
    )
    store.add_argument("--no-cache", action="store_true", help="keep nothing: fetch everything, store nothing on disk")


def _settings(args: argparse.Namespace) -> Settings:
    settings = settings_for(allow_domains=args.allow_domain, allow_private=args.allow_private)
    changes: dict[str, object] = {}
    if args.db:
        changes["db_path"] = args.db if is_postgres(args.db) else Path(args.db)
    if args.no_cache:
        changes["use_cache"] = False
    if getattr(args, "ocr", False):  # only `check` has --ocr; `mcp` shares these settings without it
        changes["ocr"] = True
    return settings.with_(**changes) if changes else settings


def _write(path: str, data: bytes) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)


def _headline(result: ClaimResult) -> str:
    """Return the most specific reason of a result: the named figure or flag, not the preamble."""
    reasons = result.reasons
    if result.verdict in (Verdict.FIGURES_MISMATCH, Verdict.NEEDS_REVIEW) and len(reasons) > 1:
        return reasons[1]
    return reasons[0] if reasons else ""


# Bidirectional overrides and isolates: printed raw, they reorder what the terminal shows.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def printable(text: str) -> str:
    """Return text safe for one terminal field: control and bidi characters written as escapes (\\x1b)."""
    if text.isprintable() and not _BIDI.intersection(text):
        return text
    return "".join(
        (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")
        if unicodedata.category(c) == "Cc" or c in _BIDI
        else c
        for c in clean_text(text)
    )


def _print_report(report: Report, out: TextIO) -> None:
    """Print one line per claim, then the summary (verified first, as an editor reads it).

    Everything from the brief or a page is untrusted: an escape sequence in a claim could
    rewrite the terminal, a newline in a URL could forge a line, so each field goes through
    ``printable``.
    """
    for r in report.results:
        fields = (r.claim.id, r.verdict.value, r.claim.url, _headline(r))
        out.write("\t".join(printable(f) for f in fields) + "\n")
    counts = ", ".join(f"{report.summary[v.value]} {v.value}" for v in reversed(Verdict) if report.summary[v.value])
    out.write(f"{len(report.results)} claims: {counts or 'none'}\n")
    if unchecked := unchecked_gate_words(sum(r.verdict in GATE_UNCHECKED for r in report.results)):
        out.write(unchecked + "\n")
    if report.uncited:
        out.write(f"{len(report.uncited)} sentences cite no source (listed in the report as uncited).\n")
    for w in report.warnings:
        out.write(f"warning: {printable(w)}\n")


def run_check(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Return the exit status of ``check`` after printing and writing its outputs."""
    path = Path(args.brief)
    try:
        data = path.read_bytes()
    except OSError as exc:
        err.write(f"error: cannot read the brief {path}: {exc.strerror or exc}. Check the path and try again.\n")
        return EXIT_UNREADABLE
    settings = _settings(args)
    try:
        brief = read_brief(data, path.name, settings)
    except BriefError as exc:
        err.write(f"error: {printable(str(exc))}\n")
        return EXIT_UNREADABLE
    # No password of a URL is kept, printed or exported: the brief's own file is masked too (core.fetch.shown).
    brief = masked_brief(dataclasses.replace(brief, raw=data))
    data = brief.raw
    try:
        store = open_store(settings)
        if args.offline:
            load_samples(store)  # so that the bundled sample brief checks with no network at all
        report = check_brief(brief, settings, store=store, refresh=args.refresh, offline=args.offline)
    except StoreError as exc:  # the message names the store and what to do (core.errors)
        err.write(f"error: {printable(str(exc))}\n")
        return EXIT_UNREADABLE
    unsaved = False
    if settings.use_cache:
        try:
            report = keep_run(store, report, brief_raw=data, brief_name=brief.name)
        except StoreError as exc:
            # The check is done: its reports are still written, only the run is not kept.
            err.write(f"error: {printable(str(exc))}\n")
            unsaved = True
            report = dataclasses.replace(report, run_id="")
    _print_report(report, out)
    if report.run_id:
        out.write(f"run {report.run_id} saved in {shown(settings.db_path)}\n")
    targets = {kind: getattr(args, kind.value) for kind in ExportKind if getattr(args, kind.value)}
    unwritten = 0
    for kind, content in exports(report, targets, brief_raw=data, settings=settings).items():
        try:
            _write(targets[kind], content)
        except OSError as exc:
            # One unwritable path must not cost the other reports.
            unwritten += 1
            kept = f"; the run is kept in the store as run {report.run_id}" if report.run_id else ""
            err.write(
                f"error: cannot write the {kind.name} report to {printable(targets[kind])}: {exc.strerror or exc}"
                f"{kept}. Choose a path you can write to and run again.\n"
            )
    if unwritten or unsaved:
        return EXIT_UNREADABLE
    if args.strict and any(r.verdict in STRICT_FAILURES for r in report.results):
        return EXIT_STRICT
    return EXIT_OK


def run_migrate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Return the exit status of ``migrate`` after applying what the store lacks and saying which."""
    target = args.db or Settings.from_env().db_path
    try:
        with Store(target) as store:
            applied, named = store.applied, store.named
    except StoreError as exc:
        err.write(f"error: {printable(str(exc))}\n")
        return EXIT_UNREADABLE
    if not applied:
        latest = known()[-1]
        out.write(f"Nothing to do: {named} has every migration this Verbatim knows (up to {latest.label}).\n")
    else:
        listed = ", ".join(m.label for m in applied)
        out.write(f"Applied {len(applied)} migration{'s' * (len(applied) > 1)} to {named}: {listed}.\n")
    return EXIT_OK


def run_store_copy(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """Return the exit status of ``store copy`` after copying and saying how many rows of each table moved."""
    source, target = args.sqlite_file, args.postgres_url
    if is_postgres(source) or not Path(source).is_file():
        what = "is a URL" if is_postgres(source) else "is not a file"
        err.write(
            f"error: {printable(shown(source))} {what}: the first argument is the single-user desk's SQLite store"
            " file to copy from ($VERBATIM_DB on that desk, by default ~/.local/share/verbatim/verbatim.sqlite3).\n"
        )
        return EXIT_UNREADABLE
    if not is_postgres(target):
        err.write(
            f"error: {printable(shown(target))} is not a postgresql:// URL: the second argument is the team store to"
            " copy into, e.g. postgresql://verbatim@db.example:5432/verbatim.\n"
        )
        return EXIT_UNREADABLE
    try:
        with Store(Path(source)) as src, Store(target) as dst:
            if src.applied:
                out.write(f"Upgraded {src.named} first: {', '.join(m.label for m in src.applied)}.\n")
            counts = copy_store(src.engine, dst.engine)
            out.write(f"Copied {src.named} into {dst.named}; a row already there is skipped, never doubled:\n")
    except StoreError as exc:
        err.write(f"error: {printable(str(exc))} Nothing was copied.\n")
        return EXIT_UNREADABLE
    for c in counts:
        out.write(f"  {c.table}: {c.copied} copied, {c.skipped} skipped (already there)\n")
    for c in (c for c in counts if c.differing_count):
        out.write(
            f"Note: {c.differing_count} row(s) of {c.table} differ between the two stores ({'; '.join(c.differing)}"
            f"{' ...' if c.differing_count > len(c.differing) else ''}): one or both were changed after an earlier"
            " copy. The team store's are kept and the file is left as it is; compare them before you retire the file.\n"
        )
    return EXIT_OK


def main(argv: Sequence[str] | None = None, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Return the process exit status for the given arguments."""
    args = _parser().parse_args(argv)
    if args.command == "check":
        return run_check(args, out, err)
    if args.command == "mcp":
        # Imported here: the MCP SDK is loaded only by the command that serves it.
        from core.api.server import serve

        return serve(_settings(args), offline=args.offline, brief_dirs=[Path(d) for d in args.brief_dir], err=err)
    if args.command == "migrate":
        return run_migrate(args, out, err)
    if args.command == "store":
        return run_store_copy(args, out, err)  # "copy" is its one task (argparse requires one)
    if args.command == "worker":
        # Imported here, like the MCP SDK: only the command that runs jobs loads the task queue.
        from core.jobs.worker import main as run_worker

        return run_worker(args, err)
    return EXIT_UNREADABLE  # argparse rejects unknown commands before this
