"""Benchmark: a 2,000-claim brief over 600 loopback pages made from the corpus's real pages.

The pages are the corpus's HTML pages and gold PDFs, each served under up to three paths as a
distinct copy (a comment or trailing bytes that no reader shows, so that every copy has its own
sha256 and is extracted on its own), spread over 10 loopback addresses with 100 ms latency. The
quotes are sentences of each page's human-written ground truth (aeb), its reviewed extraction
(readability) or its paragraphs; every 10th quote has a word changed (quote_not_found, with a
diagnosis) and every 40th claim cites the wrong copy (misattribution).

Each check runs in a child process on a fresh store (every page fetched and extracted), and
its peak memory is the child's VmHWM, with the extraction workers' own peaks beside it. The
baselines, measured in the same run: today's single-process check (core/ as of commit TODAY,
taken with ``git archive``; left out where git cannot give it), and this check with
``extract_workers=0`` (every page read in the checking process). All reports must be identical
but for when each page was fetched.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

import lxml.html

from tests.fetch_servers import Gauge, quick
from tests.servers import CORPUS, LoopbackServer

ADDRESSES = [f"127.0.0.{i}" for i in range(1, 11)]
N_PAGES = 600
N_CLAIMS = 2000
DELAY = 0.1
REPO = Path(__file__).resolve().parents[2]
#: The last commit before pages were read in a pool and let go (issue 14, item 7): today's single-process check.
TODAY = "5735ee3"
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z“\"])")


def _sentences(text: str) -> list[str]:
    """Return the text's sentences of 8 to 40 words, white space tidied."""
    out = []
    for piece in _SENTENCE.split(text):
        words = piece.split()
        if 8 <= len(words) <= 40:
            out.append(" ".join(words))
    return out


def _paragraph_text(html: bytes) -> str:
    root = lxml.html.document_fromstring(html, parser=lxml.html.HTMLParser(encoding="utf-8"))
    return "\n".join(str(p.text_content()) for p in root.iter("p"))


def corpus_pages() -> list[tuple[str, bytes, str, list[str]]]:
    """Return (name, body, content type, quotable sentences) of every corpus page with enough sentences."""
    out: list[tuple[str, bytes, str, list[str]]] = []
    truth = json.loads((CORPUS / "html/aeb/ground-truth.json").read_text(encoding="utf-8"))
    for key, entry in sorted(truth.items()):
        path = CORPUS / "html/aeb/html" / f"{key}.html.gz"
        if path.exists():
            out.append(
                (
                    f"aeb/{key[:8]}",
                    gzip.decompress(path.read_bytes()),
                    "text/html; charset=utf-8",
                    _sentences(entry["articleBody"]),
                )
            )
    for folder in sorted((CORPUS / "html/readability").iterdir()):
        if (folder / "expected.html.gz").exists():
            expected = gzip.decompress((folder / "expected.html.gz").read_bytes())
            out.append(
                (
                    f"readability/{folder.name}",
                    gzip.decompress((folder / "source.html.gz").read_bytes()),
                    "text/html; charset=utf-8",
                    _sentences(_paragraph_text(expected)),
                )
            )
    for path in sorted((CORPUS / "html/python").rglob("*.html")):
        body = path.read_bytes()
        out.append((f"python/{path.stem}", body, "text/html; charset=utf-8", _sentences(_paragraph_text(body))))
    for path in sorted((CORPUS / "pdf/gold").glob("*.pdf")):
        text = path.with_name(path.name + ".txt").read_text(encoding="utf-8")
        out.append((f"pdf/{path.stem}", path.read_bytes(), "application/pdf", _sentences(text)))
    return [p for p in out if len(p[3]) >= 3]


def _copy(body: bytes, content_type: str, k: int) -> bytes:
    """Return a copy of body with bytes of its own that no reader shows (copy 0 is the page itself)."""
    if k == 0:
        return body
    mark = f"\n%copy {k}\n" if content_type == "application/pdf" else f"\n<!-- copy {k} -->\n"
    return body + mark.encode()


def build(servers: list[LoopbackServer]) -> tuple[dict[str, object], int]:
    """Serve N_PAGES pages on the servers; return the claims file of N_CLAIMS claims and the number of pages."""
    pages = corpus_pages()
    rng = random.Random(14)
    served: list[tuple[str, list[str], str]] = []  # url, sentences, page name
    for i in range(N_PAGES):
        name, body, ctype, sentences = pages[i % len(pages)]
        copy = i // len(pages)
        server = servers[i % len(servers)]
        path = f"/{copy}/{name}"
        server.routes[path] = Gauge().delayed(_copy(body, ctype, copy), DELAY, ctype)
        served.append((server.url(path), sentences, name))
    claims = []
    for i in range(N_CLAIMS):
        url, sentences, _ = served[i % N_PAGES]
        quote = sentences[(i // N_PAGES) % len(sentences)]
        if i % 10 == 9:
            words = quote.split()
            k = rng.randrange(len(words))
            words[k] = "zebra" if words[k].lower() != "zebra" else "giraffe"
            quote = " ".join(words)
        if i % 40 == 39:
            url = served[(i + 7) % N_PAGES][0]  # a page the quote is not on (as a rule)
        claims.append({"claim": f"The source says: {quote}", "url": url, "quote": quote})
    return {"claims": claims}, N_PAGES


_CHILD = """
import hashlib, json, os, sys, time
from pathlib import Path
from core.brief import read_brief
from core.check import check_brief
from core.report import to_json
from core.settings import Settings
from core.store import Store

def status_mb(pid, key):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) / 1024
    return 0.0

args = json.loads(sys.argv[1])
brief = read_brief(Path(args["brief"]).read_bytes(), "big.json")
settings = Settings(allow_private=True, db_path=Path(args["db"]))
if "extract_workers" in Settings.__dataclass_fields__:
    settings = settings.with_(extract_workers=args["workers"])
store = Store(settings.db_path)
started = time.perf_counter()
report = check_brief(brief, settings, store=store)
took = time.perf_counter() - started
workers = []
try:
    from core.check.pool import shared_pool
    workers = [status_mb(pid, "VmHWM") for pid in shared_pool().pids()]
except ImportError:
    pass
data = to_json(report)
data.pop("checked_at", None)
for c in data["claims"]:  # when each page was fetched is all two runs may differ in
    c["source"].pop("fetched_at", None)
    c["source"].pop("headers", None)
if args.get("dump"):
    Path(args["dump"]).write_text(json.dumps(data, indent=1, sort_keys=True))
digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]
print(json.dumps({"seconds": took, "peak": status_mb("self", "VmHWM"), "workers": workers,
                  "summary": {k: v for k, v in report.summary.items() if v}, "digest": digest}))
"""


def _check(brief: Path, db: Path, workers: int, repo: Path = REPO) -> dict[str, object]:
    dump = os.environ.get("BENCH_BIG_DUMP")  # a folder to write both reports to, to compare them by hand
    args = json.dumps(
        {"brief": str(brief), "db": str(db), "workers": workers, "dump": f"{dump}/{db.stem}.json" if dump else ""}
    )
    done = subprocess.run([sys.executable, "-c", _CHILD, args], capture_output=True, text=True, cwd=repo, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the checking child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def _today(folder: Path) -> Path | None:
    """Return a copy of core/ as it was before this work (commit TODAY), or None when git cannot give it."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", TODAY, "core"], capture_output=True, check=False)
    if archive.returncode != 0:
        return None
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def _cores() -> int:
    return len(os.sched_getaffinity(0))


def run() -> list[str]:
    """Return the benchmark's result lines."""
    servers = [quick(LoopbackServer(a)) for a in ADDRESSES]
    for s in servers:
        s.start()
    lines = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            claims, n_pages = build(servers)
            brief = Path(tmp) / "big.json"
            brief.write_text(json.dumps(claims), encoding="utf-8")
            tree = _today(Path(tmp) / "today")
            today = _check(brief, Path(tmp) / "today.sqlite3", 0, tree) if tree is not None else None
            serial = _check(brief, Path(tmp) / "serial.sqlite3", 0)
            pooled = _check(brief, Path(tmp) / "pooled.sqlite3", _cores())
    finally:
        for s in servers:
            s.stop()
    lines.append(
        f"brief: {N_CLAIMS:,} claims over {n_pages} loopback pages on {len(ADDRESSES)} addresses, {DELAY * 1000:.0f} ms"
        f" each, fresh store; verdicts {serial['summary']}"
    )
    runs = [("in the checking process (extract_workers=0)", serial), (f"{_cores()} workers", pooled)]
    if today is not None:
        runs.insert(0, (f"today's single-process check ({TODAY})", today))
    for label, m in runs:
        workers = m["workers"] or []
        extra = f" + workers' peaks {', '.join(f'{w:.0f}' for w in workers)} MB" if workers else ""
        lines.append(f"check, {label}: {m['seconds']:.1f} s, peak RSS {m['peak']:.0f} MB{extra} (target < 400 MB)")
    ratio = float(serial["seconds"]) / float(pooled["seconds"])
    same = "identical" if serial["digest"] == pooled["digest"] else "DIFFERENT"
    lines.append(f"pool vs in-process: x{ratio:.2f} faster; reports {same}")
    if today is not None:
        ratio = float(today["seconds"]) / float(pooled["seconds"])
        same = "identical" if today["digest"] == pooled["digest"] else "DIFFERENT"
        lines.append(f"pool vs today's check: x{ratio:.2f} faster; reports {same}")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
