"""A run opened by its link in a tab whose options are not the run's (issue 24, 4), through AppTest.

The run is real: a page served on loopback, checked with private addresses allowed and stored. A fresh
session opens it by ``?run=ID`` with the Check page's defaults (private addresses refused): the review says
the run's options and this tab's; adopting a passage and re-fetching say in words that this tab's options
refuse the stored copy, never that the page "could not be read", and change nothing; one click makes the
run's options this tab's, and the same passage is then adopted against the stored copy.
"""

from __future__ import annotations

import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.brief import parse_markdown
from core.check import check_brief
from core.models import Verdict
from core.report import from_json, to_json
from core.settings import Settings
from core.store import Store
from tests.servers import LoopbackServer, corpus_bytes

APP = Path(__file__).resolve().parents[2] / "ui" / "app.py"


def _plain(markdown: str) -> str:
    return re.sub(r"\\(.)", r"\1", markdown)


def _run(server: LoopbackServer) -> tuple[str, str]:
    url = server.add("/3.11", corpus_bytes("html/python/whatsnew/3.11.html"))
    settings = Settings.from_env().with_(allow_private=True)
    store = Store(settings.db_path)
    brief = parse_markdown(f"CPython 3.11 is a quarter faster than 3.10 ([notes]({url})).\n", "notes.md")
    report = check_brief(brief, settings, store=store)
    assert report.results[0].verdict is Verdict.NO_QUOTE
    return store.save_run(to_json(report), brief.raw, brief.name), url


def test_actions_refused_by_this_tab_s_options_say_so_and_offer_the_run_s(server: LoopbackServer) -> None:
    run_id, url = _run(server)
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.query_params["run"] = run_id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (info,) = [_plain(i.value) for i in at.info if "This run was checked with" in _plain(i.value)]
    assert info.startswith(
        "This run was checked with private network addresses allowed; every public domain; this tab's options are "
        "private network addresses not allowed; every public domain."
    )
    at.button(key="openbtn|c1").click().run()
    warning = next(_plain(w.value) for w in at.warning if "refuse" in _plain(w.value))
    assert (
        "this tab's options (private network addresses not allowed; every public domain) refuse the stored copy"
        f" of {url}" in warning
    )

    requests = len(server.requests)
    at.button(key="adopt|c1|0").click().run()
    errors = [_plain(e.value) for e in at.error]
    assert any(e.startswith("Not adopted: This run was checked with private network addresses allowed") for e in errors)
    assert not any("could not be read" in e for e in errors + [_plain(m.value) for m in at.markdown])
    assert not [s for s in at.success if "re-checked" in s.value]
    stored = from_json(Store(Settings.from_env().db_path).load_run(run_id))
    assert stored.results[0].verdict is Verdict.NO_QUOTE and stored.results[0].claim.quote is None

    at.button(key="refetch|c1").click().run()
    assert any(_plain(e.value).startswith("Not re-fetched: This run was checked with") for e in at.error)
    assert len(server.requests) == requests  # refused before any request

    at.button(key="use_run_options|review").click().run()
    assert at.session_state["opt_private"] is True
    assert not [i for i in at.info if "This run was checked with" in _plain(i.value)]
    at.button(key="adopt|c1|0").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("re-checked with the adopted passage" in _plain(s.value) for s in at.success)
    adopted = from_json(Store(Settings.from_env().db_path).load_run(run_id)).results[0]
    assert adopted.claim.quote and adopted.match is not None and adopted.match.found
