"""A decoded candidate of the full extraction path, and what its extraction notes hold.

Split from :mod:`gate_tui.parsing.choosing` (one idea per module): :class:`Found` is what the
chooser keeps of each candidate it decodes, enough to build the result if it wins.
"""

from __future__ import annotations

from typing import Any

from gate_tui.parsing.candidates import Candidate, has_preferred_key, position
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.tail import decode_repaired
from gate_tui.parsing.repair.vocabulary import Fix, RepairOutcome, RepairRecord, certainty

_DECODE_ERRORS = (ValueError, RecursionError, MemoryError)

ExtractionParts = tuple[
    dict[str, Any] | None,
    str | None,
    str | None,
    tuple[int, int] | None,
    list[RepairRecord],
    dict[str, Any],
]
"""The fields of an :class:`Extraction` in order, ``(value, error, source, span, repairs, notes)``,
with each repair as a ``Repair``-shaped dict. ``notes`` holds what the policy step needs:
``error_code``, ``cut_at`` / ``cut_paths`` (offset and fields of a cut), ``others`` (offsets
of the candidates not used)."""


def decode_outcome(outcome: RepairOutcome) -> Any:
    """The value of a successful repair (None if it does not decode after all)."""
    try:
        return decode_repaired(outcome)
    except _DECODE_ERRORS:
        return None


class Found:
    """A decoded candidate: enough to build the :class:`Extraction` if it wins."""

    __slots__ = ("value", "start", "end", "fence", "fixes", "outcome")

    def __init__(
        self,
        value: Any,
        start: int,
        end: int,
        fence: int,
        fixes: tuple[Fix, ...],
        outcome: RepairOutcome | None = None,
    ) -> None:
        self.value = value
        self.start = start
        self.end = end
        self.fence = fence
        self.fixes = fixes
        self.outcome = outcome

    def candidate(self, text: str, index: int, used: bool, keys: tuple[str, ...]) -> Candidate:
        line, column = position(text, self.start)
        return Candidate(
            index,
            line,
            column,
            (self.start, self.end),
            "fence" if self.fence >= 0 else "scan",
            used,
            has_preferred_key(self.value, keys) if keys else True,
            bool(self.fixes),
            any(certainty(fix.code) == "guess" for fix in self.fixes),
            self.outcome is not None and self.outcome.cut_at >= 0,
            self.value,
        )

    def extraction(self, text: str, others: list[int]) -> ExtractionParts:
        source = "fence" if self.fence >= 0 else "scan"
        return (
            self.value,
            None,
            source,
            (self.start, self.end),
            repair_records(text, self.fixes),
            notes_of(self.outcome, others),
        )


def notes_of(outcome: RepairOutcome | None, others: list[int]) -> dict[str, Any]:
    """The ``notes`` of a chosen candidate (see :data:`ExtractionParts`)."""
    notes: dict[str, Any] = {"others": others}
    if outcome is not None and outcome.cut_at >= 0:
        notes["cut_at"] = outcome.cut_at
        notes["cut_paths"] = outcome.cut_paths
    return notes
