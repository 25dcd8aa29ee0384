"""``make eval`` for PDFs without gold text: honest quotes read by pdfminer.six, found in core.extract.pdf's text.

The held-out measure is on PDFs we do not have, so the corpus's other real PDFs
(``pdf/papers/``, ``pdf/edge/``) are read by an independent reader: pdfminer.six, its own parser
and layout analysis (test-only). Each of its text boxes is one paragraph; its lines are joined as
a reader copies them (a line-end hyphen before a lower-case letter dropped, "mod-/els" ->
"models"; any other kept, "COVID-/19"); its sentences (cut after ".", "!" or "?" followed by
white space) of 8 or more words are the honest quotes. A sentence with a glyph pdfminer cannot
map ("(cid:12)") is no quote anyone could copy: counted, not matched. Each quote is matched with
``core.match.match_quote`` against the PDF's PageText.

Every miss goes to ``pdf_reference_misses.txt`` with its class: the reference's fault (its
layout analysis put words of two blocks in one sentence, or read a word otherwise) or ours
(PyMuPDF's plain text has the words in this order and our reading does not). False quotes made
from the quotes found (tests/quality/pdf_false.py) must never be verified.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from pathlib import Path

import pymupdf
from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTTextBox
from rapidfuzz import fuzz

from core.extract.pdf import extract_pdf
from core.match import PreparedPage, match_quote, prepare
from core.models import PageText
from core.text import quote_part
from tests.quality.pdf_false import KINDS, count_verified
from tests.servers import CORPUS

HERE = Path(__file__).resolve().parent
MISSES = HERE / "pdf_reference_misses.txt"
MIN_WORDS = 8
FOLDERS = ("papers", "edge")
#: What this evaluation reads, relative to the corpus (tests/quality/corpus.py digests it).
CORPUS_FILES = tuple(f"pdf/{folder}/*.pdf" for folder in FOLDERS)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_UNMAPPED = "(cid:"
_HEAD = re.compile(r"(\w+)-$")
_TAIL = re.compile(r"^(\w+)")
_SPELLED = re.compile(r"\w+(?:-\w+)?")


def _join(lines: list[str], spelled: Counter[str]) -> str:
    """Return a text box's lines as a reader copies them: a syllable hyphen dropped, other line ends a space.

    A line-end hyphen before a lower-case letter is a syllable break, unless the reference's own
    text writes the compound with its hyphen more often than as one word ("fine-/grained").
    """
    out = ""
    for line in (" ".join(line.split()) for line in lines):
        if not line:
            continue
        head, tail = _HEAD.search(out), _TAIL.match(line)
        compound = f"{head.group(1)}-{tail.group(1)}".lower() if head and tail else ""
        if out.endswith("-") and compound and spelled[compound] > spelled[compound.replace("-", "")]:
            out += line
        elif out.endswith(("-", "\u00ad")) and line[0].islower():
            out = out[:-1] + line
        elif out.endswith("-") or not out:
            out += line
        else:
            out += " " + line
    return out


def reference_reading(path: Path) -> tuple[list[str], str]:
    """Return pdfminer.six's sentences of MIN_WORDS or more words in the PDF, each once, and its whole text."""
    seen: dict[str, None] = {}
    boxes = [
        box.get_text().split("\n")
        for layout in extract_pages(path, laparams=LAParams())
        for box in layout
        if isinstance(box, LTTextBox)
    ]
    # The reference's own spelling, inside its lines: words and hyphenated compounds.
    spelled = Counter(m.lower() for lines in boxes for line in lines for m in _SPELLED.findall(line.rstrip("-")))
    paragraphs = [_join(lines, spelled) for lines in boxes]
    for paragraph in paragraphs:
        for sentence in _SENTENCE_END.split(paragraph):
            if len(sentence.split()) >= MIN_WORDS:
                seen.setdefault(sentence, None)
    return list(seen), "\n".join(paragraphs)


def _tokens(text: str) -> str:
    """Return the matcher's tokens of a text, joined by spaces: word order without punctuation or breaks."""
    part = quote_part(text)
    return " ".join(part.words) if part is not None else ""


def _plain(body: bytes) -> str:
    with pymupdf.open(stream=body, filetype="pdf") as doc:
        return " ".join(page.get_text() for page in doc)


def _cause(sentence: str, page: PageText, prepared: PreparedPage, plain: str) -> tuple[str, str]:
    """Return (class of the miss, closest passage of our text) for a reference sentence we do not find."""
    text = page.text
    al = fuzz.partial_ratio_alignment(sentence.lower(), text.lower())
    start, end = (al.dest_start, al.dest_end) if al is not None else (0, 0)
    while start > 0 and text[start - 1].isalnum():  # whole words at both ends
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    passage = text[start:end]
    words = _tokens(sentence)
    ours = " ".join(prepared.words)
    if f" {words} " in f" {ours} ":
        return "break: our text has these words in this order, across a block edge or sentence end", passage
    if sentence.rstrip().endswith(("-", "\u00ad")) or words in ours:
        return "reference's box edge: its text box ends or starts inside a word our text reads whole", passage
    if f" {words} " in f" {_tokens(plain)} ":
        return "OUR FAULT: PyMuPDF's plain text has these words in this order, our reading does not", passage
    ref, ours = words.split(), _tokens(passage).split()
    diff = [
        (" ".join(ref[a1:a2]), " ".join(ours[b1:b2]))
        for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(a=ref, b=ours, autojunk=False).get_opcodes()
        if tag != "equal"
    ]
    shown = ", ".join(f"{a!r}->{b!r}" for a, b in diff[:4])
    if diff and all(a.replace(" ", "") == b.replace(" ", "") for a, b in diff):
        return f"line end: the reference joins or splits a word otherwise than ours ({shown})", passage
    if len(diff) > 4 or sum(len(a.split()) for a, _ in diff) * 3 > len(ref):
        return "layout: the readings order these words otherwise (a table by rows or columns, figure labels)", passage
    return f"words: the readings differ ({shown})", passage


def _show(passage: str) -> str:
    return " ¶ ".join(" ".join(part.split()) for part in passage.split("\n"))


def evaluate() -> dict[str, float | int]:
    """Return reference sentences found per PDF and in all, false quotes verified, and write the misses file."""
    figures: dict[str, float | int] = {}
    lines = ["# pdfminer.six's sentences of the corpus's PDFs that the matcher does not find in our text, by class", ""]
    total = found_total = blocked = unmapped = 0
    classes: Counter[str] = Counter()
    made: Counter[str] = Counter()
    verified: Counter[str] = Counter()
    for folder in FOLDERS:
        for path in sorted((CORPUS / "pdf" / folder).glob("*.pdf")):
            body = path.read_bytes()
            page = extract_pdf(body)
            key = re.sub(r"\W+", "_", path.stem.lower()).strip("_")
            sentences, reference = reference_reading(path)
            skipped = [s for s in sentences if _UNMAPPED in s]
            quotes = [s for s in sentences if _UNMAPPED not in s]
            unmapped += len(skipped)
            if not isinstance(page, PageText):
                lines += [f"[{key}] not read by core.extract.pdf: {page.reason}", ""]
                figures[f"{key}_found_count"] = 0
                total += len(quotes)
                continue
            prepared = prepare(page)
            plain = _plain(body)
            found: list[str] = []
            for sentence in quotes:
                match = match_quote(sentence, prepared)
                if match.found:
                    found.append(sentence)
                    blocked += bool(match.blocking)
                    continue
                cause, passage = _cause(sentence, page, prepared, plain)
                classes[cause.split(":")[0]] += 1
                lines += [f"[{key}] {cause}", f"  reference: {sentence}", f"  ours: {_show(passage)}", ""]
            doc_made, doc_verified = count_verified(found, prepared, reference)
            made += doc_made
            verified += doc_verified
            figures[f"{key}_found_count"] = len(found)
            figures[f"{key}_quotes"] = len(quotes)
            total += len(quotes)
            found_total += len(found)
    figures["total_quotes"] = total
    figures["total_found_count"] = found_total
    figures["total_found_pct"] = round(100.0 * found_total / max(total, 1), 2)
    # The misses whose class says the reference read the PDF otherwise (its box edges inside a
    # word, its own line-end joins, its layout) are left out here: what is left may be ours.
    theirs = classes["reference's box edge"] + classes["line end"] + classes["layout"]
    figures["found_pct_of_quotes_not_misread_by_reference"] = round(100.0 * found_total / max(total - theirs, 1), 2)
    figures["total_found_but_blocked_count"] = blocked
    figures["unmapped_glyph_sentences_count"] = unmapped
    for name in ("break", "reference's box edge", "OUR FAULT", "line end", "layout", "words"):
        figures["missed_" + re.sub(r"\W+", "_", name.lower()).strip("_") + "_count"] = classes[name]
    figures["false_count"] = made.total()
    figures["false_verified_count"] = verified.total()
    for kind in KINDS:
        figures[f"false_{kind}_verified_count"] = verified[kind]
    MISSES.write_text("\n".join(lines), encoding="utf-8")
    return figures


if __name__ == "__main__":
    for k, v in evaluate().items():
        print(f"{k}: {v}")
