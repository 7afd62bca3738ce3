"""The limits of gate-tui, one constant per fact, importable by every layer.

:mod:`gate_tui.models` enforces the state's; the editor's widgets show them (the summary's
``n/200`` counter) from its first frame, which is drawn before pydantic is imported; the
parsing layer bounds its work with the others.
"""

SUMMARY_MAX_CHARS = 200
"""The longest summary a state may hold (after trimming)."""

MAX_DEPTH = 512
"""The deepest nesting of JSON the scanner and the repair pass accept (deeper is an error,
never a ``RecursionError``)."""

DEFAULT_MAX_CHARS = 4 * 1024 * 1024
"""The longest reply the parser reads (``GateJsonParser(max_chars=…)`` changes it)."""
