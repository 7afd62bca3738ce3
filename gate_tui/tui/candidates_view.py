"""The reply preview's candidate picker: which of a reply's JSON objects is used, and the others.

A self-correcting model writes a draft, then "Wait, corrected version:" and a second
object. The parser reads one of them (``ParseResult.candidates`` lists them all, each with
its position and whether it would validate); the preview shows them, marks the one used,
and a key (``next_candidate``, F9 by default) switches to the next. When the candidates
are *different states* the line says so first, in the warning colour: the stale draft
must not pass for a detail.

Each row also says what applying that candidate would decide (``→ PASS``, ``→ NO PASS ·
next 2_use_case``, or ``invalid — why``): the parser's own result for that pick
(:func:`candidate_results`: ``parse(text, config, state, "assistant", K)``), for the shown
candidates only and within a character budget. One numbering everywhere: ``#K+1`` for
``candidate=K``, as the parser's warnings and the review report say it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from textual.content import Content

from gate_tui.tui.render import BAD_STYLE, DIM, OK_STYLE, WARN_STYLE, jump_style, number
from gate_tui.tui.text import line, plain, visible
from gate_tui.warning_codes import DIFFERENT_STATES

if TYPE_CHECKING:
    from gate_tui.models import ParseResult

SHOWN = 8
"""Candidates listed at most (a reply quoting many examples lists the rest as a count)."""

PARSE_BUDGET = 2_000_000
"""Characters parsed at most to tell the candidates' decisions (the reply's length times
the candidates parsed): a huge reply with many objects shows the rest as valid only."""


def candidate_results(
    result: ParseResult, text_length: int, judge: Callable[[int], ParseResult | None]
) -> dict[int, ParseResult]:
    """What applying each shown candidate would give, by index: the one used is ``result``
    itself; another valid one is ``judge(index)`` (the parser with that pick) while the
    budget lasts. An invalid one needs no parse: its ``problem`` says why."""
    results: dict[int, ParseResult] = {}
    spent = 0
    for candidate in result.candidates[:SHOWN] if has_picker(result) else []:
        if candidate.used:
            results[candidate.index] = result
        elif candidate.valid and spent + text_length <= PARSE_BUDGET:
            spent += text_length
            judged = judge(candidate.index)
            if judged is not None:
                results[candidate.index] = judged
    return results


def would_decide(judged: ParseResult | None) -> list[str | tuple[str, str]]:
    """`` → NO PASS · next 2_use_case`` / `` → PASS`` / `` invalid — why`` for one pick."""
    if judged is None:
        return []
    if not judged.ok or judged.decision is None:
        why = visible(judged.errors[0].message, one_line=True) if judged.errors else "?"
        return [("invalid", BAD_STYLE), (f" — {why}", DIM)]
    decision = judged.decision
    if decision.pass_:
        return [(" → ", DIM), ("PASS", OK_STYLE)]
    following = f" · next {decision.next_gate}" if decision.next_gate else ""
    return [(" → ", DIM), ("NO PASS", BAD_STYLE), (following, "bold")]


def has_picker(result: ParseResult) -> bool:
    return len(result.candidates) > 1


def next_candidate(result: ParseResult) -> int | None:
    """The candidate after the one used (wrapping round), or None when there is no choice."""
    if not has_picker(result):
        return None
    indexes = [candidate.index for candidate in result.candidates]
    used = next(
        (position for position, candidate in enumerate(result.candidates) if candidate.used), -1
    )
    return indexes[(used + 1) % len(indexes)]


def candidate_rows(
    result: ParseResult, key: str, judged: Mapping[int, ParseResult] | None = None
) -> list[Content]:
    """The picker: a headline (loud when the candidates are different states), then one row
    per candidate, ``▶`` on the one used: its number, position, whether it is valid and
    (``judged``: :func:`candidate_results`) what applying it would decide."""
    if not has_picker(result):
        return []
    different = next((w for w in result.warnings if w.code == DIFFERENT_STATES), None)
    count = len(result.candidates)
    if different is not None:
        rows = [
            line(
                ("⚠ This reply holds different states", WARN_STYLE),
                " (a draft and a correction?): check which one the model meant.",
            )
        ]
    else:
        rows = [plain(f"This reply holds {count} JSON objects:", "bold")]
    for candidate in result.candidates[:SHOWN]:
        mark = "▶ " if candidate.used else "  "
        verdict = ("valid", OK_STYLE) if candidate.valid else ("invalid", BAD_STYLE)
        why = (
            f" — {visible(candidate.problem, one_line=True)}"
            if candidate.problem and not candidate.valid
            else ""
        )
        used = " (used)" if candidate.used else ""
        where = (
            f"{candidate.line}:{candidate.column}",
            jump_style(candidate.line, candidate.column),
        )
        numbered = (f"{number(candidate.index)} at ", "bold" if candidate.used else "")
        outcome = would_decide((judged or {}).get(candidate.index)) if candidate.valid else []
        if outcome and outcome[0][0] == "invalid":  # valid alone, yet refused with this pick
            verdict, outcome = outcome[0], outcome[1:]
        rows.append(
            line(
                (f"  {mark}", "bold"), numbered, where, "  ", verdict, *outcome,
                (f"{used}{why}", DIM),
            )
        )
    if count > SHOWN:
        rows.append(plain(f"  … and {count - SHOWN} more", DIM))
    rows.append(plain(f"{key} uses the next one.", DIM))
    return rows
