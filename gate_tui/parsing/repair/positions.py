"""Where each fix is: offsets in the original text → 1-based line and column.

One forward pass over the text however many fixes there are; consecutive quote fixes of
one style (a reply written with single quotes throughout) become one record.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from gate_tui.parsing.repair.fixlog import MAX_FIXES, OVERFLOW_NOUNS
from gate_tui.parsing.repair.vocabulary import (
    HABIT_NOUNS,
    KINDS,
    PER_STRING_CODES,
    Fix,
    RepairRecord,
    certainty,
)

if TYPE_CHECKING:
    from gate_tui.models import Repair


def to_repairs(text: str, fixes: Sequence[Fix]) -> list[Repair]:
    """:class:`Repair` models with 1-based line and column in ``text``, in text order.

    See :func:`repair_records`, which this turns into models (pydantic is loaded here, not
    when the repair package is imported: extraction alone never needs it).
    """
    from gate_tui.models import Repair

    return [Repair.model_validate(record) for record in repair_records(text, fixes)]


def repair_records(text: str, fixes: Sequence[Fix]) -> list[RepairRecord]:
    """:func:`to_repairs` as ``Repair``-shaped dicts, in text order.

    One forward pass over the text however many fixes there are. A habit (a quote style,
    Python literals, literals in another case) is one repair at its first occurrence,
    whose message gives the count and the last position, wherever the others are.

    ``parse`` takes this form: its result validates the dicts together with everything
    else, which is cheaper than building each model on its own first.
    """
    if PER_STRING_CODES.isdisjoint(map(_code, fixes)):  # no habit to gather (C-level test)
        others = fixes
    else:
        others = _gathered(fixes)
    ordered = sorted(others, key=_offset) if len(others) > 1 else others
    repairs: list[RepairRecord] = []
    # One forward walk counting lines (a line counter object's method call per fix was a
    # measurable share of a repaired reply's time).
    count, rfind, size, kinds = text.count, text.rfind, len(text), _CERTAINTY
    line, line_start, previous = 1, 0, 0
    for code, message, offset, many, last in ordered:
        offset = 0 if offset < 0 else size if offset > size else offset
        if offset > previous:
            newlines = count("\n", previous, offset)
            if newlines:
                line += newlines
                line_start = rfind("\n", previous, offset) + 1
        elif offset < previous:  # not in order (cannot happen once sorted): count afresh
            line = count("\n", 0, offset) + 1
            line_start = rfind("\n", 0, offset) + 1
        previous = offset
        if many > 1 and code in PER_STRING_CODES:
            final = (
                offset if last < offset else size if last > size else last
            )  # (where the habit was last seen)
            newline = rfind("\n", offset, final)
            last_line = line + count("\n", offset, final)
            last_column = final - (line_start if newline < 0 else newline + 1) + 1
            noun, result = HABIT_NOUNS[code]
            message = (
                f"{many} {noun} → {result} (the last at line {last_line}, column {last_column})"
            )
        repairs.append(
            {
                "code": code,
                "message": message,
                "line": line,
                "column": offset - line_start + 1,
                "certainty": kinds.get(code) or certainty(code),
            }
        )
    return _bounded(repairs)


def _gathered(fixes: Sequence[Fix]) -> list[Fix]:
    """The fixes with each habit (a code of :data:`PER_STRING_CODES`) gathered into one fix
    at its first occurrence, counting them all and keeping the last one's offset."""
    habits: dict[str, list[Any]] = {}  # code → [first fix, count, last offset]
    others: list[Fix] = []
    for fix in fixes:
        if fix.code in PER_STRING_CODES:
            habit = habits.get(fix.code)
            final = fix.offset if fix.last < fix.offset else fix.last
            if habit is None:
                habits[fix.code] = [fix, fix.count, final]
            else:
                habit[1] += fix.count
                if final > habit[2]:
                    habit[2] = final
                if fix.offset < habit[0].offset:
                    habit[0] = fix
        else:
            others.append(fix)
    for first, count, final in habits.values():
        # A habit made in bulk is one fix already: keep it (`_replace` is a Python-level call).
        same = count == first.count and (count == 1 or final == first.last)
        others.append(first if same else Fix(first.code, first.message, first.offset, count, final))
    return others


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
        kept.append(
            {
                "code": "overflow",
                "message": f"and {count:,} more {noun}",
                "line": last["line"],
                "column": last["column"],
                "certainty": "exact",
            }
        )
    return kept


_offset = itemgetter(2)  # a fix's offset (a C-level key: the sort runs per repaired reply)
_code = itemgetter(0)
_CERTAINTY = {code: kind for code, (kind, _what) in KINDS.items()}
