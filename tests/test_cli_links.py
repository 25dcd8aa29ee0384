"""One malformed link never sinks a brief: that claim is blocked with the reason, the rest is checked (issue 16, 5).

Every link below is refused before any look-up or connection: the table's hosts are never
resolved, and the one good claim is served by a loopback server.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import run_cli
from tests.servers import LoopbackServer, corpus_bytes

_GOOD_QUOTE = "In Python 3.10 and 3.11, distutils will be formally marked as deprecated."

MALFORMED = [
    # bad IDNA (punycode) labels: the IDNA codec raised and the whole brief failed
    ("http://xn--a-/x", "the host name is not valid: “xn--a-” is not a valid punycode label"),
    ("http://xn--/x", "the host name is not valid: “xn--” is not a valid punycode label"),
    ("https://xn--zz-zz/", "the host name is not valid: “xn--zz-zz” is not a valid punycode label"),
    ("http://xn--ls8h.la/x", "the host name is not valid: “xn--ls8h” is not a valid punycode label"),
    # overlong and empty labels, an overlong name
    ("http://" + "a" * 64 + ".com/x", "the host name is not valid: the label “aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…”"
     " is 64 characters long, over the 63 DNS allows"),
    ("http://a..b/x", "the host name is not valid: it has an empty label"),
    ("http://" + ("a" * 60 + ".") * 5 + "com/x", "the host name is not valid: it is 308 characters long, over the 253"),
    # bad ports
    ("http://example.com:99999/x", "is malformed (Port out of range 0-65535)"),
    ("http://example.com:8o/x", "is malformed (Port could not be cast to integer value as '8o')"),
    # bad percent-escapes, in the path and in the host
    ("http://example.com/a%zzb", "“%zz” is not a percent-escape"),
    ("http://example.com/100%", "“%” is not a percent-escape"),
    ("http://exa%mple.com/x", "the host name is not valid: “exa%mple.com” holds a percent sign"),
]  # fmt: skip


@pytest.mark.parametrize(("link", "reason"), MALFORMED, ids=[m[0][:40] for m in MALFORMED])
def test_a_malformed_link_is_its_claims_blocked_and_the_rest_is_checked(
    link: str, reason: str, server: LoopbackServer, tmp_path: Path
) -> None:
    good = server.add("/pep-0632", corpus_bytes("html/python/peps/pep-0632.html"))
    brief = tmp_path / "brief.md"
    brief.write_text(
        f'Distutils was cut ([bad]({link})): "The sky over the harbour was grey all morning."\n\n'
        f'Distutils was deprecated ([PEP 632]({good})): "{_GOOD_QUOTE}"\n',
        encoding="utf-8",
    )
    code, out, err = run_cli("check", str(brief), "--allow-private", "--db", str(tmp_path / "s.sqlite3"))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    bad_id, verdict, _, why = lines[0].split("\t")
    assert (bad_id, verdict) == ("c1", "blocked")
    assert reason in why and why.endswith(
        "fix it in the brief." if "malformed" in reason else "Fix the link in the brief."
    )
    assert lines[1].split("\t")[:2] == ["c2", "verified"]
    assert "run " in out  # the run was saved
    assert server.requests == ["/pep-0632"]
