"""``make eval`` for OCR of scanned PDFs: gold sentences found in OCR text, each with the OCR flag.

Two gold PDFs of ``../shared/corpus/pdf/gold/`` (the Kroger press release and four pages of
Alphabet's annual report) are "scanned": every page drawn at SCAN_DPI into an image and put in a
new PDF with no text layer, as a scanner makes it. ``extract`` reads them with OCR on
(``Settings(ocr=True)``); each gold sentence (tests/quality/eval_pdf.py's own) is matched with
``match_quote``. Found sentences must carry the OCR flag; without the option the scan must stay
``not_checked`` (Unreadable). The text-layer reading of the same PDFs is counted beside, as the
ceiling OCR is compared with.

Every miss is written to ``ocr_misses.txt`` with the closest passage of the OCR text (rapidfuzz
alignment, for reading only: it decides nothing) and what differs: the words OCR misread, or a
sentence the text layer misses too (its layout, not OCR).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from rapidfuzz import fuzz

from core.extract import extract
from core.match import match_quote, prepare
from core.models import FlagKind, PageText, Unreadable
from core.settings import Settings
from tests.builders import scanned_pdf
from tests.quality.eval_pdf import GOLD, gold_sentences

HERE = Path(__file__).resolve().parent
MISSES = HERE / "ocr_misses.txt"
SCAN_DPI = 200
DOCS = {"kroger": "kroger-press-release-2023", "alphabet": "2022-alphabet-annual-report-56-59"}
#: What this evaluation reads (tests/quality/corpus.py digests it).
CORPUS_FILES = tuple(f"pdf/gold/{doc}.pdf{ext}" for doc in DOCS.values() for ext in ("", ".txt"))


def _why(key: str, sentence: str, page: PageText, in_layer: bool) -> list[str]:
    """Return the lines of ocr_misses.txt for a gold sentence not found in the OCR text."""
    al = fuzz.partial_ratio_alignment(sentence.lower(), page.text.lower())
    passage = page.text[al.dest_start : al.dest_end] if al is not None else ""
    gold_words, ocr_words = sentence.split(), passage.split()
    diff = [
        f"{' '.join(gold_words[a1:a2])!r}->{' '.join(ocr_words[b1:b2])!r}"
        for tag, a1, a2, b1, b2 in difflib.SequenceMatcher(a=gold_words, b=ocr_words).get_opcodes()
        if tag != "equal"
    ]
    if not in_layer:
        cause = "the text layer misses it too (the PDF's layout, not OCR)"
    elif diff:
        cause = "OCR read other characters: " + ", ".join(diff[:4])
    else:
        cause = "words equal but not matched: a block break inside (OCR's blocks), or the matcher's rules"
    shown = " ¶ ".join(" ".join(part.split()) for part in passage.split("\n"))
    return [f"[{key}] {cause}", f"  gold: {sentence}", f"  ocr:  {shown}", ""]


def evaluate() -> dict[str, float | int]:
    """Return gold sentences found in the OCR text of the scans, and write ocr_misses.txt."""
    figures: dict[str, float | int] = {}
    lines = ["# Gold sentences not found in the OCR text of the scanned gold PDFs, with what differs", ""]
    total = found_total = flagged_total = layer_total = both_total = 0
    without_option_unreadable = 0
    for key, doc in DOCS.items():
        body = (GOLD / f"{doc}.pdf").read_bytes()
        gold = gold_sentences((GOLD / f"{doc}.pdf.txt").read_text(encoding="utf-8"))
        scanned = scanned_pdf(body, SCAN_DPI)
        without_option_unreadable += isinstance(extract(scanned, "application/pdf"), Unreadable)
        page = extract(scanned, "application/pdf", settings=Settings(ocr=True))
        layer = extract(body, "application/pdf")
        assert isinstance(page, PageText) and isinstance(layer, PageText), f"{doc}: {page}"
        prepared, layer_prepared = prepare(page), prepare(layer)
        found = flagged = in_layer = 0
        for sentence in gold:
            m = match_quote(sentence, prepared)
            layer_found = match_quote(sentence, layer_prepared).found
            found += m.found
            flagged += m.found and FlagKind.OCR in [f.kind for f in m.flags]
            in_layer += layer_found
            both_total += m.found and layer_found
            if not m.found:
                lines += _why(key, sentence, page, layer_found)
        figures[f"{key}_gold_sentences"] = len(gold)
        figures[f"{key}_ocr_found_count"] = found
        figures[f"{key}_text_layer_found_count"] = in_layer
        total += len(gold)
        found_total += found
        flagged_total += flagged
        layer_total += in_layer
    figures["ocr_found_pct"] = round(100 * found_total / total, 2)
    figures["ocr_found_flagged_pct"] = round(100 * flagged_total / found_total, 2) if found_total else 0.0
    figures["text_layer_found_pct"] = round(100 * layer_total / total, 2)
    # OCR against its ceiling: of the sentences the text layer gives, the share OCR gives too.
    figures["ocr_found_of_text_layer_pct"] = round(100 * both_total / layer_total, 2) if layer_total else 0.0
    figures["scans_unreadable_without_option_count"] = without_option_unreadable
    figures["scans_count"] = len(DOCS)
    MISSES.write_text("\n".join(lines), encoding="utf-8")
    return figures
