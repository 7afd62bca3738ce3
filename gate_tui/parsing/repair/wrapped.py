"""Objects wrapped in one more layer of quoting: serialised twice, or CSV-doubled quotes.

``{\"summary\": \"x\"}`` (a JSON string's content pasted as the object) and
``{""summary"": ""x""}`` (a CSV cell) are whole-object habits of tool pipelines: the
wrapping is undone once, for the whole candidate, and the result is repaired like any
other object. Both fixes are exact: each maps one-to-one back to the original text.
Offsets of fixes inside the unwrapped text are reported at the object's start.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from gate_tui.parsing.repair.vocabulary import Fix, RepairOutcome

_ESCAPED_OPEN = re.compile(r'\{[ \t\r\n]*+\\"')
_DOUBLED_OPEN = re.compile(r'\{[ \t\r\n]*+""(?![ \t\r\n]*+[:,}])')
# The content of a JSON string: up to its first unescaped quote (possessive: linear).
_ESCAPED_RUN = re.compile(r'[^"\\]*+(?:\\[\s\S][^"\\]*+)*+')
_DOUBLED = re.compile(r'""')

Repair = Callable[..., RepairOutcome]


def unwrap(text: str, start: int, limit: int, repair: Repair) -> RepairOutcome | None:
    """The outcome for a wrapped object at ``start``, or None when it is not wrapped."""
    if _ESCAPED_OPEN.match(text, start, limit) is not None:
        return _double_serialised(text, start, limit, repair)
    if _DOUBLED_OPEN.match(text, start, limit) is not None:
        return _doubled_quotes(text, start, limit, repair)
    if _SINGLE_OPEN.match(text, start, limit) is not None and text.find('"', start, limit) < 0:
        # Only in a reply written in single quotes throughout: a `''` inside a double-quoted
        # string is text, and strings are strings.
        if _DOUBLED_SINGLE_VALUE.search(text, start, limit) is not None:
            return _doubled_single(text, start, limit, repair)
    return None


def _double_serialised(text: str, start: int, limit: int, repair: Repair) -> RepairOutcome | None:
    run_end = _ESCAPED_RUN.match(text, start, limit).end()
    close = text.rfind("}", start, run_end)
    if close < 0:
        return None
    try:
        inner = json.loads('"' + text[start : close + 1] + '"', strict=False)
    except ValueError:
        return None
    outcome = repair(inner, 0, len(inner), budget=len(inner))
    if outcome.json_text is None or outcome.cut_at >= 0:
        return None
    fix = Fix(
        "double_serialised", "the object was serialised twice (escaped quotes): decoded once", start
    )
    return _mapped(outcome, fix, start, close + 1)


def _doubled_quotes(text: str, start: int, limit: int, repair: Repair) -> RepairOutcome | None:
    region = text[start:limit]
    inner = region.replace('""', '"')
    outcome = repair(inner, 0, len(inner), budget=len(inner))
    if outcome.json_text is None or outcome.cut_at >= 0:
        return None
    # Map the end back: every `""` before it in the original was one character shorter.
    end, removed = outcome.end, 0
    for found in _DOUBLED.finditer(region):
        if found.start() - removed >= end:
            break
        removed += 1
    fix = Fix("doubled_quotes", 'CSV-style doubled quotes ("") → single double quotes', start)
    return _mapped(outcome, fix, start, start + end + removed)


_SINGLE_OPEN = re.compile(r"\{[ \t\r\n]*+'")
# A value in CSV-doubled single quotes (`'summary': ''Churn model''`) after `:` `[` or `,`.
_DOUBLED_SINGLE_VALUE = re.compile(r"[:\[,][ \t]*+''[^'\s,}\]]")
_DOUBLED_SINGLE = re.compile(r"''([^'\n]+?)''")


def _doubled_single(text: str, start: int, limit: int, repair: Repair) -> RepairOutcome | None:
    """Values in CSV-doubled single quotes: each ``''x''`` read as ``'x'`` (an empty ``''``
    elsewhere is left alone), when the whole value then reads without a cut."""
    region = text[start:limit]
    inner = _DOUBLED_SINGLE.sub(r"'\1'", region)
    if inner == region:
        # No doubled pair after all (`'': 'x'`, an empty key): repairing it again would never end.
        return None
    outcome = repair(inner, 0, len(inner), budget=len(inner))
    if outcome.json_text is None or outcome.cut_at >= 0:
        return None
    end, removed = outcome.end, 0  # each doubled pair before the end was two characters longer
    for found in _DOUBLED_SINGLE.finditer(region):
        if found.start() - removed >= end:
            break
        removed += 2
    fix = Fix("doubled_quotes", "CSV-style doubled single quotes ('') → single quotes", start)
    return _mapped(outcome, fix, start, start + end + removed)


def _mapped(outcome: RepairOutcome, fix: Fix, start: int, end: int) -> RepairOutcome:
    """``outcome`` of the unwrapped text, with its positions put back in the original."""
    inner = tuple(
        f._replace(offset=start, last=start if f.last >= 0 else -1) for f in outcome.fixes
    )
    return RepairOutcome(
        outcome.json_text,
        end,
        (fix, *inner),
        end - start,
        outcome.tail,
        first_guess=outcome.first_guess and outcome.first_guess._replace(offset=start),
    )
