"""Every limit and threshold of Verbatim, each with the reason for its value.

One frozen ``Settings`` record; ``Settings.from_env()`` reads the few values a user may set
from the environment. Helpers add fields here, never literals in their own modules.
This module only holds values: it refuses to read files, fetch or decide anything.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

#: The environment variable naming the evidence store: a SQLite file, or a postgresql:// URL.
DB_ENV = "VERBATIM_DB"
#: URL schemes that name a PostgreSQL database (libpq reads both); anything else is a SQLite path.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def default_db_path() -> Path | str:
    """Return the store's target: $VERBATIM_DB (a path, or a postgresql:// URL kept as text), else the default file."""
    env = os.environ.get(DB_ENV)
    if env:
        # A URL stays text: as a Path its "//" would collapse and the URL be lost.
        return env if env.lower().startswith(POSTGRES_SCHEMES) else Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "verbatim" / "verbatim.sqlite3"


#: While MCP tool calls keep overlapping, what ended calls left in cycles is still collected this often (s).
MCP_COLLECT_EVERY_S = 30.0
#: The MCP server's collector resumes this long after the last call ends: the SDK copies and writes the
#: answer (a 500-claim one is 1 MB) in the next 0.1-0.3 s, and a pass of the collector in it costs 15-30 ms.
MCP_COLLECT_SETTLE_S = 1.0

#: The environment variable naming the folder where the desk keeps changes its store could not take.
OUTBOX_ENV = "VERBATIM_OUTBOX"


def default_outbox_dir() -> Path:
    """Return the desk's outbox folder: $VERBATIM_OUTBOX, else verbatim/outbox under the user's state folder."""
    env = os.environ.get(OUTBOX_ENV)
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "verbatim" / "outbox"


@dataclass(frozen=True)
class Settings:
    # ---- fetching (core/fetch/)
    # An honest User-Agent: site owners can see who asks and why.
    user_agent: str = "Verbatim/0.1 (quote checker for editors; +https://github.com/verbatim-review)"
    # DESIGN.md: at most 5 redirects, each re-checked.
    max_redirects: int = 5
    # A server that does not accept a connection within 5 s is not going to answer usefully.
    connect_timeout: float = 5.0
    # Gap allowed between two reads; slow but alive servers still get through.
    read_timeout: float = 10.0
    # Whole-source deadline: a server dribbling one byte every half second cannot hold a check.
    total_deadline: float = 30.0
    # Decoded bytes kept per source; a gzip bomb stops here. Real pages and reports fit in 25 MB.
    max_body_bytes: int = 25 * 1024 * 1024
    # Sources fetched at once: waiting threads cost little, and 10 sites x max_per_host fit.
    max_concurrency: int = 20
    # Connections per host at once: politeness towards one site.
    max_per_host: int = 2
    # 429/503 retried this many times, honouring Retry-After.
    max_retries: int = 2
    # Longest Retry-After we wait; longer asks give not_checked rather than a stalled run.
    max_retry_after: float = 10.0
    # Ports allowed without --allow-private (DESIGN.md: 80 and 443 by default).
    allowed_ports: tuple[int, ...] = (80, 443)
    # Off by default: private and loopback addresses are the user's own network.
    allow_private: bool = False
    # Empty means every public domain; otherwise only these and their subdomains.
    allowed_domains: tuple[str, ...] = ()
    # Wait before retrying a 5xx without Retry-After (doubled each time): a brief hiccup passes.
    retry_backoff: float = 0.5
    # Decoded bytes looked at to tell what a body really is when its Content-Type lies or is missing.
    sniff_bytes: int = 4096

    # ---- extraction (core/extract/)
    # Pages beyond this are not read: a 2,000-page PDF should not stall a desk.
    max_pdf_pages: int = 500
    # Fewer visible characters than this on an HTML page suggests it needs JavaScript.
    js_min_text_chars: int = 200
    # A <noscript> asking for JavaScript on a page with less text than this: the text is a shell.
    js_noscript_max_text_chars: int = 1500
    # readability takes about a second per MB of HTML; above this, all text counts as main content.
    readability_max_chars: int = 3_000_000
    # readability is quadratic in a parent's children (40,000 siblings took 2.5 s); real pages have
    # under 10,000 nodes, so above this all text counts as main content.
    readability_max_nodes: int = 30_000
    # HTML5 tree building slows with the depth of open elements (100,000 nested <div> took a minute);
    # real pages stay under 1,100 (corpus), so a page holding more open is read by libxml2, warned.
    html5_max_depth: int = 4096
    # Parts hidden until opened (tabs, accordions) read per page: a page of 100,000 hidden parts
    # is a generated dump, and each hidden span is looked up for every quote found on it.
    max_hidden_parts: int = 5000
    # Words a page's markup splits ("<a>expand</a><a>ed</a>") kept as a second reading per page:
    # real pages have a few dozen; a page spelling every letter in its own element has thousands.
    max_word_joints: int = 10_000
    # Binary data decodes to many control/replacement characters; above this share it is not text.
    max_garbage_ratio: float = 0.05
    # A body declared UTF-8 is read in another charset only when at least this share of its
    # non-ASCII bytes is not UTF-8: a UTF-8 page with a stray Windows-1252 byte stays UTF-8.
    charset_min_not_utf8_share: float = 0.5
    # A PDF with fewer visible characters than this has no usable text layer (scanned pages).
    pdf_min_text_chars: int = 20
    # OCR of scanned PDF pages: off unless the editor asks (--ocr, the desk's setting), since it
    # takes seconds a page and its text is a reading, flagged on every quote found in it.
    ocr: bool = False
    # Tesseract's language data for OCR (Debian's tesseract-ocr-eng, installed by `make setup`).
    ocr_language: str = "eng"
    # Resolution a page is drawn at for OCR: 200 dpi reads 9-point print; 250, 300 or 400 change which
    # characters are misread, not how many (make eval's ocr section on 200- and 300-dpi scans), and cost time.
    ocr_dpi: int = 200
    # Scanned pages read by OCR per PDF (about 3 s each on two cores): a book-length scan would
    # hold a desk for half an hour; the warning names the first page left unread.
    ocr_max_pages: int = 40
    # ...and at most this long per PDF, whatever the page count.
    ocr_budget_seconds: float = 120.0
    # A DOCX part (document, footnotes) unpacking beyond this is a zip bomb, not a document.
    docx_max_part_bytes: int = 100_000_000

    # ---- matching (core/match/)
    # DESIGN.md "too short to check": fewer than 4 words and under 20 characters.
    min_quote_words: int = 4
    min_quote_chars: int = 20
    # Words either side of a match searched for a dropped negation or condition.
    context_window_words: int = 6
    # Words after a match searched for a dropped negation: further on, "not" rarely bears on it.
    negation_after_words: int = 3
    # Places a quote fragment is tried at: a phrase repeated more often than this says nothing.
    max_occurrences: int = 500
    # Places of a one-fragment quote counted (not checked) past max_occurrences: an honest count
    # for the report, bounded so that a phrase repeated a million times costs milliseconds.
    max_occurrences_counted: int = 20_000
    # Places of a repeated quote given their own page text, for the desk to step through; the
    # report counts and flags every place, but an editor reads a few.
    places_with_context: int = 20
    # Steps allowed to place ellipsis fragments in some other order without reusing a span.
    max_fragment_search_steps: int = 5000

    # ---- figures (core/figures/)
    # Whole numbers up to this, standing alone ("3 companies"), are too common to check: skipped.
    figures_small_whole_max: int = 10
    # Bare four-digit whole numbers in this span are read as years and compared exactly.
    figures_year_min: int = 1900
    figures_year_max: int = 2100
    # Trailing zeros round ("6,700" is to the hundred) but at least this many digits stay significant.
    figures_min_significant_digits: int = 2
    # A hedge ("about", "nearly") lets the claim be off by this many units of its own precision.
    figures_hedge_steps: int = 1
    # "3.9.0" is a version; more dot-separated parts ("1.2.3.4") read like an address: skipped.
    figures_version_max_parts: int = 3
    # Spans listed where a missing figure appears elsewhere on the page: enough to find it.
    figures_elsewhere_max: int = 5
    # Seconds spent reading a page's figures to say where else a missing figure appears: it is
    # diagnosis, and a page of a million numbers took minutes to read whole.
    figures_elsewhere_budget_seconds: float = 0.5
    # Characters of page text read for figures at a time between two looks at that budget.
    figures_elsewhere_piece_chars: int = 8000
    # "More than 300" is held by 349 but not by 3,000: within this ratio a comparative still names the same figure.
    figures_comparative_ratio: float = 1.5
    # Figures of a claim without a quote looked for on its page: a real claim holds a handful; 300 is no claim.
    figures_claim_max: int = 30
    # Characters of a claim read for figures: a 5,000-word "claim" is a pasted page, read no further than this.
    figures_claim_max_chars: int = 5000
    # Seconds spent reading a page's figures for a claim without a quote (read once a page, then
    # cached): a figure may be called nowhere only on a page read whole, so a page not read in
    # time leaves its unplaced figures skipped, never flagged.
    figures_page_budget_seconds: float = 2.0

    # ---- diagnosis (core/diagnose/)
    # A diagnosis is help, not a verdict: it may not hold the review up longer than this.
    diagnose_budget_seconds: float = 0.5
    # Below this similarity (0-100) the diagnosis says "no close passage".
    near_miss_min_score: float = 60.0
    # Words and word pairs of a quote looked up on the page: enough to place a quote with
    # several words changed, few enough that a 20 MB page is searched in well under the budget.
    diagnose_max_anchors: int = 24
    # A word found more often than this on a page is too common to say where a quote stands.
    diagnose_max_hits: int = 200
    # Likely places of a quote aligned word by word; the right one is nearly always first.
    diagnose_regions: int = 4
    # Longer quotes are not compared word by word: no editor reads a diff of a book chapter, and
    # a 3,000-word alignment on a 1 MB page already takes about the whole budget on a busy desk.
    diagnose_max_quote_words: int = 2000
    # A run of at least this many quote words found in another sentence is named a splice.
    splice_min_words: int = 3
    # Similarity a quote's replaced head or tail needs elsewhere on the page to be named a splice.
    splice_min_score: float = 85.0
    # Characters searched either side of a word for its sentence's ends (tables may lack any).
    sentence_max_chars: int = 1500
    # Candidate passages for a claim without a quote are cut to this length: a quote, not a page.
    candidate_max_chars: int = 600
    # Telling words of a claim looked up on the page, figures first.
    candidate_max_terms: int = 16
    # Occurrences of one word looked at when ranking candidates or locating a figure.
    candidate_max_hits: int = 500
    # Candidates scoring under this share of the best one are not offered, figures or not.
    candidate_relative_floor: float = 0.5
    # Ranking the evidence of a claim without a quote (core/diagnose/rank.py). A claim is read for
    # its terms up to this many characters: no claim of a brief is longer, and a 5,000-word one is
    # ranked in bounded time on its opening.
    rank_claim_max_chars: int = 3000
    # Terms of a claim (figures, then names, then words) ranked and listed as held or lacked.
    rank_max_terms: int = 48
    # A term standing more often than this on a page tells no sentence from another (and would
    # cost a pass over a 100,000-sentence page for nothing).
    rank_max_hits: int = 1500
    # Weight of a figure's digits and of a name's words against another word's 1 (1 measured best:
    # a claim's figure is often not the page's, which the weight of a near figure below rewards).
    rank_figure_weight: float = 1.0
    rank_name_weight: float = 1.0
    # Okapi BM25's constants for sentences as documents: term-frequency saturation, and how much a
    # long sentence's score is lowered for its length (measured on the claims corpus, make eval: with a word's
    # family, spellings and abbreviations counted, k1 1.2 -> 1.0 raised every dataset's first passage; 0.8 lowered
    # ExpertQA's, b 0.4 or 0.6 lowered it too).
    rank_k1: float = 1.0
    rank_b: float = 0.5
    # Another form of a claim's word on the page ("deaths" for "death") counts at this share of the word.
    rank_stem_share: float = 0.8
    # A word of its derivational family ("recovered" for "recoveries", core/diagnose/family.py), looked for only
    # when the page holds no form of the claim's word, counts at this share. Measured on make eval claims:
    # 0.5 raised VitaminC's first passage 94.73 -> 95.12; 0.8, or a family looked for beside the word's own
    # forms, lowered ExpertQA's best three; adjective endings ("effects" -> "effective") lowered Check-COVID's.
    rank_family_share: float = 0.5
    # An abbreviation the page defines ("venous thromboembolism (VTE)", core/diagnose/abbreviations.py) counts
    # for each word of the term it shortens at this share (the claim writing the term, the page the abbreviation).
    rank_abbreviation_share: float = 0.8
    # A sentence holding a figure of the claim's kind near its value ("$77.6 million" for "less than
    # $79 million") gains this share of the claim's rarest word's weight; read in the best sentences only.
    # Measured on make eval claims: 1.5 -> 3.0 raised every dataset's first passage, 3.5 lowered VitaminC's three;
    # with a fifth of the best score offered (rank_relative_floor 0.2), 3.0 -> 3.5 raised VitaminC's first
    # 95.52 -> 95.68 and ExpertQA's three, its own three kept.
    rank_near_figure_weight: float = 3.5
    rank_figures_reread: int = 12
    # On a page of at most this many sentences, a sentence sharing no word with the claim but holding a figure
    # near its value is scored too, at this share ("earned more than $70 million": "it grossed $77,527,732.").
    # Measured on make eval claims: VitaminC first 95.12 -> 95.45, three 99.04 -> 99.51 at 0.8 (1.3 lowered
    # Check-COVID's three); read once a page, so a long page costs nothing more.
    rank_figure_alone_max_sentences: int = 64
    rank_figure_alone_share: float = 0.8
    # A page figure keeping the claim's bound (349 for "more than 300") falls off at this share of the usual rate.
    rank_bound_falloff: float = 0.25
    # A page figure on the wrong side of the claim's bound (524.9 for "more than 528") counts at this share of its
    # nearness. Measured on make eval claims: 0.5 raised VitaminC's first passage 94.43 -> 94.69; 0.2 lowered
    # Check-COVID's best three.
    rank_broken_bound_share: float = 0.5
    # Sentences, best by BM25, that passages of several sentences and figures near the claim's are looked for around.
    rank_best_sentences: int = 64
    # Passages scoring under this share of the best one are not offered. Measured on make eval claims: 0.3 -> 0.2
    # offered the labelled evidence among three for 9 more claims (an abstract's finding in other words than the
    # claim's, ranked third), none fewer; the passage offered first is the same.
    rank_relative_floor: float = 0.2
    # Consecutive sentences of one block offered together at most, and their longest text.
    rank_window_sentences: int = 3
    rank_window_max_chars: int = 1200
    # A passage of two or three sentences counts each sentence past the first at this share:
    # it wins over one sentence only when the claim rests on both.
    rank_window_factor: float = 0.8
    # A sentence under a section label that sets the scene ("BACKGROUND:", "OBJECTIVE:") or says how a
    # study was made ("METHODS:") scores at this share: it shares a claim's topic words, the findings
    # hold its evidence ("RESULTS:", "Interpretation:", raised by rank_finding_factor); measured on
    # the claims corpus's abstracts (make eval claims). With a word's family, spellings and abbreviations
    # counted, findings 1.4 -> 1.8 and scene 0.6 -> 0.5 raised Check-COVID's first passage 62.38 -> 63.76
    # (2.4 or a scene of 0.4 no further), ExpertQA and VitaminC unchanged.
    rank_scene_factor: float = 0.5
    rank_method_factor: float = 0.8
    rank_finding_factor: float = 1.8
    # On a page without labels, a finding its authors report ("we found", core/diagnose/sections.py voice) scores
    # at this share, a method they describe ("we conducted") at rank_method_factor, and the sentences before
    # their first such sentence, when it is one of the page's first rank_scene_opening_sentences, at
    # rank_scene_factor. Measured on make eval claims: Check-COVID's first passage 65.54 -> 67.72 (1.2 or 1.6
    # lower, 1.8 lower still; an opening of 3 sentences lower, 8 the same), ExpertQA and VitaminC unchanged.
    rank_voice_finding_factor: float = 1.4
    rank_scene_opening_sentences: int = 5
    # A best sentence opening with "It" or "She", holding a figure near the claim's and none of its names, is
    # credited the names at this share of holding them: the page named its subject in another sentence
    # (core/diagnose/anaphora.py); only names standing in at least rank_reference_least sentences, the
    # page's subject. Measured on make eval claims: share 0.5 -> 1.0 raised VitaminC's first passage.
    rank_reference_share: float = 1.0
    rank_reference_least: int = 3

    # ---- briefs (core/brief/)
    # Longest link destination read in a Markdown brief; real citation URLs are under 2,000 characters.
    max_url_chars: int = 8192
    # A brief above 20 MB is not a brief; the message says so rather than the desk stalling.
    max_brief_bytes: int = 20 * 1024 * 1024
    # A brief of more claims than this is cut, with a warning naming how many were left out.
    max_claims: int = 2000
    # Words in quotation marks needed to count as a claim's quote; one quoted word is scare quotes.
    min_inline_quote_words: int = 2
    # Uncompressed bytes a DOCX brief may unpack to; a zip bomb stops here with a message.
    max_docx_unpacked_bytes: int = 200 * 1024 * 1024
    # XML a DOCX brief may unpack to, counted as it unpacks (never from the sizes the file declares). What a
    # brief can need: the corpus's Gemini report has 39 KB of XML a page (12 bytes of markup per character),
    # so 16 MB holds a brief of about 400 pages; a 681 KB upload of 190 MB of XML had held the desk 417 s.
    max_docx_xml_bytes: int = 16 * 1024 * 1024
    # XML tags ("<") a DOCX brief may hold: that report has 1,100 a page, so 800,000 hold about 700 pages;
    # the parsed document costs about 250 bytes a tag, which keeps reading any accepted upload under 500 MB.
    max_docx_xml_tags: int = 800_000

    # ---- checking a brief (core/check/)
    # Processes reading pages at once: None is one per core this process may use (os.sched_getaffinity);
    # 0 reads every page in the checking process (no pool), as the single-process check did.
    extract_workers: int | None = None
    # A brief of fewer sources than this is read in the checking process unless the pool already runs:
    # starting workers (about a second of imports each) costs more than a few pages take.
    extract_pool_min_pages: int = 8
    # Seconds one page may take in a worker before it is stopped: OCR alone may take ocr_budget_seconds,
    # and a page still being read after that is built to stall readers.
    extract_timeout: float = 180.0
    # Pages fetched and waiting for a free reader, beyond one per reader: enough to keep every reader
    # busy, few enough that bodies never pile up in memory while readers are slower than the network.
    check_pages_ahead: int = 4

    # ---- reports and display
    # Characters of page text shown either side of a match.
    context_chars: int = 300
    # Prepared pages kept in memory for re-checks; a large page's index is tens of MB.
    page_cache_entries: int = 24
    # ...and at most this much page text in all: an index costs several times its text in memory.
    page_cache_max_chars: int = 20_000_000
    # A report shows at most this much page text per claim: an enormous context must not bloat the file.
    report_context_max_chars: int = 4000
    # Stored runs kept read in memory by the desk, shared by its tabs (core.report.cached_report): opening a
    # 2,000-claim run again costs a read and a digest, not 1 s of parsing; a few such runs are tens of MB.
    report_cache_runs: int = 4
    # An agent reading stored evidence (get_source) gets at most this much page text at once: enough
    # for a section around a quote, and a 25 MB page cannot flood a model's context.
    evidence_max_chars: int = 20_000

    # ---- workers (core/jobs/: checks as jobs on a team store)
    # Seconds between a worker's heartbeats in the queue: a dead worker is noticed a few of these later.
    worker_heartbeat: float = 5.0
    # Seconds without a heartbeat after which a worker counts as dead and its running jobs are retried.
    worker_stalled_after: float = 30.0
    # Starts of one check before it counts as failed: a brief that kills its worker every time must stop.
    job_max_attempts: int = 3
    # Seconds between tries to reach a team store that is down (a worker, a job waiting mid-check).
    worker_retry_every: float = 2.0
    # Seconds between the desk's looks at a queued check: fresh enough to watch, light on the database.
    job_poll_seconds: float = 1.0

    # ---- storage (core/store/)
    # A SQLite file, ":memory:", or a team store's postgresql:// URL (core/store/target.py).
    db_path: Path | str = field(default_factory=default_db_path)
    # False gives an in-memory store: nothing is kept (--no-cache).
    use_cache: bool = True
    # Seconds a write waits for another process holding the SQLite file before giving up.
    # On PostgreSQL, seconds a call waits for a connection before saying the team store is unreachable.
    store_busy_timeout: float = 10.0
    # Connections to a team store per process, shared by the desk's sessions: a handful of editors' clicks
    # at once, well under PostgreSQL's default of 100 connections for a few desks and workers.
    store_pool_size: int = 8
    # Seconds the desk's own calls wait for a store (a locked SQLite file, a PostgreSQL that does not
    # answer) before the change goes to the outbox: an editor's click costs a few seconds at most.
    desk_store_timeout: float = 3.0
    # Where the desk keeps a change its store could not take, one small file each, until it is saved:
    # never in the store that is away, and on the desk's machine, which outlives a reload or a browser.
    outbox_dir: Path = field(default_factory=default_outbox_dir)
    # Seconds between the outbox's tries to save waiting changes: back within a few seconds of the store.
    outbox_retry_every: float = 2.0
    # Seconds between a page's looks at its waiting changes (no store call): told soon after they are saved.
    desk_watch_every: float = 2.0

    @classmethod
    def from_env(cls) -> Settings:
        """Return the defaults with the user's environment applied."""
        return cls(db_path=default_db_path())

    def with_(self, **changes: object) -> Settings:
        """Return a copy with the given fields changed."""
        return replace(self, **changes)  # type: ignore[arg-type]
