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
goes to ``extract_json``. When extraction gains an option not to prefer gate-state keys,
this fast path can go.
"""

from __future__ import annotations

from gate_tui.limits import DEFAULT_MAX_CHARS
from gate_tui.models import Repair
from gate_tui.parsing.extraction import Extraction, extract_json
from gate_tui.parsing.markers import fence_body_lead, first_fence, first_opener, thinking_regions
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair_parts


def extract_reply(text: str) -> Extraction:
    """The JSON object of a model's reply, with the repairs made to read it; never raises."""
    try:
        fast = _first_candidate(text)
    except Exception:  # noqa: BLE001 - the full path below reports whatever went wrong
        fast = None
    return fast if fast is not None else extract_json(text)


def _first_candidate(text: str) -> Extraction | None:
    if not isinstance(text, str) or len(text) > DEFAULT_MAX_CHARS:
        return None
    regions = thinking_regions(text)
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
