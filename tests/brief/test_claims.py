"""JSON and CSV claims files: DESIGN.md's shapes and the variants agents write."""

from __future__ import annotations

import json

import pytest

from core.brief import BriefError, read_brief
from core.settings import Settings
from tests.servers import DATA

BRIEFS = DATA / "briefs"


def test_agent_json_with_key_variants_and_extra_fields() -> None:
    brief = read_brief((BRIEFS / "agent_claims.json").read_bytes(), "agent_claims.json")
    assert brief.format == "json"
    assert [c.id for c in brief.claims] == ["speed", "c2", "c3"]
    speed, distutils, threading = brief.claims
    assert speed.url == "https://docs.python.org/3/whatsnew/3.11.html"
    assert speed.quote == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert distutils.url == "https://peps.python.org/pep-0632/"  # "source_url"
    assert distutils.quote == "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."  # "evidence"
    assert threading.text == "Free threading is experimental in 3.13."  # "statement"
    assert threading.url == "https://docs.python.org/3/whatsnew/3.13.html"  # "source": {"url": ...}
    assert threading.quote is None
    assert brief.uncited == ("Python is popular.",)
    assert speed.location is not None and speed.location.kind == "row" and speed.location.index == 0


def test_bare_list_json() -> None:
    rows = [{"claim": "A claim.", "url": "https://example.org/a", "quote": "words on the page"}]
    brief = read_brief(json.dumps(rows).encode(), "list.json")
    assert [(c.id, c.text, c.url, c.quote) for c in brief.claims] == [
        ("c1", "A claim.", "https://example.org/a", "words on the page")
    ]


def test_duplicate_ids_are_made_unique_with_a_warning() -> None:
    rows = [{"id": "x", "claim": f"Claim {n}.", "url": "https://example.org/"} for n in range(2)]
    brief = read_brief(json.dumps(rows).encode(), "dup.json")
    assert [c.id for c in brief.claims] == ["x", "x-2"]
    assert any("the id 'x' is used twice" in w for w in brief.warnings)


def test_csv_with_bom_crlf_and_extra_columns() -> None:
    brief = read_brief((BRIEFS / "bom_extra_columns.csv").read_bytes(), "bom_extra_columns.csv")
    assert brief.format == "csv"
    assert [c.text for c in brief.claims] == [
        "CPython 3.11 is 25% faster than 3.10.",
        'distutils is deprecated, says "PEP 632".',
        "Free threading is in 3.13.",
    ]
    assert brief.claims[0].quote == "CPython 3.11 is an average of 25% faster than CPython 3.10"
    assert brief.claims[2].quote is None  # an empty cell is no quote
    assert [c.location.index for c in brief.claims if c.location] == [0, 1, 2]


@pytest.mark.parametrize("delimiter", [";", "\t"])
def test_csv_other_delimiters(delimiter: str) -> None:
    text = delimiter.join(["claim", "url", "quote"]) + "\n" + delimiter.join(["A.", "https://e.org/", "q q q"])
    brief = read_brief(text.encode(), "claims.csv")
    assert [(c.text, c.url, c.quote) for c in brief.claims] == [("A.", "https://e.org/", "q q q")]


def test_max_claims_cuts_with_a_warning() -> None:
    rows = [{"claim": f"Claim {n}.", "url": f"https://example.org/{n}"} for n in range(5)]
    brief = read_brief(json.dumps({"claims": rows}).encode(), "many.json", Settings(max_claims=3))
    assert len(brief.claims) == 3
    assert "many.json has 5 claims; only the first 3 are checked and 2 are left out." in brief.warnings[0]


def test_claims_file_without_urls_is_not_an_error() -> None:
    brief = read_brief(b'{"claims": [{"claim": "Nothing cited."}]}', "none.json")
    assert brief.claims == ()
    assert brief.uncited == ("Nothing cited.",)
    assert any("has no claim with a URL" in w for w in brief.warnings)


@pytest.mark.parametrize(
    ("data", "name", "message"),
    [
        (
            b'{"claims": [{"claim": "a", "url": "b"},]}',
            "bad.json",
            "bad.json is not valid JSON (line 1, column 40: Expecting value). "
            'Fix the file, or export the claims again as {"claims": [{"claim": ..., "url": ..., "quote": ...}]}.',
        ),
        (
            b'{"answer": 42}',
            "shape.json",
            'shape.json holds no list of claims: expected a "claims" list or a bare list. Fix the file, or export '
            'the claims again as {"claims": [{"claim": ..., "url": ..., "quote": ...}]}.',
        ),
        (
            b'["just a string"]',
            "strings.json",
            'strings.json: claim 1 is not an object with "claim", "url" and "quote". Fix the file, or export the '
            'claims again as {"claims": [{"claim": ..., "url": ..., "quote": ...}]}.',
        ),
        (
            b"name,address\nx,y\n",
            "people.csv",
            'people.csv has no "claim" and "url" columns (its first row reads: name, address). '
            "Make the first row the header claim,url,quote.",
        ),
        (
            b'claim,url\n"unclosed,https://e.org/\n',
            "broken.csv",
            "broken.csv is not a readable CSV file (unexpected end of data). "
            "Save it again as CSV with the header claim,url,quote.",
        ),
    ],
)
def test_malformed_claims_files_say_what_to_do(data: bytes, name: str, message: str) -> None:
    with pytest.raises(BriefError) as err:
        read_brief(data, name)
    assert str(err.value) == message


def test_quote_lists_and_source_titles() -> None:
    rows = [
        {
            "claim": "CPython 3.11 is faster.",
            "source": "What's New In Python 3.11",
            "source_url": "https://docs.python.org/3/whatsnew/3.11.html",
            "quotes": [
                "CPython 3.11 is an average of 25% faster",
                "as measured with the pyperformance benchmark suite",
            ],
        },
        {"claim": "Named, not linked.", "source": "PEP 632"},
    ]
    brief = read_brief(json.dumps(rows).encode(), "agent.json")
    (claim,) = brief.claims
    assert claim.url == "https://docs.python.org/3/whatsnew/3.11.html"  # the title under "source" is skipped
    assert (
        claim.quote == "CPython 3.11 is an average of 25% faster … as measured with the pyperformance benchmark suite"
    )
    assert brief.uncited == ("Named, not linked.",)
