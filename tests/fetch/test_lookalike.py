"""Look-alike hosts (issue 24, 2): read with UTS #39's confusables, flagged, and shown beside their punycode.

One table of hosts: whole-script look-alikes (every letter Cyrillic, Greek or Armenian with a Latin
twin), mixed-script ones (one label mixing scripts), and honest international names. Each host is
cited by a claim whose honest quote stands on the page it is served (PEP 632); every look-alike
must be needs_review with a blocking flag naming the host it imitates, shown with its punycode on
the desk's card and in every export, and no honest name may be flagged or shown any other way.
"""

from __future__ import annotations

import html
import io
import json
import re
import zipfile

import idna
import pytest

from core.check import check_brief, check_claim
from core.fetch import Fetcher
from core.fetch.lookalike import lookalike
from core.models import Brief, BriefFormat, FlagKind, SourceStatus, Verdict
from core.report import ExportKind, exports
from core.settings import Settings
from tests.builders import claim, corpus_bytes, corpus_page, report, source
from tests.fetch_servers import PUBLIC, StubNet, serve_quick
from ui import draw

PEP = "html/python/peps/pep-0632.html"
QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."
CLAIM = "Distutils is deprecated in Python 3.10 and 3.11."

# (host as the brief writes it, the ASCII host it imitates ("" when its letters imitate none), scripts named)
LOOKALIKES = [
    # whole-script: every letter of a label in one other script
    ("www.іеа.org", "www.iea.org", "Cyrillic"),
    ("аррӏе.com", "appie.com", "Cyrillic"),  # ICU's skeleton reads the palochka as "i"
    ("ѕсоре.com", "scope.com", "Cyrillic"),
    ("уаһоо.com", "yahoo.com", "Cyrillic"),
    ("ѕес.gov", "sec.gov", "Cyrillic"),
    ("www.рурі.org", "www.pypi.org", "Cyrillic"),
    ("ԁоԁо.com", "dodo.com", "Cyrillic"),
    ("ѵіѕа.com", "visa.com", "Cyrillic"),
    ("www.xn--80aj2h.org", "www.iea.org", "Cyrillic"),  # written in punycode: still the Cyrillic look-alike
    ("ναυ.com", "vau.com", "Greek"),
    ("ουν.net", "ouv.net", "Greek"),
    ("ոօս.com", "nou.com", "Armenian"),
    ("ցօ.com", "go.com", "Armenian"),
    ("օօ.org", "oo.org", "Armenian"),
    # mixed-script: one label mixing Latin with look-alike letters
    ("pаypal.com", "paypal.com", "Latin and Cyrillic"),
    ("gооgle.com", "google.com", "Latin and Cyrillic"),
    ("mіcrosoft.com", "microsoft.com", "Latin and Cyrillic"),
    ("аmazon.com", "amazon.com", "Latin and Cyrillic"),
    ("www.bbс.co.uk", "www.bbc.co.uk", "Latin and Cyrillic"),
    ("gοοgle.com", "google.com", "Latin and Greek"),
    ("αpple.com", "apple.com", "Latin and Greek"),
    ("ορεn.com", "", "Latin and Greek"),
    ("gօօgle.com", "google.com", "Latin and Armenian"),
    ("nսll.org", "null.org", "Latin and Armenian"),
    ("υѕа.gov", "usa.gov", "Latin, Cyrillic and Greek"),
]
HONEST = [
    "bücher.de",
    "xn--bcher-kva.de",
    "東京.jp",
    "пример.рф",
    "россия.рф",
    "рсс.рф",  # every letter has a Latin twin, but the whole name is Cyrillic: it imitates no ASCII host
    "ελλάδα.gr",
    "αθήνα.gr",
    "հայաստան.am",
    "münchen.de",
    "straße.de",
    "café.fr",
    "한국.kr",
    "例え.テスト",
    "日本語ab.jp",  # Han beside Latin: UTS #39's highly restrictive level allows it
    "kırmızı.com.tr",  # Latin letters alone: Turkish dotless i is how the language writes
    "إختبار.مصر",
    "www.iea.org",
    "peps.python.org",
]
TABLE = [(h, like, scripts) for h, like, scripts in LOOKALIKES] + [(h, None, "") for h in HONEST]


def _export_texts(kinds: dict[ExportKind, bytes]) -> dict[ExportKind, str]:
    """Return each export's text as a reader sees it (markup removed, entities decoded)."""
    texts = {
        ExportKind.JSON: json.dumps(json.loads(kinds[ExportKind.JSON]), ensure_ascii=False),
        ExportKind.HTML: html.unescape(re.sub(r"<[^>]+>", " ", kinds[ExportKind.HTML].decode("utf-8"))),
        ExportKind.CSV: kinds[ExportKind.CSV].decode("utf-8-sig"),
    }
    with zipfile.ZipFile(io.BytesIO(kinds[ExportKind.DOCX])) as z:
        xml = " ".join(z.read(n).decode("utf-8") for n in z.namelist() if n.endswith(".xml"))
    texts[ExportKind.DOCX] = html.unescape(re.sub(r"<[^>]+>", "", xml))
    return texts


def _punycode(host: str) -> str:
    return idna.encode(host, uts46=True).decode("ascii")


def test_the_table_holds_30_hosts_of_each_kind_the_issue_names() -> None:
    assert len(TABLE) >= 30
    named = " ".join(s for _, _, s in LOOKALIKES)
    for script in ("Cyrillic", "Greek", "Armenian"):
        assert any(s == script for _, _, s in LOOKALIKES), f"no whole-script {script} look-alike"
        assert any(s.startswith("Latin") and script in s for _, _, s in LOOKALIKES), f"no mixed {script} look-alike"
    assert "Latin" in named and len(HONEST) >= 10


@pytest.mark.parametrize(("host", "imitates", "scripts"), TABLE, ids=[t[0] for t in TABLE])
def test_a_lookalike_host_is_flagged_and_shown_beside_its_punycode_everywhere(
    host: str, imitates: str | None, scripts: str
) -> None:
    url = f"https://{host}/peps/pep-0632/"
    page = corpus_page(PEP)
    result = check_claim(claim("c1", CLAIM, url, QUOTE), source(url, corpus_bytes(PEP)), page, Settings())
    card = html.unescape(draw.card_html(result, 1))
    meta = html.unescape(draw.source_meta_html(result.source, QUOTE))
    texts = _export_texts(exports(report(result)))
    flags = [f for f in result.match.flags if f.kind is FlagKind.LOOKALIKE_HOST] if result.match else []
    if imitates is None:
        assert result.verdict is Verdict.VERIFIED, result.reasons
        assert flags == []
        assert lookalike(host) is None
        assert f"https://{host}/peps/pep-0632/" in card and "punycode" not in card
        for kind, text in texts.items():
            assert "punycode" not in text and "look-alike" not in text and "look like" not in text, kind
        return
    puny = _punycode(host)
    assert result.verdict is Verdict.NEEDS_REVIEW, result.reasons
    assert len(flags) == 1 and flags[0].blocking
    message = flags[0].message
    how = f"mixes {scripts} letters" if scripts.startswith("Latin") else f"is written in {scripts} letters"
    assert how in message and f"({puny})" in message
    like = f"that look like {imitates}" if imitates else "the spelling of a look-alike host"
    assert like in message
    assert message in result.reasons
    assert f"(punycode: {puny})" in card and message in card
    assert f"(punycode: {puny})" in meta
    for kind, text in texts.items():
        assert message in text, kind
        assert puny in text, kind
    assert f"(punycode: {puny})" in texts[ExportKind.HTML] and f"(punycode: {puny})" in texts[ExportKind.DOCX]


def test_a_lookalike_host_is_fetched_through_the_guard_and_stays_flagged_when_served() -> None:
    """The look-alike's punycode name is what DNS sees; a page served there is read and flagged, not refused."""
    body = corpus_bytes(PEP)
    with serve_quick() as server:
        server.add("/pep-0632/", body, "text/html; charset=utf-8")
        net = StubNet({"www.xn--80aj2h.org": [[PUBLIC]]}, loopback_port=server.port)
        url = "http://www.іеа.org/pep-0632/"
        brief = Brief(name="b.md", format=BriefFormat.MARKDOWN, claims=(claim("c1", CLAIM, url, QUOTE),))
        settings = Settings().with_(extract_workers=0)
        with Fetcher(settings, resolver=net.resolve, connector=net.connect) as fetcher:
            done = check_brief(brief, settings, fetcher=fetcher)
    (result,) = done.results
    assert net.lookups == ["www.xn--80aj2h.org"] and server.requests == ["/pep-0632/"]
    assert result.verdict is Verdict.NEEDS_REVIEW
    assert result.reasons[0] == (
        "The quote is on the page, but the link's host imitates another name, which stops it being verified."
    )
    assert result.reasons[1] == (
        "The link's host www.іеа.org (www.xn--80aj2h.org) is written in Cyrillic letters that look like"
        " www.iea.org: it is not that site. Check who publishes this page before relying on it."
    )


def test_a_dead_lookalike_still_says_what_it_imitates() -> None:
    url = "https://pаypal.com/login"
    result = check_claim(
        claim("c1", CLAIM, url, QUOTE),
        source(url, status=SourceStatus.DEAD_LINK, reason="404"),
        None,
        Settings(),
    )
    assert result.verdict is Verdict.DEAD_LINK
    assert any("mixes Latin and Cyrillic letters that look like paypal.com" in r for r in result.reasons)
