"""The one door from contract mode into the gate parser's extraction and repair.

Contracts use exactly the extraction of gate replies (thinking blocks, fences, prose,
first object, top-level arrays refused, repairs with line:column and certainty), through
this single function so it can be rewired in one place when extraction changes.

Why a fast path here: :func:`~gate_tui.parsing.extraction.extract_json` prefers objects
with gate-state keys (``summary`` / ``gates`` / ``status``), so its own fast path gives up
on any other object and falls back to the full Python-level scan (≈ 40 µs for a 1.5 KB
reply instead of ≈ 5 µs). A contract has no preferred keys: the first fence's object, or
the text's first ``{``, is what the full scan would choose, so decoding that one
candidate (strictly or by the same quick repair) gives the same answer. Anything else
goes to ``extract_json``; when that finds no object, the message says where the first
``{`` stops being JSON, or that the reply looks cut off. When extraction gains an option not to prefer gate-state keys,
this fast path can go.
"""

from __future__ import annotations

import json

from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.models import Repair
from gate_tui.parsing.extraction import NO_OBJECT, Extraction, extract_json
from gate_tui.parsing.markers import fence_body_lead, first_fence, first_opener, thinking_regions
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair_parts


def extract_reply(text: str) -> Extraction:
    """The JSON object of a model's reply, with the repairs made to read it; never raises."""
    try:
        fast = _first_candidate(text)
    except Exception:  # noqa: BLE001 - the full path below reports whatever went wrong
        fast = None
    if fast is not None:
        return fast
    found = extract_json(text)
    if found.value is None and found.error == NO_OBJECT:
        try:
            why = _unreadable_spot(text)
        except Exception:  # noqa: BLE001 - an explanation is a bonus, never a failure
            why = None
        if why is not None:
            return Extraction(None, f"{found.error}: {why}", found.source, found.span, found.repairs)
    return found


def _unreadable_spot(text: str) -> str | None:
    """Where the first object of a reply that yielded none stops being JSON, or that it is cut off.

    One decode of the slice from that object's ``{`` (linear, once per failed reply).
    """
    regions = thinking_regions(text)
    fence = first_fence(text, regions)
    start = fence_body_lead(text, fence[1]) if fence is not None else -1
    if start < 0 or not text.startswith("{", start):
        start = first_opener(text, regions)
    if start < 0 or not text.startswith("{", start):
        return None
    try:
        json.JSONDecoder(strict=False).raw_decode(text[start:])
    except json.JSONDecodeError as exc:
        at = start + exc.pos
        rest = text[at:].strip().strip("`~").strip()
        if not rest or exc.msg.startswith("Unterminated string"):
            return f"the reply looks cut off (the object that starts at {_where(text, start)} is still open at the end)"
        return f"the object at {_where(text, start)} cannot be read: {exc.msg} at {_where(text, at)}"
    except (ValueError, RecursionError):
        return None
    return None


def _where(text: str, offset: int) -> str:
    """``line L:C`` (1-based) of an offset."""
    return f"line {text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"


def _first_candidate(text: str) -> Extraction | None:
    if not isinstance(text, str) or len(text) > DEFAULT_MAX_CHARS:
        return None
    regions = thinking_regions(text)
    if any(soft for _start, _end, soft in regions):
        # An unclosed or orphan thinking tag: the full scan decides what it hides (it may
        # rescan with the tags read as text); this one-candidate path cannot know.
        return None
    fence = first_fence(text, regions)
    if fence is not None:
        start, source = fence_body_lead(text, fence[1]), "fence"
    else:
        start, source = first_opener(text, regions), "scan"
    if start < 0 or not text.startswith("{", start):
        return None
    quick = quick_repair_parts(text, start)
    if quick is None:
        return None
    value, end, fixes = quick
    if not isinstance(value, dict) or (fixes and not value):
        return None  # not an object, or a repair that would invent an empty one
    repairs = [Repair.model_validate(record) for record in repair_records(text, fixes)] if fixes else []
    return Extraction(value, None, source, (start, end), repairs)
