"""Every place a quote stands, in the JSON report: counted, each with its span and flags, read back exactly."""

from __future__ import annotations

import json

from core.check import check_claim
from core.models import Verdict
from core.report import from_json, to_json
from core.settings import Settings
from tests.builders import claim, corpus_page, report, source
from tests.servers import corpus_bytes

WHATSNEW_312 = "html/python/whatsnew/3.12.html"
URL = "https://docs.python.org/3/whatsnew/3.12.html"


def _checked(quote: str):
    page = corpus_page(WHATSNEW_312)
    c = claim("c1", "Error messages for f-strings now show where the error is.", URL, quote)
    return check_claim(c, source(URL, corpus_bytes(WHATSNEW_312)), page, Settings()), page


def test_places_are_written_in_the_desks_order_with_their_flags() -> None:
    result, page = _checked("include the exact location of the error")
    assert result.verdict is Verdict.NEEDS_REVIEW
    data = json.loads(json.dumps(to_json(report(result))))
    written = data["claims"][0]
    assert written["occurrences"] == 2
    first, second = written["occurrence_places"]
    assert [f["kind"] for f in first["flags"]] == ["negation_cut"] and second["flags"] == []
    assert page.page.text[first["start"] : first["end"]] == "include the exact location of the error"
    assert first["hidden"] is False and written["fragments"][0]["hidden"] is False
    assert written["fragments"][0]["start"] == first["start"]


def test_places_read_back_exactly() -> None:
    result, _ = _checked("include the exact location of the error")
    data = json.loads(json.dumps(to_json(report(result))))
    back = from_json(data)
    assert back.results[0].match == result.match
    assert [o.span for o in back.results[0].match.occurrences] == [o.span for o in result.match.occurrences]  # type: ignore[union-attr]
    assert to_json(back) == data


def test_a_report_without_places_reads_as_none() -> None:
    result, _ = _checked("include the exact location of the error")
    data = json.loads(json.dumps(to_json(report(result))))
    del data["claims"][0]["occurrences"], data["claims"][0]["occurrence_places"]
    back = from_json(data).results[0].match
    assert back is not None and back.occurrences == () and back.occurrence_count == 0


def test_the_html_report_says_how_many_places_and_lists_them() -> None:
    from core.report import to_html

    result, _ = _checked("include the exact location of the error")
    html = to_html(report(result))
    assert (
        "The quote stands in 2 places on the page; each was checked for what it cut away, "
        "and 1 of them is flagged (shown first)." in html
    )
    assert "<li>Place 1 of 2 (negation cut)</li><li>Place 2 of 2</li>" in html


def test_each_place_has_its_own_view_for_the_desk() -> None:
    from core.report.marks import place_view

    result, _ = _checked("include the exact location of the error")
    views = [place_view(result, i, 2000) for i in range(2)]
    assert place_view(result, 2, 2000) is None
    marked = [[(s.mark, s.text) for s in v.segments if s.mark] for v in views if v is not None]
    assert marked[0] == [("flagged", "doesn’t"), ("hl", "include the exact location of the error")]
    assert marked[1] == [("hl", "include the exact location of the error")]
