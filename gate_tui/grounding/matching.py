"""Does a value trace to the user's words? Exact after normalisation, else a near alignment.

Exact: the value's normal form occurs in a user turn's normal form (the first such turn is
named). Near: ``rapidfuzz.fuzz.partial_ratio_alignment`` aligns the value with a span of
one turn and scores it 0-100; at :data:`NEAR_SCORE` or more the value is grounded with a
note showing both texts. Near matching needs :data:`NEAR_MIN_CHARS` characters (one or two
letters align with almost anything) and looks at the first :data:`NEAR_MAX_CHARS` of a
value (the alignment's cost grows with the value's length; the turns' length is what
a conversation brings, and that cost is linear).
"""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz

from gate_tui.grounding.conversation import UserTurn
from gate_tui.grounding.models import UserSpan
from gate_tui.grounding.normalise import normalise

NEAR_SCORE = 85.0
NEAR_MIN_CHARS = 5
NEAR_MAX_CHARS = 200


def trace(value: str, turns: Sequence[UserTurn]) -> tuple[str, UserSpan | None]:
    """``("grounded" | "near" | "ungrounded", closest span)`` for one value."""
    needle = normalise(value)
    if not needle:
        return "grounded", None  # nothing but spaces and punctuation: no words to invent
    for turn in turns:
        at = turn.normal.find(needle)
        if at >= 0:
            start, text = turn.original(at, at + len(needle))
            return "grounded", UserSpan(turn=turn.number, text=text, score=100.0, start=start)
    best: UserSpan | None = None
    probe = needle[:NEAR_MAX_CHARS]
    for turn in turns:
        if not turn.normal:
            continue
        found = fuzz.partial_ratio_alignment(probe, turn.normal)
        if found is None or (best is not None and found.score <= best.score):
            continue
        start, text = turn.original(found.dest_start, found.dest_end)
        best = UserSpan(turn=turn.number, text=text, score=round(found.score, 1), start=start)
    if best is not None and best.score >= NEAR_SCORE and len(needle) >= NEAR_MIN_CHARS:
        return "near", best
    return "ungrounded", best
