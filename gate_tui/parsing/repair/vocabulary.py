"""The repair vocabulary: every kind of fix the repair pass may make, and its records.

Each kind is one row of :data:`KINDS` — its code, its certainty and a one-line
description (the README's table is this table) — plus one rule in the pass that applies
it. ``exact`` fixes keep the meaning of the text; ``guess`` fixes are judgment calls a
reviewer should check (and a policy can refuse). A fix records its offset in the
original text; :mod:`~gate_tui.parsing.repair.positions` turns offsets into lines and
columns and bounds how many records a reply can produce.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

SINGLE_QUOTES_MESSAGE = "single-quoted string → double quotes"


SMART_QUOTES_MESSAGE = "curly quotes used as JSON quotes → double quotes"


GUESS_FIX_MESSAGES = {
    "single_quotes": SINGLE_QUOTES_MESSAGE,
    "smart_quotes": SMART_QUOTES_MESSAGE,
    "inner_quote": "read quotes inside a string as text (what follows them cannot follow a value)",
}


# Habits: the same fix wherever a reply writes that way. One record per run, with a count.
HABIT_NOUNS = {
    "single_quotes": ("single-quoted strings", "double quotes"),
    "smart_quotes": ("strings in curly quotes", "double quotes"),
    "python_literal": ("Python literals", "true / false / null"),
    "literal_case": ("literals in another case", "lower case"),
    # Keys written as bare words (a JavaScript object literal, YAML): every key of the reply.
    "unquoted_key": ("keys without quotes", "quoted"),
}


PER_STRING_CODES = frozenset(HABIT_NOUNS)


LITERALS = {"true": "true", "false": "false", "null": "null"}


PYTHON_LITERALS = {"True": "true", "False": "false", "None": "null"}


EXACT, GUESS = "exact", "guess"


KINDS: dict[str, tuple[str, str]] = {
    # code: (certainty, what is fixed)
    "trailing_comma": (EXACT, '`[1,]` and `{"a": 1,}`: the comma is removed'),
    "single_quotes": (
        EXACT,
        "`'key'` and `'value'` → double quotes (escapes kept, inner `\"` escaped)",
    ),
    "smart_quotes": (EXACT, "“…” and ‘…’ used as JSON quotes → double quotes"),
    "python_literal": (
        EXACT,
        "`True` / `False` / `None` outside strings → `true` / `false` / `null`",
    ),
    "literal_case": (EXACT, "`TRUE`, `Null`, `FALSE`… → `true` / `null` / `false`"),
    "comment": (EXACT, "`// line`, `/* block */` and `# line` comments removed"),
    "unquoted_key": (EXACT, "`summary: …` — a bare word is quoted as a key only before a `:`"),
    "control_character": (
        EXACT,
        "a raw line break, tab or other control character inside a string → its escape",
    ),
    "literal_escape": (
        EXACT,
        "a literal `\\n` / `\\t` / `\\r` pair between tokens (outside any string) → a blank",
    ),
    "missing_comma": (EXACT, "two complete members or elements with no comma between them"),
    "mismatched_closer": (
        EXACT,
        "`]` where `}` was due (or the reverse) → the closer that was due; what follows is kept",
    ),
    "missing_opener": (
        GUESS,
        "a row of a list of lists with its `[` forgotten (`[[1, 2], 3, 4], [5, 6]]`): opened after "
        "the row before",
    ),
    "missing_closer": (
        EXACT,
        "a closer that skips an open bracket: the skipped bracket is closed first",
    ),
    "number_format": (
        EXACT,
        "`.25` → `0.25`, `1.` → `1.0`, digit grouping `82_461_110` → `82461110`",
    ),
    "tuple": (
        EXACT,
        "a Python tuple `(1, 2)` → an array `[1, 2]`; a parenthesised value `(1)` → the value",
    ),
    "invalid_escape": (
        EXACT,
        "`\\'` → `'`; `\\„` → `„`; another unknown escape `\\d` keeps its backslash as text",
    ),
    "double_serialised": (
        EXACT,
        'an object serialised twice (`{\\"summary\\": …}`) is decoded once first',
    ),
    "doubled_quotes": (EXACT, 'CSV-style doubled quotes (`""summary"": ""x""`) → single quotes'),
    "inner_quote": (
        GUESS,
        'a `"` inside a string read as text, because what follows it is not `,` `}` `]` `:`',
    ),
    "unquoted_value": (
        GUESS,
        "a bare value taken as a string up to the next `,` `}` `]` or line end",
    ),
    "missing_quote": (
        GUESS,
        "a string with one quote missing, closed (or opened) where the value ends",
    ),
    "restarted_object": (
        GUESS,
        "an object opened and abandoned, then written again whole: the complete one is taken",
    ),
    "truncated": (
        EXACT,
        "text ending mid-value: close an open string, drop what is incomplete, close brackets",
    ),
    "overflow": (EXACT, "more fixes than are listed: one record counts the rest"),
}


def certainty(code: str) -> str:
    """``exact`` or ``guess`` for a repair code (unknown codes count as guesses)."""
    return KINDS.get(code, (GUESS, ""))[0]


class Fix(NamedTuple):
    """One applied repair: its code, a human message and its offset in the original text.

    ``count`` > 1 when one record stands for a run of the same fix (``last`` is then
    the offset of the run's last one).
    """

    code: str
    message: str
    offset: int
    count: int = 1
    last: int = -1


@dataclass(frozen=True, slots=True)
class RepairOutcome:
    """The result of one repair attempt.

    ``json_text`` is strict JSON (still to be decoded) or None when the candidate cannot be
    repaired conservatively. ``end`` is the offset just past the candidate. ``consumed``
    is how many characters were examined, charged to the caller's budget. ``tail`` is set
    only with ``detach_tail`` (see :func:`repair_json`): decode with :func:`decode_repaired`.
    """

    json_text: str | None
    end: int
    fixes: tuple[Fix, ...]
    consumed: int
    tail: str | None = None
    error_at: int = -1
    """Where the repair gave up (offset), or -1; ``error`` says what is wrong there."""
    error: str = ""
    bad_value: bool = False
    """The failure is a value JSON has no place for (``NaN``): ``invalid_value``."""
    cut_at: int = -1
    """Where the text ended inside the value and cut something off (a string closed, a
    member dropped, an array or an opener left open), or -1 — also when only closing braces
    were missing right after a complete member."""
    cut_paths: tuple[str, ...] = ()
    """The dotted paths of every field the cut touched, outermost first."""
    first_guess: Fix | None = None
    """The first judgment call among the fixes (kept even when the records overflow)."""
    decoded: tuple[Any] | None = None
    """``(value,)`` when the pass decoded ``json_text`` already (the bulk finish): no second
    decode."""


class Fail(Exception):
    """Raised inside the tokenizer to abandon a candidate; never leaves the package.

    ``args[0]``, when given, is the offset of the first unrecoverable spot and
    ``args[1]`` what is wrong there (the caller turns both into the error message).
    """


class BadValue(Fail):
    """A value that JSON has no place for (``NaN``, ``Infinity``): ``invalid_value``, not a
    repair."""


class Cut(Exception):
    """Raised inside the tokenizer when the text ends mid-token or mid-structure."""


RepairRecord = dict[str, Any]


"""A :class:`Repair` as a dict with its five fields (``code``, ``message``, ``line``, ``column``,
``certainty``)."""


def trailing_comma(closer: str, offset: int) -> Fix:
    return Fix("trailing_comma", f"removed a trailing comma before '{closer}'", offset)


def unquoted_key(word: str, offset: int) -> Fix:
    return Fix("unquoted_key", f"quoted the key {word!r}", offset)


def python_literal(word: str, offset: int) -> Fix:
    return Fix("python_literal", f"Python {word} → {PYTHON_LITERALS[word]}", offset)


def comment(kind: str, offset: int) -> Fix:
    return Fix("comment", f"removed a {kind} comment", offset)
