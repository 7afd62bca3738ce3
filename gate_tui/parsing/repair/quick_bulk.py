"""The error-driven rounds' whole-value rewrites: every single-quoted string made double-
quoted, every bare ``True`` / ``False`` / ``None`` made JSON, each in one regex-driven pass
over the first value (stopping where it closes), not one decode round per occurrence."""

from __future__ import annotations

import re
from collections.abc import Callable

from gate_tui.parsing.repair.edits import Edits
from gate_tui.parsing.repair.lexing import REQUOTE, requote
from gate_tui.parsing.repair.literals import literals_by_parity
from gate_tui.parsing.repair.vocabulary import (
    PYTHON_LITERALS,
    SINGLE_QUOTES_MESSAGE,
    Fix,
    python_literal,
)

_DQ_STRING = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'

_SQ_STRING = r"'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'"

_BRACKET = r"([{}\[\]])"

_BULK_QUOTES = re.compile(
    r"(?=[\"'{}\[\]])(?:" + _DQ_STRING + "|(" + _SQ_STRING + ")|" + _BRACKET + ")"
)

_BULK_LITERALS = re.compile(
    r"(?=[\"'{}\[\]TFN])(?:" + _DQ_STRING + "|" + _SQ_STRING
    + r"|\b(True|False|None)\b(?![ \t\r\n]*+:)|" + _BRACKET + ")"
)


_MAX_RESIZED_STRINGS = 32


def bulk_rewrite(
    current: str, pattern: re.Pattern[str], rewrite: Callable[[re.Match[str]], str]
) -> str:
    """Replace the group-1 matches of ``pattern`` by ``rewrite``, up to where the value closes.

    Only the first value matters: stopping at its closing bracket (group 2) keeps a reply
    with thousands of later objects from being rewritten in full. Brackets inside strings
    are skipped with the strings; a miscount only means a later round or the tokenizer.
    """
    pieces: list[str] = []
    last = depth = 0
    for found in pattern.finditer(current):
        kind = found.lastindex
        if kind == 1:
            pieces.append(current[last : found.start()])
            pieces.append(rewrite(found))
            last = found.end()
        elif kind == 2:
            if found.group(2) in "{[":
                depth += 1
            else:
                depth -= 1
                if depth <= 0:
                    break
    pieces.append(current[last:])
    return "".join(pieces)


def requote_all(
    current: str, start: int
) -> tuple[str, list[Fix], list[tuple[int, int, int]]] | None:
    """Turn every single-quoted string of the value into a double-quoted one, in one pass.

    A reply in single quotes has them on every string; one regex-driven pass is far
    cheaper than a decode round per string. Called only before any other edit, so offsets
    in ``current`` are still original offsets. Returns the new text, the fixes, and the
    (start, end, new length) of strings whose length changed (escapes), or None when
    there are too many of those to map offsets cheaply.

    :func:`bulk_rewrite`'s loop, written out: a string is rewritten on every turn here,
    and a callback per string cost a third of the pass.
    """
    pieces: list[str] = []
    converted: list[int] = []  # where each rewritten string starts
    resized: list[tuple[int, int, int]] = []
    last = depth = 0
    for found in _BULK_QUOTES.finditer(current):
        kind = found.lastindex
        if kind == 1:
            at, end = found.span()
            content = current[at + 1 : end - 1]
            if '"' in content or "\\" in content:
                content = REQUOTE.sub(requote, content)
                if len(content) + 2 != end - at:
                    resized.append((at, end, len(content) + 2))
            pieces += (current[last:at], '"', content, '"')
            converted.append(at)
            last = end
        elif kind == 2:
            if found.group(2) in "{[":
                depth += 1
            else:
                depth -= 1
                if depth <= 0:
                    break
    if len(resized) > _MAX_RESIZED_STRINGS:
        return None
    pieces.append(current[last:])
    if len(converted) > 1 and "//" not in current and "#" not in current:
        # One record for the habit (a line comment could hold quotes that are filtered later:
        # then each string keeps its own record, as before).
        first, last = start + converted[0], start + converted[-1]
        fixes = [Fix("single_quotes", SINGLE_QUOTES_MESSAGE, first, len(converted), last)]
    else:
        fixes = [Fix("single_quotes", SINGLE_QUOTES_MESSAGE, start + at) for at in converted]
    return "".join(pieces), fixes, resized


def python_literals_all(current: str, start: int, edits: Edits) -> tuple[str, list[Fix]]:
    """Rewrite every bare ``True`` / ``False`` / ``None`` of the value outside strings, in one pass.

    The rewrites keep lengths (False → false is 5 too), so no offsets move.
    """
    if "'" not in current and "\\" not in current:
        return literals_by_parity(current, start, edits)
    fixes: list[Fix] = []

    def convert(found: re.Match[str]) -> str:
        word = found.group(1)
        fixes.append(python_literal(word, start + edits.original(found.start())))
        return PYTHON_LITERALS[word]

    return bulk_rewrite(current, _BULK_LITERALS, convert), fixes
