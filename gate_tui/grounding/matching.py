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
from typing import NamedTuple

from rapidfuzz import fuzz

from gate_tui.grounding.conversation import Turns, UserTurn
from gate_tui.grounding.normalise import normalise

NEAR_SCORE = 85.0
NEAR_MIN_CHARS = 5
NEAR_MAX_CHARS = 200


class Span(NamedTuple):
    """The closest user words (the shape of ``models.UserSpan``; a tuple: built per value)."""

    turn: int
    text: str
    score: float
    start: int


def trace(value: str, turns: Sequence[UserTurn]) -> tuple[str, Span | None]:
    """``("grounded" | "near" | "ungrounded", closest span)`` for one value."""
    needle = normalise(value)
    if not needle:
        return "grounded", None  # nothing but spaces and punctuation: no words to invent
    fast = turns.locate(needle) if isinstance(turns, Turns) else None
    if fast is not None:
        turn, start, text = fast
        return "grounded", Span(turn=turn.number, text=text, score=100.0, start=start)
    for turn in turns:
        at = turn.normal.find(needle)
        if at >= 0:
            start, text = turn.original(at, at + len(needle))
            return "grounded", Span(turn=turn.number, text=text, score=100.0, start=start)
    best: Span | None = None
    probe = needle[:NEAR_MAX_CHARS]
    for turn in turns:
        if not turn.normal:
            continue
        if len(probe) > len(turn.normal):
            # The alignment would look for the turn inside the value: a short turn ("a")
            # would "match" any long value holding it. The whole turn is compared instead.
            score, span = fuzz.ratio(probe, turn.normal), (0, len(turn.normal))
        else:
            found = fuzz.partial_ratio_alignment(probe, turn.normal)
            score, span = found.score, (found.dest_start, found.dest_end)
        if best is not None and score <= best.score:
            continue
        start, text = turn.original(*span)
        best = Span(turn=turn.number, text=text, score=round(score, 1), start=start)
    if best is not None and best.score >= NEAR_SCORE and len(needle) >= NEAR_MIN_CHARS:
        return "near", best
    return "ungrounded", best
