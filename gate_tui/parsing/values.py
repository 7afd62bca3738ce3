"""Arrays and scalars where the caller asks for them (``extract_json(text, want=...)``).

A gate state is an object, so gate mode stays ``want="object"``. A contract whose schema's
root is an array or a scalar asks for ``"array"`` or ``"any"``: the reply is read with the
same scan, repairs, thinking and fence rules, and the same policy for cut-off replies and
guesses. The rules, in order:

1. The whole reply (blanks around it aside) that is strictly one JSON value of the wanted
   kind is the answer: ``"hello"``, ``42``, ``[1, 2]``.
2. A fence body that is strictly one such value is the answer (fences first, as for objects).
3. ``"array"``: the first array that leads the reply or a fence body, else the first array
   in the text (fenced first), strictly decoded or repaired; ``"any"``: that array or the
   object the object rules choose, whichever comes first (fenced first).

Every decode is of a slice holding one candidate, and repairs share a budget of the text's
length (see :class:`~gate_tui.parsing.choosing.Chooser`), so the work stays linear.
"""

from __future__ import annotations

from typing import Any

from gate_tui.parsing.candidates import locate
from gate_tui.parsing.choosing import (
    TOP_LEVEL_ARRAY,
    Chooser,
    ExtractionParts,
    failure,
)
from gate_tui.parsing.found import decode_outcome, notes_of
from gate_tui.parsing.repair.lexing import DECODER
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.scanning import first_non_blank, scan

WANTS = ("object", "array", "any")
NO_ARRAY = "No JSON array found in text"
_ERRORS = (ValueError, RecursionError, MemoryError)


def strict_value(text: str, start: int, end: int, want: str) -> tuple[Any, int, int] | None:
    """``text[start:end]`` without its blanks, when it is strictly one value of the wanted
    kind: ``(value, start, end)`` of the value; else None."""
    start = first_non_blank(text, start)
    while end > start and text[end - 1] in " \t\r\n":
        end -= 1
    if start >= end or (want == "array" and text[start] != "["):
        return None
    try:
        value = DECODER.decode(text[start:end])
    except _ERRORS:
        return None
    if want == "array" and not isinstance(value, list):
        return None
    return value, start, end


def array_parts(text: str, object_parts: ExtractionParts | None = None) -> ExtractionParts:
    """The reply's array as extraction parts (see the module docstring), or an error.

    With ``object_parts`` (``want="any"``): the object the object rules chose, taken when
    it comes before the array (fenced first)."""
    whole = strict_value(text, 0, len(text), "array" if object_parts is None else "any")
    if whole is not None:
        value, start, end = whole
        return value, None, "scan", (start, end), [], {"others": []}
    result = scan(text, soft_thinking=True)
    for body, close in result.fences:
        found = strict_value(text, body, close, "array" if object_parts is None else "any")
        if found is not None:
            value, start, end = found
            return value, None, "fence", (start, end), [], {"others": []}
    array = _first_array(text, result)
    if object_parts is not None and object_parts[0] is not None:
        if array is None or _rank(object_parts) <= _rank(array):
            return object_parts
    if array is not None:
        return array
    if object_parts is not None and object_parts[1] != TOP_LEVEL_ARRAY:
        return object_parts
    if result.arrays or result.cut_arrays:
        first = min(start for start, _end, _fence in result.arrays + result.cut_arrays)
        return failure(f"JSON array at {locate(text, first)} could not be repaired")
    return object_parts if object_parts is not None else failure(NO_ARRAY)


def _rank(parts: ExtractionParts) -> tuple[bool, int]:
    span = parts[3] or (0, 0)
    return parts[2] != "fence", span[0]


def _first_array(text: str, result: Any) -> ExtractionParts | None:
    """The first array to read (fenced, then leading the reply, then in text order), decoded
    strictly or repaired; None when none reads as an array."""
    chooser = Chooser(text, result, ())
    leads = set(result.leads)
    leads.update(first_non_blank(text, body) for body, _ in result.fences)
    items = [(start, end, fence, True) for start, end, fence in result.arrays]
    items += [(start, limit, fence, False) for start, limit, fence in result.cut_arrays]
    items.sort(key=lambda item: (item[2] < 0, item[0] not in leads, item[0]))
    for start, stop, fence, closed in items:
        source = "fence" if fence >= 0 else "scan"
        if closed:
            found = strict_value(text, start, stop, "array")
            if found is not None:
                return found[0], None, source, (start, stop), [], {"others": []}
        outcome = chooser._repair(
            start, chooser._limit_after(start) if closed else stop, "array_budget"
        )
        if outcome is None:
            continue
        value = decode_outcome(outcome)
        if isinstance(value, list):
            records = repair_records(text, outcome.fixes) if outcome.fixes else []
            return value, None, source, (start, outcome.end), records, notes_of(outcome, [])
    return None
