"""HTML parsed as a browser parses it (the HTML5 algorithm, lexbor), into the lxml tree the extractor walks.

libxml2's HTML parser is not the HTML5 algorithm: a page that closes ``</html>`` before its
``<body>`` gives it no body at all, a table's stray text stays where no browser shows it.
lexbor (through selectolax) builds the tree a browser builds; its HTML5 serialisation, clean
of every error a page may hold, is then read by lxml, whose tree the extractor and readability
walk. Before that serialisation, the elements no reader sees the content of are taken out
(scripts, styles, templates, embedded objects): libxml2 does not know that ``<embed>``,
``<source>``, ``<track>`` and ``<wbr>`` are void and would swallow the text after them.
Measured on the whole corpus (tests/quality/eval_pages.py, tests/bench/bench_extract.py).

HTML5 tree construction costs time in proportion to the depth of open elements at each tag:
100,000 nested ``<div>`` take a minute. A page that opens more elements than
``settings.html5_max_depth`` without closing them is read by libxml2 (which stops at 2,048
levels), with a warning. This module refuses to decode bytes and to judge what is visible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import accumulate

import lxml.etree
from selectolax.lexbor import LexborHTMLParser

from core.settings import Settings

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
# The same characters as UTF-8 bytes: none of them is ever part of a longer character's encoding.
_CONTROL_BYTES = bytes([*range(0x09), 0x0B, *range(0x0E, 0x20), 0x7F])
_CONTROL_SINGLES = tuple(bytes([b]) for b in _CONTROL_BYTES)
# What str.strip() takes as white space (none above U+3000), and the control characters: a page of
# only these holds no markup.
_BLANK = "".join(c for c in map(chr, range(0x3001)) if c.isspace()) + _CONTROL_BYTES.decode("ascii")
# Elements whose content no reader sees, the void elements libxml2 does not know as void, and those
# that hold no text (<link>, <meta>: a wiki page has hundreds) which lxml would read back for nothing.
_TAKEN_OUT = [
    "script", "style", "template", "iframe", "object", "embed", "source", "track", "param", "keygen", "wbr",
    "select", "textarea", "datalist", "link", "meta", "noscript",
]  # fmt: skip
# A start or end tag and its name as the HTML5 tokenizer reads it (up to white space, "/" or ">");
# void elements never open a level.
_TAG = re.compile(rb"</?[A-Za-z][^\t\n\f\r />]*")
_VOID = frozenset(b"area base br col embed hr img input keygen link meta param source track wbr".split())
# Ids and attributes of the element a single-page application fills in with its scripts.
_APP_ROOTS = "#root, #app, #__next, #__nuxt, #___gatsby, #svelte, [ng-app], [data-reactroot], [data-v-app], app-root"
# What a script that builds the page carries: framework state, DOM writes, module bundles.
_BUILDS = re.compile(
    r"document\.write|innerHTML|createElement|ReactDOM|hydrate|createApp|__NEXT_DATA__|__NUXT__|__INITIAL_STATE__"
    r"|__APOLLO_STATE__|webpackJsonp|customElements\.define",
)
_BUNDLE_SRC = re.compile(r"(?:bundle|chunk|main|app|runtime|vendor|index)[.-][\w.-]*\.m?js\b|/_next/|/_nuxt/", re.I)
_DEEP_WARNING = (
    "The page nests its markup deeper than the HTML parser reads (2,048 levels); "
    "text after that point was not read. Paste the page's text if a quote is missing."
)


@dataclass(frozen=True)
class Scripts:
    """What a page says about needing JavaScript: evidence, not a verdict (core/extract/read.py decides)."""

    noscript: str = ""  # the text of its <noscript> elements
    count: int = 0  # <script> elements
    builders: int = 0  # scripts that build the page: modules, bundles, DOM writes, framework state
    empty_app_root: bool = False  # an application root (id="root", ng-app, ...) with no text in it


def _nesting(html: bytes) -> int:
    """Return the most elements a page holds open at once, counted from its tags (an upper bound)."""
    # C-level all through (findall, map over a dict, accumulate, max) but for the step of each of the
    # page's few distinct tags: a 1 MB page takes ~5 ms.
    tags = _TAG.findall(html)
    steps = {t: 0 if t.lstrip(b"</").lower() in _VOID else -1 if t[1] == 47 else 1 for t in set(tags)}  # 47: "/"
    return max(accumulate(map(steps.__getitem__, tags)), default=0)


def _scripts(tree: LexborHTMLParser) -> Scripts:
    noscript = " ".join(" ".join(n.text(deep=True).split()) for n in tree.css("noscript"))
    count = builders = 0
    for node in tree.css("script"):
        attrs = node.attributes
        kind = (attrs.get("type") or "").lower()
        if kind and "javascript" not in kind and kind != "module":
            continue  # JSON-LD, templates: data, not code
        count += 1
        src = attrs.get("src") or ""
        if kind == "module" or (src and _BUNDLE_SRC.search(src)) or _BUILDS.search(node.text(deep=False) or ""):
            builders += 1
    roots = tree.css(_APP_ROOTS)
    empty_root = bool(roots) and all(not n.text(deep=True).strip() for n in roots)
    return Scripts(noscript=noscript, count=count, builders=builders, empty_app_root=empty_root)


def _libxml2(html: str | bytes) -> tuple[lxml.etree._Element | None, list[str]]:
    # Plain etree elements: lxml.html's element classes cost a third of the walk's time.
    parser = lxml.etree.HTMLParser(encoding="utf-8", huge_tree=True)
    data = html if isinstance(html, bytes) else html.encode("utf-8", "replace")
    try:
        root = lxml.etree.fromstring(data, parser=parser)
    except (lxml.etree.ParserError, lxml.etree.XMLSyntaxError, ValueError):
        return None, []
    if any("Excessive depth" in e.message for e in parser.error_log):
        return root, [_DEEP_WARNING]
    return root, []


def parse(html: str, settings: Settings | None = None) -> tuple[lxml.etree._Element | None, list[str], Scripts]:
    """Return the page's tree as a browser builds it (None for no markup), warnings, and its script evidence."""
    settings = settings or Settings()
    if not html.strip(_BLANK):
        return None, [], Scripts()
    # Bytes from here on: lexbor reads UTF-8 (dropping what cannot be encoded, as it does with text),
    # and a scan of bytes costs a fraction of one of text, which a single emoji makes 4 bytes a character.
    data = html.encode("utf-8", "ignore")
    if any(map(data.__contains__, _CONTROL_SINGLES)):  # each a memchr: most pages hold none
        data = data.translate(None, _CONTROL_BYTES)
    if _nesting(data) > settings.html5_max_depth:
        root, warnings = _libxml2(_CONTROL.sub("", html))
        return root, warnings or [_DEEP_WARNING], Scripts()
    tree = LexborHTMLParser(data)
    scripts = _scripts(tree)
    tree.strip_tags(_TAKEN_OUT)
    root, warnings = _libxml2(tree.html or "")
    return root, warnings, scripts
