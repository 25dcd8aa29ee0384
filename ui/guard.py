"""The note guard: a note typed and not yet committed is committed, and the editor warned, before a reload.

A Streamlit text area sends its text to the desk only on blur or Ctrl+Enter, so a reload
right after typing would lose the note silently. This script (the desk's own, never a brief's)
marks a Note text area dirty on input and clean on blur or Ctrl+Enter; when the page is about
to unload with a dirty note it blurs it (which commits and saves it) and asks the browser to
warn the editor, and when the tab is hidden it commits it too. It refuses to read or send
anything itself: the note travels only through Streamlit's own widget.
"""

from __future__ import annotations

import streamlit as st

SCRIPT = """<script>
(() => {
  const w = window.parent && window.parent.document ? window.parent : window;
  if (w.__verbatimNoteGuard) return;
  w.__verbatimNoteGuard = true;
  const d = w.document;
  const dirty = new Set();
  const isNote = (e) => e && e.tagName === "TEXTAREA" && e.getAttribute("aria-label") === "Note";
  d.addEventListener("input", (e) => { if (isNote(e.target)) dirty.add(e.target); }, true);
  d.addEventListener("blur", (e) => { if (isNote(e.target)) dirty.delete(e.target); }, true);
  d.addEventListener("keydown", (e) => {
    if (isNote(e.target) && e.key === "Enter" && (e.ctrlKey || e.metaKey)) dirty.delete(e.target);
  }, true);
  const commit = () => {
    let any = false;
    for (const area of Array.from(dirty)) {
      if (area.isConnected) { any = true; area.blur(); }
      dirty.delete(area);
    }
    return any;
  };
  w.addEventListener("beforeunload", (e) => {
    if (commit()) { e.preventDefault(); e.returnValue = ""; }
  });
  d.addEventListener("visibilitychange", () => { if (d.visibilityState === "hidden") commit(); });
})();
</script>"""


def uncommitted_notes() -> None:
    """Install the note guard on the page (once per browser page; drawing it again does nothing)."""
    st.html(SCRIPT, unsafe_allow_javascript=True)
