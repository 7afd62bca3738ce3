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
5. The winner is the first candidate that decodes to an object that looks like a gate
   state (``prefer_keys``; see :func:`~gate_tui.parsing.candidates.has_preferred_key`), so
   JSON echoed *after* the answer loses; if none does, the first object. A candidate that
   fails strict decoding gets the repair pass; a repaired value counts only if it is a
   non-empty object. An object nested in an unclosed outer object is part of it, never a
   candidate of its own (unless the model restarted: a ``restarted_object`` guess). Every
   candidate is listed (:attr:`Extraction.candidates`) and ``candidate=K`` takes another;
   other candidates are named in a ``several_candidates`` warning, or ``different_states``
   when they are different states.
7. The policy: a reply the text cut off is refused unless ``accept_truncated`` (the object
   read is kept as ``recovered``); one needing a guessed repair is refused when
   ``allow_guesses`` is False. An object that cannot be repaired is an error naming its
   position and the first unrecoverable spot.
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

from dataclasses import FrozenInstanceError, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.parsing.candidates import Candidate, candidate_warning, listed
from gate_tui.parsing.choosing import (
    NO_OBJECT,
    PREFERRED_KEYS,
    TOP_LEVEL_ARRAY,
    Chooser,
    ExtractionParts,
    failure,
    locate,
)
from gate_tui.parsing.comment_reach import comment_over_members
from gate_tui.parsing.duplicates import settle
from gate_tui.parsing.fast_path import fast_path
from gate_tui.parsing.markers import (
    thinking_regions,
)
from gate_tui.parsing.repair.closers import continues_container
from gate_tui.parsing.repair.lexing import DUPLICATES_SEEN
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.vocabulary import RepairRecord
from gate_tui.parsing.scanning import scan
from gate_tui.parsing.short_close import closer_follows, judge_close
from gate_tui.warning_codes import TRUNCATED_REPLY

if TYPE_CHECKING:
    from gate_tui.models import Repair

# The messages tests and callers compare against, re-exported where extraction is documented.
__all__ = [
    "DEFAULT_MAX_CHARS",
    "NO_OBJECT",
    "TOP_LEVEL_ARRAY",
    "Extraction",
    "extract_json",
    "extract_parts",
]


@dataclass(slots=True)
class _Fields:
    """:class:`Extraction`'s fields: a plain slotted dataclass, whose ``__init__`` stores
    each field at C speed (a frozen one goes through ``object.__setattr__`` per field,
    0.6 µs a call: a tenth of finding the object in a typical reply)."""

    value: dict[str, Any] | None = None
    error: str | None = None
    source: str | None = None
    span: tuple[int, int] | None = None
    repair_records: list[RepairRecord] = field(default_factory=list)
    """The repairs as ``Repair``-shaped dicts (what :attr:`repairs` validates)."""
    error_code: str = "invalid_json"
    recovered: dict[str, Any] | None = None
    warnings: list[dict[str, Any]] = field(default_factory=list)
    cut_paths: tuple[str, ...] = ()
    listed_from: tuple[Any, ...] | None = field(default=None, repr=False, compare=False)
    """What :attr:`candidates` is built from, when asked (most callers never ask)."""


class Extraction(_Fields):
    """The result of looking for one JSON object in free text.

    ``value`` is set exactly when ``error`` is None (but for a ``null`` reply read with
    ``want="any"``, whose value is None). ``source`` is ``"fence"`` or
    ``"scan"``; ``span`` is ``(start, end)`` of the candidate in the original text;
    ``repairs`` lists what the repair pass changed, with 1-based line and column and
    certainty. ``error_code`` is the :class:`~gate_tui.models.ParseError` code an error
    stands for (``invalid_json``, or ``invalid_value`` for ``NaN``). ``recovered`` is the
    object read from a reply the policy refused (cut off, or needing a guess), for a
    preview; ``warnings`` are ``ParseWarning``-shaped dicts (several candidates, an
    accepted cut); ``cut_paths`` names the fields a cut touched.

    Immutable (assigning a field raises ``FrozenInstanceError``, as a frozen dataclass
    does). A plain dataclass, not a model: it never crosses a boundary as JSON (``parse``
    turns it into a :class:`~gate_tui.models.ParseResult`), and building a model here
    cost more than finding the object in a typical reply.
    """

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # For callers building one: the slots are set past this class's refusal to assign.
        built = _Fields(*args, **kwargs)
        for name in _FIELD_NAMES:
            object.__setattr__(self, name, getattr(built, name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return Extraction, tuple(getattr(self, name) for name in _FIELD_NAMES)

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """Every object of the reply that could be the answer, in text order (see
        :class:`~gate_tui.parsing.candidates.Candidate`); ``candidate=K`` uses the K-th."""
        return tuple(listed(*self.listed_from)) if self.listed_from is not None else ()

    @property
    def repairs(self) -> list[Repair]:
        """What the repair pass changed, as :class:`~gate_tui.models.Repair` models.

        Built when asked: extraction itself never loads pydantic (importing it is most of
        the cost of a fresh process that only extracts)."""
        from gate_tui.models import Repair as Model

        return [Model.model_validate(record) for record in self.repair_records]



_FIELD_NAMES = tuple(item.name for item in fields(_Fields))


def _made(*values: Any) -> Extraction:
    """An :class:`Extraction` built the fast way: the plain dataclass, then its class set to
    the immutable one (same slots, so Python allows it)."""
    found = _Fields(*values)
    found.__class__ = Extraction  # type: ignore[assignment]
    return found  # type: ignore[return-value]

def extract_json(
    text: str,
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
    prefer_keys: tuple[str, ...] = PREFERRED_KEYS,
    allow_guesses: bool = True,
    accept_truncated: bool = False,
    candidate: int | None = None,
    want: str = "object",
) -> Extraction:
    """Extract the JSON object of a model reply; see the module docstring for the rules.

    ``candidate=K`` uses the K-th (0-based) of :attr:`Extraction.candidates` instead of
    the default winner; a K the reply does not hold is an ``invalid_value`` error.
    ``want="array"`` reads the reply's array instead, ``want="any"`` its value of any JSON
    type (:mod:`gate_tui.parsing.values`); gate mode keeps the default, an object.
    """
    parts = extract_parts(
        text,
        max_chars,
        prefer_keys=prefer_keys,
        allow_guesses=allow_guesses,
        accept_truncated=accept_truncated,
        candidate=candidate,
        want=want,
    )
    value, error, source, span, records, notes = parts
    return _made(
        value,
        error,
        source,
        span,
        records,
        notes.get("error_code", "invalid_json"),
        notes.get("recovered"),
        notes.get("warnings", []),
        tuple(notes.get("cut_paths", ())),
        (text, span, source, records, notes, value, prefer_keys) if isinstance(text, str) else None,
    )


def extract_parts(
    text: str,
    max_chars: int = DEFAULT_MAX_CHARS,
    *,
    prefer_keys: tuple[str, ...] = PREFERRED_KEYS,
    allow_guesses: bool = True,
    accept_truncated: bool = False,
    candidate: int | None = None,
    want: str = "object",
) -> ExtractionParts:
    """:func:`extract_json` as a plain tuple of the :class:`Extraction` fields.

    ``parse`` uses this form: it only unpacks the fields, building the frozen dataclass
    (one ``object.__setattr__`` per field) cost about as much as finding the thinking
    block and the fence of a typical reply, and its result validates the repairs with
    everything else in one go rather than one model at a time.
    """
    try:
        if want != "object":
            found = _extract_other(text, max_chars, prefer_keys, want)
            return apply_policy(
                text,
                found,
                allow_guesses=allow_guesses,
                accept_truncated=accept_truncated,
                keys=prefer_keys,
            )
        seen = DUPLICATES_SEEN[0]
        found = _extract(text, max_chars, prefer_keys, candidate)
        if DUPLICATES_SEEN[0] != seen:  # the decoder met a repeated key somewhere
            found = settle(text, found)
        return apply_policy(
            text,
            found,
            allow_guesses=allow_guesses,
            accept_truncated=accept_truncated,
            picked=candidate is not None,
            keys=prefer_keys,
        )
    except Exception as exc:  # the contract is "never raises": report, do not propagate
        return failure(f"could not extract JSON: internal {type(exc).__name__}")


def _extract(
    text: object, max_chars: int, keys: tuple[str, ...] = PREFERRED_KEYS, pick: int | None = None
) -> ExtractionParts:
    if not isinstance(text, str):
        return failure(f"expected text, got {type(text).__name__}")
    if len(text) > max_chars:
        return failure(f"reply is {len(text):,} characters; the limit is {max_chars:,}")
    if pick is not None and (type(pick) is not int or pick < 0):
        return failure(f"candidate must be a whole number from 0, not {pick!r}", "invalid_value")
    if pick is None:  # a chosen candidate needs the full list, which only the scan makes
        quick = fast_path(text, thinking_regions(text), keys)
        if quick is not None:
            return quick
    result = scan(text, soft_thinking=True)
    found = Chooser(text, result, keys).choose(pick)
    if found[0] is None and found[1] == NO_OBJECT and result.soft_thinking_used:
        found = Chooser(text, scan(text, soft_thinking=False), keys).choose(pick)
    return found


def _extract_other(
    text: object, max_chars: int, keys: tuple[str, ...], want: str
) -> ExtractionParts:
    """``want="array"`` or ``"any"``: see :mod:`gate_tui.parsing.values`."""
    from gate_tui.parsing.values import WANTS, array_parts

    if want not in WANTS:
        return failure(f"want must be one of {', '.join(WANTS)}, not {want!r}", "invalid_value")
    if not isinstance(text, str) or len(text) > max_chars:
        return _extract(text, max_chars, keys)  # the same refusal as for an object
    objects = None
    if want == "any":
        seen = DUPLICATES_SEEN[0]
        objects = _extract(text, max_chars, keys)
        if DUPLICATES_SEEN[0] != seen:
            objects = settle(text, objects)
    return array_parts(text, objects)


# --- the policy: cut-off replies, guesses, several candidates ----------------------------


_CLOSER_FIXES = frozenset({"missing_closer", "mismatched_closer"})


def apply_policy(
    text: str,
    found: ExtractionParts,
    *,
    allow_guesses: bool,
    accept_truncated: bool,
    picked: bool = False,
    keys: tuple[str, ...] = PREFERRED_KEYS,
) -> ExtractionParts:
    """Refuse (or warn about) what the caller's policy says, keeping what was recovered."""
    value, error, source, span, records, notes = found
    if value is None:
        return found
    over = comment_over_members(text, records)
    if over is not None:
        return None, over, source, span, records, {**notes, "recovered": value, "warnings": []}
    if (
        span is not None
        and isinstance(value, list)
        and continues_container(text, span[1], len(text), "[")
    ):
        closed = (
            f"the JSON array closes at {locate(text, span[1] - 1)}"
            " while more of its elements follow"
        )
        return None, closed, source, span, records, {**notes, "recovered": value, "warnings": []}
    if span is not None and isinstance(value, dict):
        # `{"a": {"b": 1}}, "c": 2}` or `{"name": "old man "}", "age": 14}`: the object closed
        # while its members go on. Read whole when an inner quote explains it, else refused.
        verdict, whole, fix, end = judge_close(text, span[0], span[1])
        mended = any(r["code"] in _CLOSER_FIXES for r in records)
        if verdict == "ok" and mended and (
            closer_follows(text, span[1]) or continues_container(text, span[1], len(text), "[")
        ):
            # A closer read as missing, then one too many after, or a comma and an element
            # of the array it was inside: one was mistyped, and the value goes on.
            verdict = "refuse"
        if verdict == "refuse" or (
            verdict == "whole" and records
        ):  # other repairs: offsets would blur
            closed = (
                f"the JSON object closes at {locate(text, span[1] - 1)}"
                " while more of its members follow"
                " (a closer too many, or a quote that was text, before that point)"
            )
            return (
                None,
                closed,
                source,
                span,
                records,
                {**notes, "recovered": value, "warnings": []},
            )
        if verdict == "whole":
            value, span = whole, (span[0], end)
            records = repair_records(text, (fix,))
            notes = {**notes, "others": [o for o in notes.get("others") or [] if o >= end]}
    if allow_guesses and len(notes) == 1 and not notes.get("others", True):  # nothing to say
        return value, error, source, span, records, {"others": [], "warnings": []}
    warnings: list[dict[str, Any]] = []
    several = candidate_warning(
        text, notes.get("candidates") or [], notes.get("others") or [], picked, bool(keys)
    )
    if several is not None:
        warnings.append(several)
    warnings.extend(notes.get("duplicate_warnings", ()))
    cut_at = notes.get("cut_at", -1)
    refusal = None
    if cut_at >= 0:
        paths = notes.get("cut_paths") or ()
        where = f"inside {paths[-1]}" if paths else "inside the JSON"
        if accept_truncated:
            touched = ", ".join(paths) if paths else "the top level"
            warnings.append(
                {
                    "code": TRUNCATED_REPLY,
                    "message": f"the reply is cut off at {locate(text, cut_at)};"
                    f" fields the cut touched: {touched}",
                    "field_path": paths[-1] if paths else "",
                }
            )
        else:
            refusal = f"the reply is cut off at {locate(text, cut_at)}, {where}"
    if refusal is None and not allow_guesses:
        guess = next((r for r in records if r["certainty"] == "guess"), None)
        if guess is not None:
            refusal = (
                f"the reply needs a guess at line {guess['line']}:{guess['column']}"
                f" ({guess['message']}); guessed repairs are not allowed"
            )
    new_notes = {**notes, "warnings": warnings}
    if refusal is not None:
        new_notes["recovered"] = value
        return None, refusal, source, span, records, new_notes
    return value, error, source, span, records, new_notes
