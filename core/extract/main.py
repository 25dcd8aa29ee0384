"""Which spans of a page's text are its main content, as opposed to navigation, sidebars or footers.

The page's own landmark (``<main>``, ``role="main"``) decides where it has one; otherwise
readability-lxml's choice does. Main content is a hint for the editor (a quote found in a
footer is flagged): it never cuts the text the matcher reads.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import lxml.etree

from core.models import Span

#: The attribute that carries each element's number from the walk into readability's tree and back.
ELEMENT_ID = "data-verbatim-id"
_RUN = re.compile(r"\s+")
_TABS = re.compile(r"\t|[ \t]{2,}")

log = logging.getLogger(__name__)


def _fold_run(m: re.Match[str]) -> str:
    run = m.group()
    # readability first cuts runs of 255+ to 255 spaces (so a newline in them is lost), then folds.
    return " " if len(run) >= 255 else "\n" if "\n" in run else run


def fast_clean(text: str) -> str:
    """Return readability's ``clean(text)``, computed in linear time (same result on every string)."""
    # readability's own r"\s*\n\s*" retries from every white-space character of a long run: on a
    # 1 MB page it spends two thirds of its time there. One pass over the runs gives the same text.
    text = _RUN.sub(_fold_run, text)
    return _TABS.sub(" ", text).strip()


def _readability() -> Any:
    import readability  # imported lazily: only pages that are read need it
    import readability.readability as module

    # Deliberate, process-wide: readability looks ``clean`` up in its module on every call.
    module.clean = fast_clean
    return readability


def _landmark_ids(root: lxml.etree._Element) -> set[int] | None:
    """Return the ids of the elements inside the page's own main landmark(s), None when it has none.

    A page that marks its main content (``<main>``, ``role="main"``, as Sphinx and most CMSs do)
    says better than any heuristic what is navigation; readability picks a single section of a
    long documentation page and would call the rest navigation.
    """
    marked = [e for e in root.iter(tag=lxml.etree.Element) if e.tag == "main" or e.get("role") == "main"]
    ids = {int(v) for m in marked for e in m.iter(tag=lxml.etree.Element) if (v := e.get(ELEMENT_ID)) is not None}
    return ids or None


def main_ids(root: lxml.etree._Element) -> set[int] | None:
    """Return the ids of the elements readability keeps as main content, None when it cannot tell."""
    landmark = _landmark_ids(root)
    if landmark is not None:
        return landmark
    readability = _readability()

    try:
        # readability needs lxml.html elements; it re-parses our tree, element ids included.
        doc = readability.Document(lxml.etree.tostring(root, encoding="unicode", method="html"))
        doc.summary(html_partial=True)
        kept = doc.html
    except Exception as exc:  # readability raises its own Unparseable and assorted bugs; main is a hint only
        log.info("readability could not find main content: %s", exc)
        return None
    ids = {int(v) for e in kept.iter() if isinstance(e.tag, str) and (v := e.get(ELEMENT_ID)) is not None}
    return ids or None


def merge(spans: Iterator[Span], gap: int = 1) -> tuple[Span, ...]:
    """Return the spans, in order, with those at most ``gap`` characters apart joined into one."""
    out: list[list[int]] = []
    for s, e in spans:
        if out and s - out[-1][1] <= gap:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return tuple((s, e) for s, e in out)
