"""Find the one JSON object in a language model's reply, in time linear in its length.

``extract_json(text, *, max_chars=DEFAULT_MAX_CHARS) -> Extraction`` never raises and
never hangs. It is the only entry point (:func:`extract_parts` is the same call returning
the fields as a tuple, for ``parse``); :mod:`gate_tui.parsing.scanning` locates candidates and
:mod:`gate_tui.parsing.repair` fixes almost-JSON. The rules, in order:

1. Not a ``str`` or longer than ``max_chars``: an error, nothing is scanned.
2. ``<thinking>…</thinking>`` and ``<think>…</think>`` blocks (any case) are skipped.
   An *unclosed* opening tag hides the rest of the reply and an orphan closing tag
   hides what precedes it — unless that leaves no JSON at all, in which case the reply
   is scanned again with those tags read as plain text (a model cut off while thinking
   may still have written its JSON there). Tags count only outside JSON values.
3. Candidates inside code fences (```` ``` ````, ``~~~``, optional language tag) come
   before the others; a fence is only a fence outside a JSON string, and an
   unterminated fence runs to the end of the text.
4. Otherwise every outermost ``{…}`` in text order, found by one balanced scan that
   respects JSON strings; prose braces before or after do not disturb it.
5. The winner is the first candidate that decodes to an object having one of the keys
   ``summary`` / ``gates`` / ``status`` (so JSON echoed *after* the answer loses); if
   none has them, the first object. A candidate that fails strict decoding gets the
   conservative repair pass; a repaired value counts only if it is a non-empty object.
6. An array that *is* the JSON value (a whole fence body, the start of the reply, or an
   array holding objects) is refused with "top-level array not allowed" rather than
   mined for the objects inside it.

Speed: the fast path decodes the first fence's object (or the first object) with one
C-level decode starting at it, before any Python-level scanning; a reply with a few
defects is repaired there by :func:`gate_tui.parsing.repair.quick_repair`. That first decode reads
the whole text at the object's offset (no copy); a failed decode at an offset costs time
proportional to the offset (its error counts lines from 0), so it is tried once per reply
and every later decode is of a slice. Outermost candidates do not overlap, and repairs
share a budget of the text's length, so the total work stays linear.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.models import Repair
from gate_tui.parsing.choosing import (
    NO_OBJECT,
    TOP_LEVEL_ARRAY,
    Chooser,
    ExtractionParts,
    decode_outcome,
    failure,
)
from gate_tui.parsing.markers import (
    Region,
    fence_body_lead,
    first_fence,
    first_opener,
    thinking_regions,
)
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair_parts
from gate_tui.parsing.repair.tokenizer import repair_json
from gate_tui.parsing.scanning import scan, text_is_blank

# The messages tests and callers compare against, re-exported where extraction is documented.
__all__ = ["DEFAULT_MAX_CHARS", "NO_OBJECT", "TOP_LEVEL_ARRAY", "Extraction", "extract_json", "extract_parts"]


@dataclass(frozen=True, slots=True)
class Extraction:
    """The result of looking for one JSON object in free text.

    ``value`` is set exactly when ``error`` is None. ``source`` is ``"fence"`` or
    ``"scan"``; ``span`` is ``(start, end)`` of the candidate in the original text;
    ``repairs`` lists what the repair pass changed, with 1-based line and column.

    A plain dataclass, not a model: it never crosses a boundary as JSON (``parse``
    turns it into a :class:`~gate_tui.models.ParseResult`), and building a model here
    cost more than finding the object in a typical reply.
    """

    value: dict[str, Any] | None = None
    error: str | None = None
    source: str | None = None
    span: tuple[int, int] | None = None
    repairs: list[Repair] = field(default_factory=list)




def extract_json(text: str, *, max_chars: int = DEFAULT_MAX_CHARS) -> Extraction:
    """Extract the JSON object of a model reply; see the module docstring for the rules."""
    value, error, source, span, records = extract_parts(text, max_chars)
    return Extraction(value, error, source, span, [Repair.model_validate(record) for record in records])


def extract_parts(text: str, max_chars: int = DEFAULT_MAX_CHARS) -> ExtractionParts:
    """:func:`extract_json` as a plain tuple of the :class:`Extraction` fields.

    ``parse`` uses this form: it only unpacks the fields, building the frozen dataclass
    (one ``object.__setattr__`` per field) cost about as much as finding the thinking
    block and the fence of a typical reply, and its result validates the repairs with
    everything else in one go rather than one model at a time.
    """
    try:
        return _extract(text, max_chars)
    except Exception as exc:  # the contract is "never raises": report, do not propagate
        return failure(f"could not extract JSON: internal {type(exc).__name__}")




def _extract(text: object, max_chars: int) -> ExtractionParts:
    if not isinstance(text, str):
        return failure(f"expected text, got {type(text).__name__}")
    if len(text) > max_chars:
        return failure(f"reply is {len(text):,} characters; the limit is {max_chars:,}")
    quick = _fast_path(text, thinking_regions(text))
    if quick is not None:
        return quick
    result = scan(text, soft_thinking=True)
    found = Chooser(text, result).choose()
    if found[1] == NO_OBJECT and result.soft_thinking_used:
        found = Chooser(text, scan(text, soft_thinking=False)).choose()
    return found


# --- fast path: one candidate, no Python-level scanning ----------------------------------


def _fast_path(text: str, regions: list[Region]) -> ExtractionParts | None:
    """The common replies, without the Python-level scan; None means "use the full scan".

    The fast path looks at one candidate only — the object opening the body of the first
    fence outside thinking or, when the reply has no fence, the first ``{`` — and keeps it
    only when it decodes (strictly, or repaired from that same ``{``) to a gate-state
    object, or to any object that is the whole reply. That is what the full scan would
    choose too: it tries that candidate first. A gate-state body cannot sit inside a valid
    JSON string, since its quotes would end the string.
    """
    fence = first_fence(text, regions)
    if fence is not None:
        start = fence_body_lead(text, fence[1])
        return _fast_candidate(text, start, "fence", alone=False) if text.startswith("{", start) else None
    start = first_opener(text, regions)
    if start < 0 or text[start] != "{":
        return None
    return _fast_candidate(text, start, "scan", alone=not regions and text_is_blank(text, 0, start))


def _fast_candidate(text: str, start: int, source: str, *, alone: bool) -> ExtractionParts | None:
    """Decode the object at ``start``: strictly, by the error-driven repair, or by the tokenizer.

    All three read to the end of the text and stop where the object closes, so a fence
    marker inside a string cannot cut the object short.
    """
    quick = quick_repair_parts(text, start)
    if quick is not None:
        value, end, fixes = quick
    else:
        outcome = repair_json(text, start, len(text), budget=len(text), detach_tail=True)
        if outcome.json_text is None:
            return None
        value, end, fixes = decode_outcome(outcome), outcome.end, outcome.fixes
    if not isinstance(value, dict) or (fixes and not value):
        return None  # not an object, or a repair that would invent an empty one
    if "summary" not in value and "gates" not in value and "status" not in value:  # has_preferred_key
        if not (alone and text_is_blank(text, end, len(text))):
            return None
    return value, None, source, (start, end), repair_records(text, fixes) if fixes else []


# --- full path: choose among the scanned candidates --------------------------------------


