"""The repair vocabulary: every kind of fix the repair pass may make, and its records.

========================  ==============================================================
code                      what is fixed
========================  ==============================================================
``trailing_comma``        ``[1,]`` and ``{"a": 1,}``
``single_quotes``         ``'key'`` and ``'value'`` (escapes kept, inner ``"`` escaped)
``python_literal``        ``True`` / ``False`` / ``None`` outside strings
``comment``               ``// line`` and ``/* block */`` comments
``unquoted_key``          ``summary: …`` — a bare word becomes a key only before a ``:``
``smart_quotes``          “…” and ‘…’ used as JSON quotes
``truncated``             text ending mid-value: close an open string, drop a dangling
                          key, a key with no value or a trailing comma, close brackets
========================  ==============================================================

A kind is a code and a message builder here, and a rule in the passes that apply it
(:mod:`~gate_tui.parsing.repair.tokenizer` and :mod:`~gate_tui.parsing.repair.quick`).
A fix records its offset in the original text; :mod:`~gate_tui.parsing.repair.positions`
turns offsets into lines and columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

SINGLE_QUOTES_MESSAGE = "single-quoted string → double quotes"


SMART_QUOTES_MESSAGE = "curly quotes used as JSON quotes → double quotes"


PER_STRING_CODES = frozenset({"single_quotes", "smart_quotes"})


LITERALS = {"true": "true", "false": "false", "null": "null", "NaN": "NaN", "Infinity": "Infinity"}


PYTHON_LITERALS = {"True": "true", "False": "false", "None": "null"}


class Fix(NamedTuple):
    """One applied repair: its code, a human message and its offset in the original text."""

    code: str
    message: str
    offset: int


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


class Fail(Exception):
    """Raised inside the tokenizer to abandon a candidate; never leaves this module."""


class Cut(Exception):
    """Raised inside the tokenizer when the text ends mid-token or mid-structure."""


RepairRecord = dict[str, Any]


"""A :class:`Repair` as a dict with its four fields (``code``, ``message``, ``line``, ``column``)."""


def trailing_comma(closer: str, offset: int) -> Fix:
    return Fix("trailing_comma", f"removed a trailing comma before '{closer}'", offset)


def unquoted_key(word: str, offset: int) -> Fix:
    return Fix("unquoted_key", f"quoted the key {word!r}", offset)


def python_literal(word: str, offset: int) -> Fix:
    return Fix("python_literal", f"Python {word} → {PYTHON_LITERALS[word]}", offset)


def comment(kind: str, offset: int) -> Fix:
    return Fix("comment", f"removed a {kind} comment", offset)
