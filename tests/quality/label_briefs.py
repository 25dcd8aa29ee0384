"""Draft the labels of ``labels_briefs.json``: the cited units of each corpus brief, by its known style.

Run once by hand (``python -m tests.quality.label_briefs``); the eval reads only the JSON it
writes, which was then read through and corrected (see ``labels_briefs.md``). It is not the
brief reader: each brief's citation style is *told* here (from the corpus README), never
guessed, and each style is a few plain regular expressions over the raw text, so a fault of
the reader does not become a label.

A cited unit is one citation in the body: its URL and ``before``, the last words of its own
sentence written before it (its link text and other markers removed). A unit is found when a
claim has its URL and holds those words. ``links`` lists every http(s) URL the brief holds,
so that the eval can count the links no claim and no ``unused_links`` entry accounts for.
"""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

from tests.servers import CORPUS

HERE = Path(__file__).resolve().parent
LABELS = HERE / "labels_briefs.json"
BRIEFS = CORPUS / "briefs"

# brief's file name -> style (the corpus README's "citation style" column)
STYLES: dict[str, str] = {
    "chatgpt_macular_degeneration_full.md": "links",
    "chatgpt_Lotka_Volterra_Selection_Dynamics_for_Diverse_and_High-Quality_AI_Outputs.md": "links",
    "chatgpt_AI-Assisted_Clarification_and_Bias_Mitigation_in_Communication.md": "links",
    "chatgpt_Speculative_Avian-Inspired_AI_Architecture_Blueprint.md": "links",
    "chatgpt_sparse_reinforcement-enhanced_associative_memory_system.md": "links",
    "chatgpt_Transformer-squared_and_Bayesian_Teaching_Self-Adaptive_Probabilistic_Reasoning_in_LLMs.md": "links",
    "gemini_Crisis-Gardening-Solutions.md": "glued",
    "gemini_Navigating_Digital_Truth_s_Crisis_.md": "glued",
    "gemini_Elements-Of-A-Great-Story.md": "glued",
    "gemini_Hypergraphs-in-AI-and-Advanced-Data-Organization.md": "glued",
    "gemini_Autonomous_AI_Coding_Pipelines_.md": "glued",
    "gemini_Neuroscience_of_Unconscious_Information_Processing.md": "glued",
    "chatgpt_deep-research-report5.md": "none",
    "claude-3-7-sonnet_id62.md": "bracket",
    "claude-3-7-sonnet_id77.md": "bracket",
    "claude-3-7-sonnet_id20.md": "bracket",
    "deepagent_gptr_carbon_capture.md": "source_lines",
    "deepagent_gptr_mrna_vaccines.md": "source_lines",
    "deepagent_baseline_ai_governance.md": "source_lines",
    "openai_sora_report.md": "list_only",
    "Cristiano_Ronaldo_s_Performance_Highlights.md": "list_only",
    "arxiv.md": "list_only",
    "pubmed.md": "list_only",
    "drb_gpt-5_id88.md": "bracket",
    "storm_Hurricane_Hilary_references.md": "bracket",
    "perplexity_OnePointFiveBitNature.md": "caret",
    "claude-opus_what_is_rag_report.md": "bracket",
    "permchain_AAPL.pdf": "author_year",
}
_REF_HEAD = re.compile(
    r"^\s*(?:#{1,6}\s*)?[*_]*\s*(works cited|references|sources|key citations|参考文献)\b.*$|^参考文献[：:]?\s*$",
    re.IGNORECASE,
)
_MD_LINK = re.compile(
    r"!?\[((?:[^\[\]]|\\\[|\\\]|\[[^\]]*\])*)\]\(\s*<?([^()\s>]+(?:\([^()\s]*\)[^()\s>]*)*)>?(?:\s+\"[^\"]*\")?\s*\)"
)
_BARE = re.compile(r"(?<![(<\[])\bhttps?://[^\s<>()\[\]]+(?:\([^\s)]*\))?[^\s<>()\[\]]*")
_SENT_END = re.compile(r"[.!?](?:[\"”’)\]*_]*)\s+(?=\S)|[。！？](?:[”’）]*)\s*(?=\S)")


def clean_url(url: str) -> str:
    """Return a URL as a reader must report it: entities decoded, Markdown escapes and trailing punctuation gone."""
    url = html.unescape(url).replace("\\", "")
    return url.rstrip(".,;:*_")


def urls_in(line: str) -> list[str]:
    """Return every http(s) URL of a line: link targets first, then bare ones outside links."""
    line = re.sub(r"<img\b[^>]*>", " ", line, flags=re.IGNORECASE)  # an image is no link
    found = [clean_url(m.group(2)) for m in _MD_LINK.finditer(line) if re.match(r"(?:https?|file)://", m.group(2))]
    rest = _MD_LINK.sub(" ", line)
    found += [clean_url(m.group(0)) for m in _BARE.finditer(rest)]
    return found


def plain(text: str) -> str:
    """Return text with link markup reduced to its words, markers and emphasis removed."""
    text = re.sub(r"\(\s*\)", "", text)  # the brackets around a formula image, left empty
    text = re.sub(r"\(\s*\[[^\]]*\]\([^)]*\)\s*\)", " ", text)  # "([title](url))": a citation, not words
    text = re.sub(r"!\[[^\]]*\]\[[^\]]*\]", " ", text)  # "![][image3]": a dropped image
    text = _MD_LINK.sub(lambda m: m.group(1) if not m.group(0).startswith("!") else " ", text)
    text = re.sub(r"\[\^?\d+(?:\s*[,–-]\s*\d+)*\]", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    return re.sub(r"[*`#>|]|(?<!\w)_|_(?!\w)", " ", text)


def before_words(text: str, n: int = 6) -> str:
    """Return the last n words of the sentence that text ends in (in a table row: of its cell)."""
    if text.lstrip().startswith("|"):
        text = re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace("|", " "), text)
        text = text[text.rfind("|") + 1 :]
    text = plain(text)
    cuts = [m.end() for m in _SENT_END.finditer(text.rstrip())]
    if cuts:
        text = text[cuts[-1] :]
    words = re.findall(r"\w+", text)
    return " ".join(words[-n:])


def _split(lines: list[str]) -> tuple[list[str], list[str]]:
    """Return (body lines, reference lines): the references run from the last reference heading on."""
    heads = [i for i, ln in enumerate(lines) if _REF_HEAD.match(ln.strip()) and len(ln) < 200]
    if not heads:
        return lines, []
    return lines[: heads[-1]], lines[heads[-1] :]


def _entries(ref_lines: list[str], trailing: list[str]) -> dict[str, str]:
    """Return number -> first URL of each numbered entry: [n] ..., [n]: ..., [^n]: ..., n. ..."""
    out: dict[str, str] = {}
    for ln in [*ref_lines, *trailing]:
        m = re.match(r"^\s*>?\s*(?:\[\^?(\d+)\]:?|(\d+)[.)])\s+(.*)$", ln)
        if m:
            urls = urls_in(m.group(3))
            if urls:
                out.setdefault(m.group(1) or m.group(2), urls[0])
    return out


def label_markdown(rel: str, style: str) -> dict[str, object]:
    text = (BRIEFS / rel).read_text(encoding="utf-8")
    lines = text.split("\n")
    code = False
    kept: list[str] = []
    for ln in lines:
        if ln.strip().startswith(("```", "~~~")):
            code = not code
            kept.append("")
            continue
        kept.append("" if code else ln)
    kept = _join_links(kept)
    links = sorted({u for ln in lines for u in urls_in(ln)})
    units: list[dict[str, str]] = []
    body, refs = _split(kept) if style != "source_lines" else (kept, [])
    if style in ("bracket", "caret") and not refs:
        refs = [ln for ln in body if re.match(r"^\s*\[\^?\d+\]:?\s", ln)]
        body = [ln for ln in body if ln not in refs]
    entries = _entries(refs, [ln for ln in body if re.match(r"^\s*\[\^\d+\]:", ln)])
    if style == "list_only" or style == "none":
        return {"style": style, "units": units, "links": links}
    if style == "links":
        for n, ln in enumerate(body):
            if re.match(r"^\s*#", ln) or _sources_paragraph(body, n):
                continue
            for m in _MD_LINK.finditer(ln):
                if m.group(0).startswith("!") or not re.match(r"[a-z]+://", m.group(2)):
                    continue
                units.append({"url": clean_url(m.group(2)), "before": before_words(ln[: m.start()])})
    elif style in ("bracket", "caret", "glued"):
        # A closing "Sources:" paragraph of described links cites no sentence: it is a reference list.
        if style == "bracket":
            pattern = re.compile(r"\[(\d{1,3}(?:\s*[,–-]\s*\d{1,3})*)\](?![(:])")
        elif style == "caret":
            pattern = re.compile(r"\[\^(\d{1,3})\](?!:)")
        else:
            # Gemini: a number glued to a word, a closing mark or a full stop, then a break; or after a
            # closing mark or emphasis and a space ("(since 2010) 2,", "**Tool X** 1 |"), then a break.
            pattern = re.compile(
                r"(?<=[a-z\)\]\"”’?!.:*])(\d{1,3})(?=[\s.,;:!?)*|]|$)(?![.:]\d)"
                r"|(?<=[)\]\"”’*] )(\d{1,3})(?=[.,;:!?)]|\s*\||\s*$)(?![.:]\d)"
            )
        for ln in body:
            if re.match(r"^\s*#", ln) or re.match(r"^\s*\[\^?\d+\]:", ln):
                continue
            for m in pattern.finditer(ln):
                mark = next(g for g in m.groups() if g is not None)
                numbers = _numbers(mark)
                if style == "glued" and (
                    mark not in entries
                    or re.search(r"\d[.:]?$", ln[: m.start()])
                    or re.search(r"(?<![a-z])[a-z]{1,2}$", ln[: m.start()])  # "4x4", "mp3": part of a word
                ):
                    continue
                for number in numbers:
                    if number in entries:
                        units.append({"url": entries[number], "before": before_words(ln[: m.start()]), "mark": number})
    elif style == "source_lines":
        last = ""
        for ln in body:
            stripped = ln.strip()
            if not stripped:
                continue
            is_source = (
                re.match(r"^[-*]?\s*sources?\s*:", stripped, re.IGNORECASE)
                or re.fullmatch(r"[-*]?\s*https?://\S+", stripped)
                or re.fullmatch(r"[-*]?\s*[\w\s-]{1,40}:\s*https?://\S+", stripped)  # "Official text: URL"
            )
            if is_source:
                for url in urls_in(stripped):
                    # "… deployments. Sources:" ending the paragraph: the label is no words of the sentence.
                    text = re.sub(r"[*_]*sources?[*_]*\s*:[*_]*\s*$", "", last.rstrip(), flags=re.IGNORECASE)
                    units.append({"url": url, "before": before_words(text)})
                continue
            if stripped.startswith("#"):
                last = ""
                continue
            for m in _MD_LINK.finditer(ln):
                if m.group(2).startswith("http"):
                    units.append({"url": clean_url(m.group(2)), "before": before_words(ln[: m.start()])})
            last = ln
    return {"style": style, "units": units, "links": links}


def _sources_paragraph(lines: list[str], n: int) -> bool:
    """Return True for a "**Sources:** ..." paragraph after a blank line: a list of sources, citing no sentence."""
    return bool(re.match(r"^\s*[*_]*sources?[*_]*\s*:", lines[n], re.IGNORECASE)) and (
        n == 0 or not lines[n - 1].strip()
    )


def _join_links(lines: list[str]) -> list[str]:
    """Join the lines of a link written over several lines (ChatGPT's "([\\n title\\n ](url))")."""
    out: list[str] = []
    for ln in lines:
        if out and (out[-1].rstrip().endswith("[") or ln.lstrip().startswith("](") or _open_link(out[-1])):
            out[-1] = out[-1].rstrip() + " " + ln.strip()
        else:
            out.append(ln)
    return out


def _open_link(line: str) -> bool:
    tail = line[line.rfind("([") :] if "([" in line else ""
    return bool(tail) and "](" not in tail


def _numbers(spec: str) -> list[str]:
    out: list[str] = []
    for part in re.split(r"\s*,\s*", spec):
        if m := re.fullmatch(r"(\d+)\s*[–-]\s*(\d+)", part):
            out.extend(str(x) for x in range(int(m.group(1)), int(m.group(2)) + 1))
        elif part:
            out.append(part)
    return out


def label_pdf(rel: str) -> dict[str, object]:
    """Label a PDF: each URI link annotation on a small raised number (a superscript note) is a unit."""
    import pymupdf

    units: list[dict[str, str]] = []
    links: set[str] = set()
    with pymupdf.open(BRIEFS / rel) as doc:
        end = _endnotes_start(doc)
        for page in doc:
            words = page.get_text("words")
            heights = sorted(w[3] - w[1] for w in words) or [0.0]
            # Other note numbers (digits set small) are no words of the sentence.
            words = [w for w in words if not (w[4].isdigit() and w[3] - w[1] < heights[len(heights) // 2] * 0.8)]
            for link in page.get_links():
                uri = link.get("uri") or ""
                if not uri.startswith("http"):
                    continue
                links.add(uri)
                r = link["from"]
                inside = [
                    w
                    for w in page.get_text("words")
                    if r.x0 <= (w[0] + w[2]) / 2 <= r.x1 and r.y0 <= (w[1] + w[3]) / 2 <= r.y1
                ]
                mark = " ".join(w[4] for w in inside)
                if not re.fullmatch(r"\d{1,3}", mark) or (page.number, r.y0) >= end:
                    continue
                if any(top <= r.y0 < bottom for top, bottom in _source_lists(page)):
                    continue  # a "Sources used" list names sources; it is no claim
                # The words of the same line left of the mark, then the line above: the sentence it ends.
                line = [w for w in words if abs(w[3] - r.y1) < 6 and w[2] <= r.x0 + 1 and w[4] != mark]
                line.sort(key=lambda w: w[0])
                if not line:  # a number wrapped to the next line: it ends the line above
                    above = [w for w in words if 0 <= r.y0 - w[3] + 2 < 12 and w[4] != mark]
                    line = sorted(above, key=lambda w: w[0])
                units.append({"url": uri, "before": before_words(" ".join(w[4] for w in line), 3), "mark": mark})
            uris = {link.get("uri") or "" for link in page.get_links()}
            for m in _BARE.finditer(page.get_text()):
                url = clean_url(m.group(0))
                if not any(u.startswith(url) for u in uris):  # a URL set over two lines is its link's
                    links.add(url)
    return {"style": "pdf_notes", "units": units, "links": sorted(links)}


def label_author_year_pdf(rel: str) -> dict[str, object]:
    """Label a PDF cited by author and year: each "(Name, 2022)" whose References entry starts with Name."""
    import pymupdf

    with pymupdf.open(BRIEFS / rel) as doc:
        text = "\n".join(page.get_text() for page in doc)
    body, _, refs = text.rpartition("\nReferences\n")
    refs = re.sub(r"(https?://)\s+", r"\1", refs)  # a URL the layout broke after its scheme
    entries = {}
    for line in re.split(r"\n(?=[A-Z])", refs):
        urls = re.findall(r"https?://\S+", line)
        if urls:
            entries[line.split()[0].rstrip(".,").casefold()] = urls[0]
    units = []
    flat = " ".join(body.split())
    for m in re.finditer(r"\(([A-Z][^(),]*?), ((?:19|20)\d\d)\)", flat):
        url = entries.get(m.group(1).casefold())
        if url:
            units.append({"url": url, "before": before_words(flat[: m.start()]), "mark": m.group(0)})
    return {"style": "author_year", "units": units, "links": sorted(set(entries.values()))}


def _source_lists(page: object) -> list[tuple[float, float]]:
    """Return the (top, bottom) of each "Sources used" list of a page: to the next block set at heading indent."""
    blocks = sorted(page.get_text("blocks"), key=lambda b: b[1])  # type: ignore[attr-defined]
    out = []
    for n, b in enumerate(blocks):
        if re.match(r"\s*sources(?: used)?\s*$", b[4], re.IGNORECASE):
            below = [x[1] for x in blocks[n + 1 :] if x[0] <= b[0] + 4 and x[1] > b[3]]
            out.append((b[3], min(below, default=10**6)))
    return out


def _endnotes_start(doc: object) -> tuple[int, float]:
    """Return (page, y) where the closing endnote list starts: the block before the first line that is only a URL."""
    for page in doc:  # type: ignore[attr-defined]
        blocks = page.get_text("blocks")
        for n, b in enumerate(blocks):
            if re.fullmatch(r"https?://\S+", b[4].strip()):
                return page.number, blocks[n - 1][1] - 1 if n else b[1] - 1
    return 10**6, 0.0


def label_docx(rel: str) -> dict[str, object]:
    """Label a DOCX: each superscript run of digits is a unit, resolved through the numbered works-cited list."""
    import zipfile

    from lxml import etree

    w = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
    with zipfile.ZipFile(BRIEFS / rel) as z:
        root = etree.fromstring(z.read("word/document.xml"))
        rels = etree.fromstring(z.read("word/_rels/document.xml.rels"))
    targets = {r.get("Id"): r.get("Target") for r in rels if r.get("TargetMode") == "External"}
    paras = []
    for p in root.iter(f"{w}p"):
        runs = []
        for r in p.iter(f"{w}r"):
            va = r.find(f"{w}rPr/{w}vertAlign")
            sup = va is not None and va.get(f"{w}val") == "superscript"
            runs.append(("".join(t.text or "" for t in r.iter(f"{w}t")), sup))
        hl = [
            targets.get(h.get("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"))
            for h in p.iter(f"{w}hyperlink")
        ]
        paras.append((runs, [u for u in hl if u]))
    texts = ["".join(t for t, _ in runs) for runs, _ in paras]
    head = max(i for i, t in enumerate(texts) if t.strip() in ("참고 자료", "Works cited"))
    entries = {}
    for n, (_runs, hl) in enumerate(paras[head + 1 :], 1):
        found = hl or re.findall(r"https?://\S+", texts[head + n])
        if found:
            entries[str(len(entries) + 1)] = found[0]
    units = []
    for runs, _ in paras[:head]:
        so_far = ""
        for t, sup in runs:
            if sup and re.fullmatch(r"\s*\d{1,3}(?:\s*,\s*\d{1,3})*\s*", t):
                for number in re.findall(r"\d+", t):
                    if number in entries:
                        units.append({"url": entries[number], "before": before_words(so_far, 4), "mark": number})
            so_far += t
    links = sorted({u for _, hl in paras for u in hl if u.startswith("http")})
    return {"style": "docx_superscript", "units": units, "links": links}


def main() -> int:
    labels: dict[str, object] = {}
    for path in sorted(BRIEFS.rglob("*")):
        rel = path.relative_to(BRIEFS).as_posix()
        if path.suffix == ".md" and path.name in STYLES:
            labels[rel] = label_markdown(rel, STYLES[path.name])
        elif path.suffix == ".pdf" and STYLES.get(path.name) == "author_year":
            labels[rel] = label_author_year_pdf(rel)
        elif path.suffix == ".pdf":
            labels[rel] = label_pdf(rel)
        elif path.suffix == ".docx":
            labels[rel] = label_docx(rel)
    LABELS.write_text(json.dumps(labels, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for rel, entry in labels.items():
        assert isinstance(entry, dict)
        print(f"{len(entry['units']):5d} units {len(entry['links']):5d} links  {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
