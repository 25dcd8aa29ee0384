"""Tests of the project itself: its tests, its layers and its README (no product behaviour here)."""
