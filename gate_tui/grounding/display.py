"""How grounding shows, without Textual: the words of the gate marks and the order of a
preview's warnings (the editor's widgets call these; a test calls them directly)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

GROUNDING_CODES = ("ungrounded_raw", "classified_ungrounded", "near_grounded")
"""The warnings grounding adds to a result, most serious first."""

MARKS = {
    "user": "your edit",
    "grounded": "your words",
    "near": "≈ near your words",
    "ungrounded": "⚠ not your words",
}
"""The gate list's short mark per provenance kind (``unchecked``: no mark)."""


def grounding_first(warnings: Iterable[Any]) -> list[Any]:
    """``warnings`` with the grounding findings first (not the user's words before near),
    the rest after in their own order: what a reviewer must see first, on top."""
    listed = list(warnings)
    rank = {code: place for place, code in enumerate(GROUNDING_CODES)}
    return sorted(listed, key=lambda w: rank.get(getattr(w, "code", ""), len(rank)))
