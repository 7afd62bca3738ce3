"""Single-quoted strings among double-quoted ones, swapped at C speed when nothing else is wrong.

A model that mixes quote styles (``{"summary": 'x', 'gates': …}``) writes its single
quotes on several strings. The bulk rewrite of :mod:`~gate_tui.parsing.repair.quick`
walks every string of the value in a Python loop; this one does not. With no backslash in
the text, every ``"`` opens or closes a string, so one split sets the double-quoted strings
aside and one replace turns every ``'`` of the text between them into ``"`` — the same
length, so no offset moves. One decode then says whether that was all: when it reads the
value, every converted quote was a string delimiter the tokenizer would have read the same
way (a ``'`` followed by what can follow a value closes its string there), and the record
is built from the converted quotes before the value's end; otherwise the caller goes on
with the slower paths, which judge apostrophes, escapes and other defects.
"""

from __future__ import annotations

from gate_tui.parsing.repair.lexing import SCAN_ONCE
from gate_tui.parsing.repair.vocabulary import SINGLE_QUOTES_MESSAGE, Fix

_SENTINEL = "\ue000"  # stands for a double-quoted string while the text between is rewritten


def requote_decoded(current: str, start: int) -> tuple[object, int, Fix] | None:
    """The value of ``current`` (a candidate cut from ``start`` in the reply) with its
    single-quoted strings read as strings, its end in ``current`` and the one record the
    bulk rewrite makes; None when anything else needs judging or repairing.

    Only for the first defect of a candidate (no other fix made yet), as the bulk rewrite.
    """
    if "\\" in current or _SENTINEL in current or "//" in current or "#" in current:
        return None  # escapes, or comments whose quotes the rewrite must not count
    parts = current.split('"')
    if not len(parts) % 2:
        return None  # an unclosed double-quoted string: the pairing is not certain
    parts[0::2] = _SENTINEL.join(parts[0::2]).replace("'", '"').split(_SENTINEL)
    rewritten = '"'.join(parts)
    try:
        value, end = SCAN_ONCE(rewritten, 0)
    except (ValueError, StopIteration, RecursionError, MemoryError):
        return None
    # Each converted quote is a `'` of `current` that is a `"` of `rewritten`; those of
    # double-quoted strings are `'` in both. Converted quotes before the end come in pairs.
    converted = rewritten.count('"', 0, end) - current.count('"', 0, end)
    if converted < 2:
        return None
    first = _converted(current, rewritten, current.find("'", 0, end), forward=True, end=end)
    if converted == 2:
        return (
            None
            if first < 0
            else (value, end, Fix("single_quotes", SINGLE_QUOTES_MESSAGE, start + first))
        )
    closing = _converted(current, rewritten, current.rfind("'", 0, end), forward=False, end=end)
    opening = _converted(current, rewritten, current.rfind("'", 0, closing), forward=False, end=end)
    if first < 0 or closing < 0 or opening < 0:
        return None  # cannot happen (converted quotes pair up before the end): refuse, never guess
    return (
        value,
        end,
        Fix("single_quotes", SINGLE_QUOTES_MESSAGE, start + first, converted // 2, start + opening),
    )


def _converted(current: str, rewritten: str, at: int, *, forward: bool, end: int) -> int:
    """The nearest converted quote from ``at`` (a ``'`` of ``current``) on, in either direction:
    a ``'`` that stayed one is an apostrophe inside a double-quoted string, skipped."""
    while at >= 0 and rewritten[at] != '"':
        at = current.find("'", at + 1, end) if forward else current.rfind("'", 0, at)
    return at
