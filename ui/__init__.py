"""The review desk: Streamlit pages over core (see ui/app.py)."""
