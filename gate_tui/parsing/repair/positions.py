"""Where each fix is: offsets in the original text → 1-based line and column.

One forward pass over the text however many fixes there are; consecutive quote fixes of
one style (a reply written with single quotes throughout) become one record.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gate_tui.models import Repair
from gate_tui.parsing.repair.fixlog import MAX_FIXES, OVERFLOW_NOUNS
from gate_tui.parsing.repair.vocabulary import HABIT_NOUNS, PER_STRING_CODES, Fix, RepairRecord, certainty


def to_repairs(text: str, fixes: Sequence[Fix]) -> list[Repair]:
    """:class:`Repair` models with 1-based line and column in ``text``, in text order.

    See :func:`repair_records`, which this turns into models.
    """
    return [Repair.model_validate(record) for record in repair_records(text, fixes)]


def repair_records(text: str, fixes: Sequence[Fix]) -> list[RepairRecord]:
    """:func:`to_repairs` as ``Repair``-shaped dicts, in text order.

    One forward pass over the text however many fixes there are. Consecutive quote fixes
    of one style (a reply written with single quotes throughout) become one repair at the
    first string, whose message gives the count and the last position.

    ``parse`` takes this form: its result validates the dicts together with everything
    else, which is cheaper than building each model on its own first.
    """
    ordered = sorted(fixes, key=_offset) if len(fixes) > 1 else fixes
    lines = _LineCounter(text)
    repairs: list[RepairRecord] = []
    index, count = 0, len(ordered)
    while index < count:
        fix = ordered[index]
        last = index
        if fix.code in PER_STRING_CODES:  # a quote style is one habit: one report
            while last + 1 < count and ordered[last + 1].code == fix.code:
                last += 1
        line, column = lines.position(fix.offset)
        message = fix.message
        strings = fix.count + sum(other.count for other in ordered[index + 1 : last + 1])
        if fix.code in PER_STRING_CODES and strings > 1:
            final = max(ordered[last].offset, ordered[last].last)
            last_line, last_column = lines.peek(final)
            noun, result = HABIT_NOUNS[fix.code]
            message = f"{strings} {noun} → {result} (the last at line {last_line}, column {last_column})"
        repairs.append({"code": fix.code, "message": message, "line": line, "column": column, "certainty": certainty(fix.code)})
        index = last + 1
    return _bounded(repairs)


def _bounded(repairs: list[RepairRecord]) -> list[RepairRecord]:
    """At most :data:`MAX_FIXES` records, then one ``overflow`` record per code counting the rest.

    The tokenizer's log is bounded already (its own ``overflow`` records are kept as they
    are); this bounds the quick path's fixes the same way.
    """
    if len(repairs) <= MAX_FIXES + len(OVERFLOW_NOUNS):
        return repairs
    kept = repairs[:MAX_FIXES]
    counted: dict[str, list[Any]] = {}
    for record in repairs[MAX_FIXES:]:
        if record["code"] == "overflow":
            kept.append(record)
            continue
        entry = counted.setdefault(record["code"], [0, record])
        entry[0] += 1
        entry[1] = record
    for code, (count, last) in counted.items():
        noun = OVERFLOW_NOUNS.get(code, f"{code.replace('_', ' ')} repairs")
        kept.append({"code": "overflow", "message": f"and {count:,} more {noun}", "line": last["line"], "column": last["column"], "certainty": "exact"})
    return kept


def _offset(fix: Fix) -> int:
    return fix.offset


class _LineCounter:
    """1-based (line, column) of offsets asked for in ascending order: one pass over the text."""

    __slots__ = ("text", "line", "line_start", "previous")

    def __init__(self, text: str) -> None:
        self.text = text
        self.line, self.line_start, self.previous = 1, 0, 0

    def peek(self, offset: int) -> tuple[int, int]:
        """The position of an offset at or after the last one asked for, without moving on."""
        text = self.text
        offset = min(max(offset, self.previous), len(text))
        newline = text.rfind("\n", self.previous, offset)
        line_start = self.line_start if newline < 0 else newline + 1
        return self.line + text.count("\n", self.previous, offset), offset - line_start + 1

    def position(self, offset: int) -> tuple[int, int]:
        text, previous = self.text, self.previous
        offset = min(max(offset, 0), len(text))
        self.line += text.count("\n", previous, offset)
        newline = text.rfind("\n", previous, offset)
        if newline >= 0:
            self.line_start = newline + 1
        self.previous = offset
        return self.line, offset - self.line_start + 1
