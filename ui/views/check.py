"""Check page: paste or upload a brief (or take the sample), choose options, and check it.

While sources are fetched it lists every source with its state, drawn from progress events
that the worker thread queues and this script drains; then it opens the review. It refuses
to parse or check anything itself: core does, through ui.services.
"""

from __future__ import annotations

import time

import streamlit as st

from core.errors import BriefError, VerbatimError
from core.models import Brief
from ui import auth, draw, services, state

_STATE_WORDS = {
    "waiting": "⏳ waiting",
    "fetching": "↻ fetching",
    "fetched": "✓ fetched",
    "cached": "✓ cached copy",
    "failed": "✗ failed",
}
_JOB = "vb_job"
_JOB_BRIEF = "vb_job_brief"
_READ = "vb_read"
_READ_REFRESH = "vb_read_refresh"


def _samples_ready(store: object) -> str:
    """Load the sample's offline sources once per session; return a message when that failed."""
    if st.session_state.get("vb_samples_loaded"):
        return ""
    try:
        services.load_samples(store)
    except VerbatimError as exc:
        return f"The bundled sample sources could not be loaded ({exc}); checking the sample would need the network."
    st.session_state["vb_samples_loaded"] = True
    return ""


def _first_start_text(store: object) -> None:
    """On first start (no runs stored yet), open with the sample brief in the text area."""
    if "brief_text" in st.session_state:
        return
    text = ""
    try:
        if not store.list_runs(limit=1):  # type: ignore[attr-defined]
            data, name = services.sample_brief()
            if name.endswith((".md", ".txt", ".markdown")):
                text = data.decode("utf-8")
    except VerbatimError:  # the sample is a convenience; an empty text area is fine
        text = ""
    st.session_state["brief_text"] = text


def _is_sample_text() -> bool:
    data, _ = services.sample_brief()
    return st.session_state.get("brief_text", "").strip() == data.decode("utf-8", "replace").strip()


def _read_input(settings) -> Brief | None:
    """Return the brief pasted in the text area; draw the reason when it cannot be read (uploads: _follow_read)."""
    try:
        text = st.session_state.get("brief_text", "")
        if not text.strip():
            st.error("There is no brief to check: paste one into the box, upload a file, or try the sample brief.")
            return None
        return services.parse_pasted(text)
    except BriefError as exc:
        st.error(draw.md(str(exc)))
    return None


def _read_words(job: services.ReadJob) -> tuple[float, str]:
    """Return how far an upload's read got, as a fraction and in words."""
    what, done, total = job.progress
    if what == "unpacking" and total:
        return (
            done / total,
            f"Unpacking {draw.md(job.name)}: {done / 1e6:.1f} of {total / 1e6:.1f} MB of text and markup",
        )
    if what == "paragraphs" and total:
        return done / total, f"Reading paragraphs of {draw.md(job.name)}: {done:,} of {total:,}"
    if what == "claims":
        return 1.0, f"Finding the claims of {draw.md(job.name)}…"
    return 0.0, f"Opening {draw.md(job.name)}…"


def _follow_read() -> None:
    """Show the upload's read until it ends (the editor may stop it), then check the brief it gave."""
    job: services.ReadJob = st.session_state[_READ]
    stop = st.empty()
    if stop.button("Stop reading", key="read_cancel", help="Stop reading this file; nothing is checked"):
        job.cancel()
    with st.status(f"Reading {draw.md(job.name)}…", expanded=True) as box:
        bar = st.empty()
        while not job.done:
            job.wait(0.2)
            fraction, words = _read_words(job)
            bar.progress(min(1.0, fraction), text=words)
        stop.empty()
        bar.empty()
        del st.session_state[_READ]
        try:
            brief = job.result()
        except BriefError as exc:  # a cancelled read says so, like any other unreadable brief
            box.update(label=f"{job.name} was not read", state="error", expanded=True)
            st.error(draw.md(str(exc)))
            return
        box.update(label=f"Read {job.name}", state="complete", expanded=False)
    _start_check(brief, job.settings, bool(st.session_state.pop(_READ_REFRESH, False)))
    if _JOB in st.session_state:
        st.rerun()


def _draw_progress(job: services.CheckJob, table) -> None:
    # Claims decided so far and their verdicts, as each source's claims are decided, above the sources.
    done = sum(job.decided.values())
    decided = f'<p class="muted decided">{done:,} of {len(job.brief.claims):,} claims decided</p>'
    table.html(decided + draw.summary_bar_html(job.tally()) + draw.progress_html(job.states, _STATE_WORDS))


def _start_check(brief: Brief, settings, refresh: bool, offline: bool = False) -> None:
    if not brief.claims:
        hints = " ".join(brief.warnings)
        st.warning(
            f"No claims were found in {draw.md(brief.name)}. A claim is a sentence or list item that cites a source "
            f"(a link, a bare URL, a footnote or a numbered reference). {draw.md(hints)}"
        )
        return
    queue = services.team_queue(state.store(), state.settings())
    if queue:  # a team store: the workers check it (python -m core worker); this page follows the job
        raw = st.session_state.get("brief_text", "").encode("utf-8")
        try:
            job = services.queue_check(
                queue, brief, raw, settings, refresh=refresh, offline=offline, queued_by=auth.editor().name
            )
        except VerbatimError as exc:
            st.error(draw.md(f"{brief.name} could not be queued for checking: {exc}"))
            return
        st.session_state[_JOB] = job
    else:
        st.session_state[_JOB] = services.CheckJob(
            brief, settings, state.store(), refresh=refresh, offline=offline
        ).start()
    st.session_state[_JOB_BRIEF] = brief


def _follow_job() -> None:
    """Draw the running check until it ends (resuming after any rerun), then open the review."""
    job: services.CheckJob = st.session_state[_JOB]
    if isinstance(job, services.QueuedCheck):
        _follow_queued(job)
        return
    brief: Brief = st.session_state[_JOB_BRIEF]
    n_src = len(job.states)
    with st.status(
        f"Checking {len(brief.claims)} claims of {draw.md(brief.name)} against {n_src} sources…", expanded=True
    ) as box:
        table = st.empty()
        _draw_progress(job, table)
        last, dirty = time.monotonic(), False
        while not job.done:
            job.wait(0.1)
            dirty = job.drain() or dirty
            # Redraw at most 5 times a second: a thousand sources must not flood the browser.
            if dirty and time.monotonic() - last > 0.2:
                _draw_progress(job, table)
                last, dirty = time.monotonic(), False
        job.drain()
        _draw_progress(job, table)
        del st.session_state[_JOB]
        try:
            checked = job.result()
        except VerbatimError as exc:
            box.update(label="The check stopped with an error", state="error", expanded=True)
            st.error(draw.md(f"Checking {brief.name} failed: {exc}. The sources fetched so far are kept in the store."))
            return
        box.update(label=f"Checked {len(brief.claims)} claims in {job.seconds:.1f} s", state="complete", expanded=False)
    try:
        report = services.save_run(state.store(), checked, brief)
    except VerbatimError as exc:
        st.warning(draw.md(f"The run could not be saved to the store ({exc}); it stays open in this tab only."))
        report = checked
    state.set_report(report)
    st.switch_page("views/review.py")


_JOB_WORDS = {
    "queued": "Queued: waiting for a free worker (python -m core worker)",
    "running": "Being checked by a worker",
    "done": "Checked",
    "failed": "The check failed",
}


def _follow_queued(job: services.QueuedCheck) -> None:
    """Follow a check queued for the workers without blocking the page: a fragment looks again every few seconds."""
    every = state.settings().job_poll_seconds

    @st.fragment(run_every=every)
    def look() -> None:
        try:
            record, states, team = services.queued_view(job)
        except VerbatimError as exc:  # nothing is lost: the job goes on in the workers, and this page looks again
            st.warning(draw.md(f"The team store is unreachable: {exc} The check goes on; this page looks again."))
            return
        if record is None:
            st.error(draw.md(f"The queued check of {job.brief_name} is no longer in the team store."))
            return
        if record.state == "done":
            problem = state.load_run(record.run_id)
            if not problem:
                del st.session_state[_JOB]
                st.switch_page("views/review.py")
            st.error(draw.md(problem))
            return
        words = _JOB_WORDS.get(record.state, record.state)
        if record.state == "running":
            words += f" ({record.worker}, attempt {record.attempts})"
        box = "error" if record.state == "failed" else "running"
        # Never a `with` block: leaving one turns a running status complete (✓), and this fragment leaves it
        # every few seconds while the job still runs.
        status = st.status(f"{words}: {record.claims} claims of {draw.md(job.brief_name)}", state=box, expanded=True)
        if record.state == "failed":
            status.error(draw.md(record.error))
        status.html(draw.progress_html(states, _STATE_WORDS))
        rows = [
            {
                "brief": j.brief_name,
                "queued by": j.queued_by,
                "state": j.state.value,
                "attempts": j.attempts,
                "queued at": j.queued_at,
                "worker": j.worker,
            }
            for j in team
        ]
        st.caption("The team's newest checks")
        st.dataframe(rows, hide_index=True)

    look()
    if st.button("Check another brief", key="queued_leave", help="The check goes on; its run appears in History"):
        del st.session_state[_JOB]
        st.rerun()


def _follow_here(form) -> None:
    """Follow a check just started in the form's place, in this run (a rerun to draw it cost ~0.3 s of each check)."""
    if _JOB not in st.session_state:
        return
    if isinstance(st.session_state[_JOB], services.QueuedCheck):
        st.rerun()  # the workers' job is followed by a fragment of its own
    form.empty()
    _follow_job()
    st.stop()


st.title("Check a brief")
st.caption(
    "Verbatim fetches every cited source, checks in plain code that each quote is on the page and that the "
    "claim's figures are in the quote. A found quote proves the words are there, not that they support the claim."
)

settings = state.settings()
try:
    store = state.store()
except VerbatimError as exc:  # the store words its own failure
    st.error(draw.md(str(exc)))
    st.stop()
sample_problem = _samples_ready(store)
_first_start_text(store)

if _JOB in st.session_state:
    _follow_job()
    st.stop()
if _READ in st.session_state:
    _follow_read()  # it reruns into the check; after an error or a stop, the page is drawn below its message

# One placeholder holds the form: a check started below is followed in its place, in this same run.
form = st.empty()
left, right = form.container().columns([3, 2])
with left:
    st.text_area(
        "Paste a brief (Markdown or plain text)",
        key="brief_text",
        height=300,
        placeholder="A claim with its source, e.g. CPython 3.11 is 25% faster [1] ...",
    )
    if _is_sample_text():
        st.caption("This is the bundled sample brief: its sources are bundled too, so checking it needs no network.")
with right:
    st.file_uploader(
        "…or upload one",
        type=services.BRIEF_TYPES,
        key="brief_file",
        help="Markdown, text, DOCX, PDF, or a JSON/CSV claims file",
    )
    # Options in force stay in view, so that no one checks a brief with a forgotten setting.
    ss = st.session_state
    in_force = bool(
        ss.get("opt_private") or ss.get("opt_refresh") or ss.get("opt_ocr") or ss.get("opt_domains", "").strip()
    )
    # The open state lives on the server (a key, and a rerun on toggle): a rerun of the form (a text area's
    # blur, a box ticked or unticked) never closes or reopens it under the editor's hand, as an expander
    # whose `expanded` follows the options would (its identity changed with it).
    if in_force:
        ss["vb_options_open"] = True
    with st.expander("Options", key="vb_options_open", on_change="rerun"):
        st.text_area(
            "Only these domains (and their subdomains); empty allows every public domain",
            key="opt_domains",
            height=80,
            placeholder="python.org, example.com",
        )
        st.checkbox("Allow private network addresses", key="opt_private")
        if st.session_state.get("opt_private"):
            st.warning(
                "Private network allowed: sources on this machine and your local network (127.0.0.1, 10.x, 192.168.x) "
                "will be fetched. Use only for briefs you trust."
            )
        st.checkbox("Fetch fresh copies (ignore stored copies)", key="opt_refresh", value=False)
        st.checkbox(
            "Read scanned PDFs by OCR",
            key="opt_ocr",
            value=False,
            help="Slow (seconds a page). A quote found in OCR text is flagged, and the page image is shown beside it.",
        )

    # A reader may open every run but makes none (a check is a new run); Streamlit drops clicks on a disabled button.
    reader = not auth.editor().may_decide
    if reader:
        st.info(draw.md(auth.refusal_now()))
    go = st.button("Check", type="primary", key="check_button", width="stretch", disabled=reader)
    sample = st.button(
        "Try the sample brief",
        key="sample_button",
        width="stretch",
        help="Works offline: its sources are bundled",
        disabled=reader,
    )
    # Below the buttons, so that the expander above keeps its place (and stays open) on upload.
    chosen = st.session_state.get("brief_file")
    if chosen is not None:
        st.caption(draw.md(f"{chosen.name} will be checked; remove it to check the pasted text instead."))
    if sample_problem:
        st.caption(draw.md(sample_problem))

if go:
    run_settings = state.fetch_settings()  # the options as shown: the one source of every fetch's policy
    upload = st.session_state.get("brief_file")
    if upload is not None:
        # Read in a worker: a long read shows how far it got, and the editor may stop it.
        st.session_state[_READ] = services.ReadJob(upload.getvalue(), upload.name, run_settings).start()
        st.session_state[_READ_REFRESH] = bool(st.session_state.get("opt_refresh"))
        st.rerun()
    brief = _read_input(run_settings)
    if brief is not None:
        refresh = bool(st.session_state.get("opt_refresh"))
        # The untouched sample text is checked from its bundled copies, like the sample button.
        offline = not refresh and st.session_state.get("brief_file") is None and _is_sample_text()
        _start_check(brief, run_settings, refresh, offline=offline)
        _follow_here(form)
elif sample:
    try:
        data, name = services.sample_brief()
        brief = services.read_uploaded(data, name, settings)
    except BriefError as exc:
        st.error(draw.md(f"The sample brief could not be read: {exc}"))
    else:
        # The sample's sources are bundled: it is checked offline, from the stored copies only.
        _start_check(brief, settings, refresh=False, offline=True)
        _follow_here(form)
