"""Reading an allowlist as an editor writes it: the command line's --allow-domain and the desk's box alike.

One or many entries, each holding domains separated by white space, commas or semicolons;
each domain normalised by ``netguard.normalise_domain`` ("*.Wikipedia.org" and
"https://example.net/x" give "wikipedia.org" and "example.net"). It refuses to check a URL:
``netguard.check_url`` does that with the domains this returns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.fetch.netguard import normalise_domain

_SEPARATORS = re.compile(r"[\s,;]+")


def parse_allowlist(entries: str | Iterable[str]) -> tuple[str, ...]:
    """Return the domains the entries name, normalised, each once, in the order given (() for none)."""
    texts = [entries] if isinstance(entries, str) else list(entries)
    words = (word for text in texts for word in _SEPARATORS.split(text))
    return tuple(dict.fromkeys(d for d in map(normalise_domain, words) if d))
