"""The reply preview's candidate picker: which of a reply's JSON objects is used, and the others.

A self-correcting model writes a draft, then "Wait, corrected version:" and a second
object. The parser reads one of them (``ParseResult.candidates`` lists them all, each with
its position and whether it would validate); the preview shows them, marks the one used,
and a key (``next_candidate``, F9 by default) switches to the next. When the candidates
are *different states* the line says so first, in the warning colour: the stale draft
must not pass for a detail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from gate_tui.tui.render import BAD_STYLE, DIM, OK_STYLE, WARN_STYLE, jump_style
from gate_tui.tui.text import line, plain, visible
from gate_tui.warning_codes import DIFFERENT_STATES

if TYPE_CHECKING:
    from gate_tui.models import ParseResult

SHOWN = 8
"""Candidates listed at most (a reply quoting many examples lists the rest as a count)."""


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


def candidate_rows(result: ParseResult, key: str) -> list[Content]:
    """The picker: a headline (loud when the candidates are different states), then one row
    per candidate, ``▶`` on the one used: its number, position and whether it is valid."""
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
        number = (f"#{candidate.index + 1} at ", "bold" if candidate.used else "")
        rows.append(
            line((f"  {mark}", "bold"), number, where, "  ", verdict, (f"{used}{why}", DIM))
        )
    if count > SHOWN:
        rows.append(plain(f"  … and {count - SHOWN} more", DIM))
    rows.append(plain(f"{key} uses the next one.", DIM))
    return rows
