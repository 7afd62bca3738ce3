"""Limits of a gate state that the editor shows before the models are loaded.

:mod:`gate_tui.models` enforces them; the editor's widgets show them (the summary's
``n/200`` counter) from its first frame, which is drawn before pydantic is imported.
"""

SUMMARY_MAX_CHARS = 200
"""The longest summary a state may hold (after trimming)."""
