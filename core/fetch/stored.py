"""Whether a stored copy may be served under the policy in force now, as if its URL were fetched again.

A copy fetched while private networks were allowed must not reach a later run that does not
allow them: a stored copy is served only when the current policy accepts its URL, the final
URL it was redirected to, and every address the fetch connected to (``Source.addresses``).
A copy older than that record, of a host name (not an IP literal), cannot be judged without
resolving the name again: it is ``unproven``, and the fetcher fetches afresh (offline, the
claim is not checked). Copies no fetch made (the editor's, the sample's) are the editor's
evidence and are not judged here. This module never resolves or connects.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from core.errors import Refused
from core.fetch.policy import Policy, check_address, check_url, parse_ip_host
from core.fetch.reasons import via
from core.models import Origin, Source, SourceStatus

#: The rule of a refusal that says only "cannot tell": fetch afresh rather than block.
UNPROVEN = "unproven"
#: Copies that came from no fetch: served whatever the policy says.
EDITORS_COPIES = (Origin.EDITOR, Origin.SAMPLE)


def stored_refusal(source: Source, policy: Policy) -> Refused | None:
    """Return the refusal the current policy gives a stored copy (rule UNPROVEN: cannot tell), or None to serve it."""
    if source.origin in EDITORS_COPIES:
        return None
    urls = [u for u in dict.fromkeys((source.url, source.final_url)) if u]
    for url in urls:
        target = check_url(url, policy)
        if isinstance(target, Refused):
            # The same words a fresh fetch refused at that redirect would give.
            return target if url == source.url else Refused(target.rule, via([source.url], url, target.reason))
    if source.status is not SourceStatus.OK:
        return None  # a stored failure carries no page: its reason is all it serves
    if source.addresses is None or not all(address for _, address in source.addresses):
        named = [u for u in urls if parse_ip_host(urlsplit(u).hostname or "") is None]
        if named and not policy.allow_private:
            return Refused(
                UNPROVEN,
                f"The stored copy of {source.url} does not record the address it came from, so Verbatim cannot"
                " tell whether it came from a private network: check again with fetching on.",
            )
        return None
    for host, address in source.addresses:
        refusal = check_address(host, address, policy)
        if refusal is not None:
            return refusal
    return None
