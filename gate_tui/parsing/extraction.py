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

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from gate_tui.limits import DEFAULT_MAX_CHARS, MAX_DEPTH
from gate_tui.models import Repair
from gate_tui.parsing.repair import (
    Fix,
    RepairOutcome,
    RepairRecord,
    decode_repaired,
    quick_repair_parts,
    repair_json,
    repair_records,
)
from gate_tui.parsing.scanning import (
    Region,
    ScanResult,
    fence_body_lead,
    first_fence,
    first_non_blank,
    first_opener,
    scan,
    text_is_blank,
    thinking_regions,
)

NO_OBJECT = "No JSON object found in text"
TOP_LEVEL_ARRAY = "top-level array not allowed"
PREFERRED_KEYS = ("summary", "gates", "status")

_DECODE_ERRORS = (ValueError, RecursionError, MemoryError)
# Characters after which the repair pass may see a value end later than the bracket scan did.
_READS_FURTHER = re.compile("[/'\u2018\u2019\u201c\u201d]")


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


ExtractionParts = tuple[dict[str, Any] | None, str | None, str | None, tuple[int, int] | None, list[RepairRecord]]
"""The fields of an :class:`Extraction` in order, ``(value, error, source, span, repairs)``,
with each repair as a ``Repair``-shaped dict."""


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
        return _failure(f"could not extract JSON: internal {type(exc).__name__}")


def _failure(error: str) -> ExtractionParts:
    return None, error, None, None, []


def _extract(text: object, max_chars: int) -> ExtractionParts:
    if not isinstance(text, str):
        return _failure(f"expected text, got {type(text).__name__}")
    if len(text) > max_chars:
        return _failure(f"reply is {len(text):,} characters; the limit is {max_chars:,}")
    quick = _fast_path(text, thinking_regions(text))
    if quick is not None:
        return quick
    result = scan(text, soft_thinking=True)
    found = _Chooser(text, result).choose()
    if found[1] == NO_OBJECT and result.soft_thinking_used:
        found = _Chooser(text, scan(text, soft_thinking=False)).choose()
    return found


def has_preferred_key(value: dict[str, Any]) -> bool:
    """True when ``value`` looks like a gate state rather than some other JSON."""
    return "summary" in value or "gates" in value or "status" in value


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
        value, end, fixes = _decode_outcome(outcome), outcome.end, outcome.fixes
    if not isinstance(value, dict) or (fixes and not value):
        return None  # not an object, or a repair that would invent an empty one
    if "summary" not in value and "gates" not in value and "status" not in value:  # has_preferred_key
        if not (alone and text_is_blank(text, end, len(text))):
            return None
    return value, None, source, (start, end), repair_records(text, fixes) if fixes else []


def _loads_object(candidate: str) -> dict[str, Any] | None:
    try:
        value = json.loads(candidate)
    except _DECODE_ERRORS:
        return None
    return value if isinstance(value, dict) else None


def _decode_outcome(outcome: RepairOutcome) -> Any:
    """The value of a successful repair (None if it does not decode after all)."""
    try:
        return decode_repaired(outcome)
    except _DECODE_ERRORS:
        return None


# --- full path: choose among the scanned candidates --------------------------------------


class _Found:
    """A decoded candidate: enough to build the :class:`Extraction` if it wins."""

    __slots__ = ("value", "start", "end", "fence", "fixes")

    def __init__(self, value: Any, start: int, end: int, fence: int, fixes: tuple[Fix, ...]) -> None:
        self.value = value
        self.start = start
        self.end = end
        self.fence = fence
        self.fixes = fixes

    def extraction(self, text: str) -> ExtractionParts:
        source = "fence" if self.fence >= 0 else "scan"
        return self.value, None, source, (self.start, self.end), repair_records(text, self.fixes)


class _Chooser:
    """Applies the choice rules to one :class:`ScanResult`, within a linear work budget."""

    def __init__(self, text: str, result: ScanResult) -> None:
        self.text = text
        self.result = result
        # Characters the repair pass may examine, per kind of candidate: linear by design.
        self.object_budget = len(text) + 1024
        self.array_budget = len(text) + 1024
        self.keyword_cache: dict[str, tuple[int, int]] = {}
        self.keyword_from, self.keyword_at = 0, -1  # empty: the first check searches

    def choose(self) -> ExtractionParts:
        arrays = self._real_arrays()
        array_starts = [start for start, _ in arrays]
        candidates = sorted(
            [(start, end, fence, True) for start, end, fence in self.result.objects]
            + [(start, limit, fence, False) for start, limit, fence in self.result.cut_objects]
        )
        first: _Found | None = None
        for group in (
            [c for c in candidates if c[2] >= 0],  # fenced candidates first
            [c for c in candidates if c[2] < 0],
        ):
            consumed = -1
            for start, stop, fence, closed in group:
                if start < consumed or _inside(arrays, array_starts, start):
                    continue
                if first is not None and not self._may_have_keyword(start, stop):
                    continue  # only a gate-state object could still beat `first`
                found = self._decode_object(start, stop, fence, closed)
                if found is None:
                    continue
                if has_preferred_key(found.value):
                    return found.extraction(self.text)
                consumed = found.end
                if first is None:
                    first = found
        if first is not None:
            return first.extraction(self.text)
        return _failure(self._no_object_error(bool(arrays)))

    def _no_object_error(self, saw_array: bool) -> str:
        if saw_array:
            return TOP_LEVEL_ARRAY
        depth_at = self.result.depth_error
        if depth_at is not None:
            line = self.text.count("\n", 0, depth_at) + 1
            column = depth_at - (self.text.rfind("\n", 0, depth_at) + 1) + 1
            return f"JSON nested deeper than {MAX_DEPTH} levels at line {line}, column {column}; not decoded"
        return NO_OBJECT

    def _may_have_keyword(self, start: int, stop: int) -> bool:
        """Whether ``text[start:stop]`` contains a preferred key's name: a cheap pre-check.

        ``keyword_at`` is the first occurrence of any of the names at or after
        ``keyword_from``; it stays valid while candidates start between the two, so in
        the common case (no name ahead) the check is one comparison. Per word, searches
        resume where the last one stopped and never cover the same text twice.
        """
        if not self.keyword_from <= start <= self.keyword_at:
            nowhere = len(self.text)
            nearest = nowhere
            for word in PREFERRED_KEYS:
                cached = self.keyword_cache.get(word)
                if cached is None or start < cached[0] or cached[1] < start:
                    at = self.text.find(word, start)
                    cached = (start, nowhere if at < 0 else at)
                    self.keyword_cache[word] = cached
                nearest = min(nearest, cached[1])
            self.keyword_from, self.keyword_at = start, nearest
        return self.keyword_at < stop

    def _limit_after(self, start: int) -> int:
        """How far a repair starting at ``start`` may read: the next fence marker, or the end."""
        boundaries = self.result.boundaries
        index = bisect_right(boundaries, start)
        return boundaries[index] if index < len(boundaries) else len(self.text)

    def _decode_object(self, start: int, stop: int, fence: int, closed: bool) -> _Found | None:
        text = self.text
        if closed and text.find(":", start, stop) < 0:
            # No key: at best `{}`. Prose like `{name}` is the common case, rejected cheaply
            # unless a comment or another quote style could make the repair read further.
            if text_is_blank(text, start + 1, stop - 1):
                return _Found({}, start, stop, fence, ())
            if _READS_FURTHER.search(text, start, stop) is None:
                return None
        if closed:
            value = _loads_object(text[start:stop])
            if value is not None:
                return _Found(value, start, stop, fence, ())
            limit = self._limit_after(start)
        else:
            limit = stop
        outcome = self._repair(start, limit, "object_budget")
        if outcome is None:
            return None
        value = _decode_outcome(outcome)
        if not isinstance(value, dict) or not value:  # a repair must not invent an empty object
            return None
        return _Found(value, start, outcome.end, fence, outcome.fixes)

    def _repair(self, start: int, limit: int, budget: str) -> RepairOutcome | None:
        """Repair the candidate at ``start``, charging the named budget; None on failure.

        The bracket scan knows only double-quoted strings, so it can take a fence marker
        inside a single-quoted string or a comment for a real one and cut the candidate
        there. When ``limit`` is such a marker, reading past it is tried first, and wins
        if the value then closes without truncation (backticks are never JSON tokens, so
        that happens only when the marker was inside a string or comment).
        """
        tries = (len(self.text), limit) if limit < len(self.text) else (limit,)
        for reach in tries:
            left = getattr(self, budget)
            if left <= 0:
                return None
            outcome = repair_json(self.text, start, reach, budget=left, detach_tail=True)
            setattr(self, budget, left - outcome.consumed)
            if outcome.json_text is None:
                continue
            if reach == limit or not any(fix.code == "truncated" for fix in outcome.fixes):
                return outcome
        return None

    def _real_arrays(self) -> list[tuple[int, int]]:
        """Spans of arrays that are the reply's JSON value, merged and sorted by start.

        An outermost array counts when it starts the reply or a fence body, or when it
        holds an object; ``see [1]`` in prose never does.
        """
        result = self.result
        items = [(start, end, True) for start, end, _ in result.arrays]
        items += [(start, limit, False) for start, limit, _ in result.cut_arrays]
        if not items:
            return []
        leads = set(result.leads)
        leads.update(first_non_blank(self.text, body) for body, _ in result.fences)
        spans: list[tuple[int, int]] = []
        for start, stop, closed in sorted(items):
            lead = start in leads
            if not lead and self.text.find("{", start, stop) < 0:
                continue
            decoded = self._decode_array(start, stop, closed)
            if decoded is not None and (lead or _holds_object(decoded[0])):
                spans.append((start, decoded[1]))
        merged: list[tuple[int, int]] = []
        for start, end in spans:
            if merged and start < merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    def _decode_array(self, start: int, stop: int, closed: bool) -> tuple[list[Any], int] | None:
        text = self.text
        if closed:
            try:
                value = json.loads(text[start:stop])
            except _DECODE_ERRORS:
                value = None
            if isinstance(value, list):
                return value, stop
        outcome = self._repair(start, self._limit_after(start) if closed else stop, "array_budget")
        if outcome is None:
            return None
        value = _decode_outcome(outcome)
        return (value, outcome.end) if isinstance(value, list) else None


def _inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    index = bisect_right(starts, offset) - 1
    return index >= 0 and offset < spans[index][1]


def _holds_object(value: list[Any]) -> bool:
    """Whether a decoded array has an object among its elements (looking through nested arrays)."""
    pending = [value]
    while pending:
        for item in pending.pop():
            if isinstance(item, dict):
                return True
            if isinstance(item, list):
                pending.append(item)
    return False

