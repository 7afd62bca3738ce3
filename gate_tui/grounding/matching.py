"""Does a value trace to the user's words? Exact after normalisation, else a near alignment.

Exact: the value's normal form occurs in a user turn's normal form (the first such turn is
named). Near: ``rapidfuzz.fuzz.partial_ratio_alignment`` aligns the value with a span of
one turn and scores it 0-100; at :data:`NEAR_SCORE` or more the value is grounded with a
note showing both texts. Near matching needs :data:`NEAR_MIN_CHARS` characters (one or two
letters align with almost anything) and looks at the first :data:`NEAR_MAX_CHARS` of a
value (the alignment's cost grows with the value's length; the turns' length is what
a conversation brings, and that cost is linear).

A finding's ``closest`` is a plain dict in the shape of ``models.UserSpan`` (``turn``,
``text``, ``score``, ``start``): one is built for every checked value of every reply.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rapidfuzz import fuzz

from gate_tui.grounding.conversation import Turns, UserTurn
from gate_tui.grounding.normalise import SEPARATOR, normalise_many

NEAR_SCORE = 85.0
NEAR_MIN_CHARS = 5
NEAR_MAX_CHARS = 200

Traced = tuple[str, "dict[str, Any] | None"]
"""``("grounded" | "near" | "ungrounded", the closest user span or None)``."""


def trace(value: str, turns: Sequence[UserTurn]) -> Traced:
    """Where one value comes from (see :func:`trace_many`)."""
    return trace_many([value], turns)[0]


def trace_many(values: list[str], turns: Sequence[UserTurn]) -> list[Traced]:
    """Each value's kind and closest user span. The values are normalised in one pass and
    looked up in all the turns at once (:class:`Turns`, its ``loose`` text: inlined, as
    this runs for every answer of every reply of a batch); only a value not found there
    literally walks the turns."""
    loose, texts = (turns.loose, turns.texts) if type(turns) is Turns else ("", [])
    out: list[Traced] = []
    for needle in normalise_many(values):
        at = loose.find(needle) if loose and SEPARATOR not in needle else -1
        if not needle:
            out.append(("grounded", None))  # nothing but spaces and punctuation: no words
        elif at >= 0:
            # Which turn, and where in it: the separators before the match (C-speed counts).
            index = loose.count(SEPARATOR, 0, at)
            start = at - loose.rfind(SEPARATOR, 0, at) - 1
            text = texts[index][start : start + len(needle)]
            span = {"turn": index + 1, "text": text, "score": 100.0, "start": start}
            out.append(("grounded", span))
        else:
            out.append(trace_turns(needle, turns))
    return out


def _span(turn: UserTurn, start: int, end: int, score: float) -> dict[str, Any]:
    at, text = turn.original(start, end)
    return {"turn": turn.number, "text": text, "score": score, "start": at}


def trace_turns(needle: str, turns: Sequence[UserTurn]) -> Traced:
    """The slow path: each turn's normal form, then the near alignment."""
    for turn in turns:
        at = turn.normal.find(needle)
        if at >= 0:
            return "grounded", _span(turn, at, at + len(needle), 100.0)
    best: dict[str, Any] | None = None
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
        if best is not None and score <= best["score"]:
            continue
        best = _span(turn, span[0], span[1], round(score, 1))
    if best is not None and best["score"] >= NEAR_SCORE and len(needle) >= NEAR_MIN_CHARS:
        return "near", best
    return "ungrounded", best
