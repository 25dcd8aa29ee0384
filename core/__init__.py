"""Verbatim's core: pure logic from a brief to a report. Never imports streamlit."""
