"""The fixes of one repair attempt, bounded: a reply cannot make the parser keep a million records.

A hostile (or very broken) reply can need a fix every few characters: four megabytes of
``/**/`` are a million comments. The log keeps the first :data:`MAX_FIXES` fixes as they
are and, beyond that, only a count per code, which becomes one ``overflow`` record
("and 1,048,466 more comments removed"). Quote-style fixes (one habit, every string)
are one running record per style whatever their number. Memory stays flat.
"""

from __future__ import annotations

from gate_tui.parsing.repair.vocabulary import GUESS, PER_STRING_CODES, Fix, certainty

MAX_FIXES = 200
"""How many fixes a reply lists one by one; the rest are counted."""


OVERFLOW_NOUNS = {
    "comment": "comments removed",
    "trailing_comma": "trailing commas removed",
    "unquoted_key": "keys quoted",
    "python_literal": "Python literals converted",
    "literal_case": "literals lower-cased",
    "control_character": "strings with raw control characters escaped",
    "missing_comma": "missing commas added",
    "inner_quote": "strings with inner quotes read as text",
    "unquoted_value": "unquoted values taken as strings",
}


class FixLog:
    """Collects fixes in the order they are made, keeping at most :data:`MAX_FIXES` of them."""

    __slots__ = ("kept", "overflow", "runs", "first_guess", "added")

    def __init__(self) -> None:
        self.first_guess: Fix | None = None  # kept even when over the limit: a policy may refuse it
        self.kept: list[Fix] = []
        self.overflow: dict[str, list[int]] = {}  # code → [count, last offset]
        self.runs: dict[str, Fix] = {}  # habit (quote style, bare keys…) → its running record
        self.added = 0  # fixes made one by one, habits included

    @property
    def crowded(self) -> bool:
        """More fixes than the log lists one by one: a hostile reply, whose rest the
        tokenizer's bulk pass finishes at C speed (a habit's run never overflows, so its
        count says it)."""
        return bool(self.overflow) or self.added > MAX_FIXES

    def add(self, fix: Fix) -> None:
        self.added += 1
        if self.first_guess is None and certainty(fix.code) == GUESS:
            self.first_guess = fix
        if fix.code in PER_STRING_CODES:
            run = self.runs.get(fix.code)
            self.runs[fix.code] = (
                fix if run is None else run._replace(count=run.count + 1, last=fix.offset)
            )
        elif len(self.kept) < MAX_FIXES:
            self.kept.append(fix)
        else:
            counted = self.overflow.setdefault(fix.code, [0, fix.offset])
            counted[0] += 1
            counted[1] = fix.offset

    def count_more(self, counts: dict[str, int], last: int) -> None:
        """Count fixes made in bulk (only counted: they come after the listed ones)."""
        for code, count in counts.items():
            run = self.runs.get(code)
            if count and run is not None:  # a habit: its one record counts them all
                self.runs[code] = Fix(
                    run.code, run.message, run.offset, run.count + count, max(run.last, last)
                )
            elif count:
                counted = self.overflow.setdefault(code, [0, last])
                counted[0] += count
                counted[1] = max(counted[1], last)

    def extend(self, fixes: tuple[Fix, ...] | list[Fix]) -> None:
        for fix in fixes:
            self.add(fix)

    def count(self, code: str) -> int:
        """How many fixes of ``code`` were made (kept or counted)."""
        kept = sum(fix.count for fix in self.kept if fix.code == code)
        run = self.runs.get(code)
        return kept + (run.count if run is not None else 0) + self.overflow.get(code, [0])[0]

    def fixes(self) -> tuple[Fix, ...]:
        """Every record: the kept fixes, the quote-style runs and one overflow record per code."""
        records = list(self.kept)
        records.extend(self.runs.values())
        for code, (count, last) in self.overflow.items():
            noun = OVERFLOW_NOUNS.get(code, f"{code.replace('_', ' ')} repairs")
            records.append(Fix("overflow", f"and {count:,} more {noun}", last, count, last))
        return tuple(records)

    def __bool__(self) -> bool:
        return bool(self.kept or self.runs or self.overflow)

    append = add  # the scalar readers take any list-like sink of fixes


def as_runs(fixes: list[Fix]) -> tuple[Fix, ...]:
    """``fixes`` as the tokenizer's log keeps them: each habit (a quote style, bare keys…)
    one running record, whichever path made them one by one."""
    log = FixLog()
    log.extend(fixes)
    return log.fixes()
