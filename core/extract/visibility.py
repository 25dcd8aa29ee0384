"""Whether an element's text is shown, hidden until a reader opens it, or never shown to a sighted reader.

Hidden until opened: accordions, tabs, "read more" and product details that a page ships as
``hidden``, ``display:none``, a hiding class (``hidden``, ``d-none``, a Bootstrap ``collapse``
without ``show``, an inactive ``tab-pane``), a tab panel marked ``aria-hidden="true"``, and
the body of a ``<details>`` without ``open``. One click opens them, agents read them, and their
quotes are honest: the extractor keeps their text and lists its spans in ``PageText.hidden``.

Never shown: screen-reader-only classes (``sr-only``) and ``visibility:hidden``; their text is
dropped. ``aria-hidden`` alone is kept (sighted readers see it), and MediaWiki's MathML under
``display:none`` is the formula's visible text. Classes are read as whole tokens, never as
substrings: ``overflow-hidden`` and ``hidden-xs`` show their text on a desktop, and so does a
hiding class undone from some screen width on (``hidden md:block``, ``d-none d-lg-flex``).
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache

import lxml.etree

# Text for screen readers only, moved off screen by the page's CSS: no sighted reader sees it.
_SCREEN_READER_ONLY = frozenset(
    {"sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "element-invisible", "u-hidden"}
)
_NEVER_STYLE = re.compile(r"visibility\s*:\s*hidden", re.IGNORECASE)
_NONE_STYLE = re.compile(r"display\s*:\s*none", re.IGNORECASE)
# MediaWiki hides MathML with display:none and shows an image of the same formula: its
# presentation MathML is the formula's visible text.
_VISIBLE_DESPITE_STYLE = re.compile(r"\bmwe-math-mathml")
# Class tokens that hide an element until a script shows it (Bootstrap, Tailwind, common CMSs).
_HIDING_CLASSES = frozenset({"hidden", "hide", "is-hidden", "js-hidden", "d-none", "display-none", "is-collapsed"})
_OPENED_CLASSES = frozenset({"show", "in", "active", "open", "is-open", "is-active", "expanded"})
# A hiding class beside one that shows the element from some screen width on ("hidden md:block",
# "d-none d-lg-flex"): the text is on a desktop reader's screen.
_SHOWN_FROM_WIDTH = re.compile(r"^(?:(?:sm|md|lg|xl|2xl):(?!hidden)[\w-]+|d-(?:sm|md|lg|xl|xxl)-(?!none)\w+)$")


class Seen(StrEnum):
    """What a sighted reader sees of an element's text."""

    SHOWN = "shown"
    HIDDEN = "hidden"  # until the reader opens it
    NEVER = "never"


SHOWN, HIDDEN, NEVER = Seen.SHOWN, Seen.HIDDEN, Seen.NEVER


@lru_cache(maxsize=4096)
def _by_class(cls: str) -> Seen | None:
    """Return what a class attribute alone says (None: nothing); pages repeat a few class strings thousands of times."""
    tokens = set(cls.split())
    if not _SCREEN_READER_ONLY.isdisjoint(tokens):
        return NEVER
    if not _HIDING_CLASSES.isdisjoint(tokens):
        return SHOWN if any(_SHOWN_FROM_WIDTH.match(t) for t in tokens) else HIDDEN
    if ("collapse" in tokens or "tab-pane" in tokens) and _OPENED_CLASSES.isdisjoint(tokens):
        return HIDDEN
    return None


def seen(el: lxml.etree._Element, cls: str | None, style: str | None) -> Seen:
    """Return SHOWN, HIDDEN (shipped for a reader to open with one click) or NEVER (screen-reader only, invisible)."""
    by_class = _by_class(cls) if cls else None
    if by_class is NEVER or (style and _NEVER_STYLE.search(style)):
        return NEVER
    if el.get("hidden") is not None:
        return HIDDEN
    if style and _NONE_STYLE.search(style):
        return SHOWN if _VISIBLE_DESPITE_STYLE.search(cls or "") else HIDDEN
    if by_class is not None:
        return by_class
    return HIDDEN if el.get("role") == "tabpanel" and el.get("aria-hidden") == "true" else SHOWN


def closed_details(el: lxml.etree._Element) -> bool:
    """Return True for a <details> element without ``open``: all but its summary is hidden until opened."""
    return el.get("open") is None
