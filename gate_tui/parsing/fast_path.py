"""The fast path of extraction: the common replies (one object, in a fence or alone)
decoded without the Python-level scan of every candidate; None sends a reply to the scan.
"""

from __future__ import annotations

from gate_tui.parsing.candidates import has_preferred_key
from gate_tui.parsing.found import ExtractionParts, decode_outcome, notes_of
from gate_tui.parsing.markers import Region, fence_body_lead, first_fence, first_opener
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair_parts
from gate_tui.parsing.repair.tokenizer import repair_json
from gate_tui.parsing.scanning import text_is_blank


def fast_path(text: str, regions: list[Region], keys: tuple[str, ...]) -> ExtractionParts | None:
    """The common replies, without the Python-level scan; None means "use the full scan".

    The fast path looks at one candidate only — the object opening the body of the first
    fence outside thinking (when no ``{`` comes before that fence: the fence could be
    quoted in its string) or, when the reply has no fence, the first ``{`` — and keeps it
    only when it decodes (strictly, or repaired from that same ``{``) to a gate-state
    object, or to any object that is the whole reply, and nothing after it (or before a
    fence) could be another candidate. That is what the full scan would choose too.
    """
    if not keys and any(soft for _start, _end, soft in regions):
        # No preferred keys to confirm the candidate, and an unclosed or orphan thinking tag
        # whose reach the full scan decides (it may rescan with the tags read as text).
        return None
    fence = first_fence(text, regions)
    start = first_opener(text, regions)
    if fence is not None and (start < 0 or start > fence[0]):
        if text.find("{", 0, fence[0]) >= 0:
            return None  # a brace before the fence (in thinking or prose): let the scan decide
        start = fence_body_lead(text, fence[1])
        return (
            _fast_candidate(text, start, "fence", keys, alone=False)
            if text.startswith("{", start)
            else None
        )
    if start < 0 or text[start] != "{":
        return None
    return _fast_candidate(
        text, start, "scan", keys, alone=not regions and text_is_blank(text, 0, start)
    )


def _fast_candidate(
    text: str, start: int, source: str, keys: tuple[str, ...], *, alone: bool
) -> ExtractionParts | None:
    """Decode the object at ``start``: strictly, by the error-driven repair, or by the tokenizer.

    All three read to the end of the text and stop where the object closes, so a fence
    marker inside a string cannot cut the object short.
    """
    quick = quick_repair_parts(text, start)
    outcome = None
    if quick is not None:
        value, end, fixes = quick
    else:
        outcome = repair_json(text, start, len(text), budget=len(text), detach_tail=True)
        if outcome.json_text is None:
            return None
        value, end, fixes = decode_outcome(outcome), outcome.end, outcome.fixes
    if not isinstance(value, dict) or (fixes and not value):
        return None  # not an object, or a repair that would invent an empty one
    if _more_after(text, end, source == "fence"):
        return (
            None  # another candidate may follow: the scan lists them (several-candidates warning)
        )
    # With no preferred keys (contract mode) the first candidate is the answer as it is.
    if keys and not has_preferred_key(value, keys):
        if not (alone and text_is_blank(text, end, len(text))):
            return None
    return (
        value,
        None,
        source,
        (start, end),
        repair_records(text, fixes) if fixes else [],
        notes_of(outcome, []),
    )


def _more_after(text: str, end: int, fenced: bool) -> bool:
    """Whether another candidate (a ``{`` or a fence) may follow the object ending at ``end``.

    A fenced object's own closing marker does not count. Conservative (markers inside
    thinking count too): a yes only sends the reply to the full scan.
    """
    if text.find("{", end) >= 0 or text.find("~~~", end) >= 0:
        return True
    return text.count("```", end) > (1 if fenced else 0)
