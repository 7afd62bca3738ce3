"""The bulk finish: a reply needing hundreds of the same fixes is finished by one regex pass.

Once a reply has needed more fixes than are listed one by one (:data:`MAX_FIXES`), the
rest are only counted, so their positions no longer matter. A hostile reply (four
megabytes of ``/**/``, a million unquoted keys or trailing commas) then costs one
regular-expression pass over the rest of the text — comments removed, trailing commas
dropped, bare keys quoted, strings skipped whole — and one C decode of what the
tokenizer had already written plus that cleaned rest, instead of a Python iteration per
token. Anything the pass does not fix makes the decode fail, and the tokenizer goes on
as before: the result is the same, only the work differs.
"""

from __future__ import annotations

import re
from typing import Any

from gate_tui.parsing.repair.lexing import SCAN_ONCE

# 1 a string (kept), 2 a comment, 3 a trailing comma, 4+5 a bare key after `{` or `,`,
# 6 a line break between a value's end and the next member with no comma (strings are
# matched whole first, so none of these is ever found inside one).
_BULK = re.compile(
    r'("[^"\\]*+(?:\\[\s\S][^"\\]*+)*+")'
    r"|(/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+|\#[^\n]*+)"
    r"|(,)(?=[ \t\r\n]*+[}\]])"
    r"|([{,][ \t\r\n]*+)([A-Za-z_$][\w$\-]*+)(?=[ \t\r\n]*+:)"
    r'|(?<=["0-9elE}\]])([ \t\r]*+\n[ \t\r\n]*+)(?=["{\[])'
)


_VALUE_END = re.compile(r'["0-9elE}\]]')


class _Cleaner:
    """The callback of the pass: counts each fix kind and the last offset of any fix."""

    __slots__ = ("base", "counts", "last")

    def __init__(self, base: int) -> None:
        self.base = base
        self.counts = {"comment": 0, "trailing_comma": 0, "unquoted_key": 0, "missing_comma": 0}
        self.last = base

    def __call__(self, found: re.Match[str]) -> str:
        kind = found.lastindex
        if kind == 1:
            return found.group()
        self.last = self.base + found.start()
        if kind == 2:
            self.counts["comment"] += 1
            return " "
        if kind == 3:
            self.counts["trailing_comma"] += 1
            return ""
        if kind == 6:
            self.counts["missing_comma"] += 1
            return "," + found.group(6)
        self.counts["unquoted_key"] += 1
        return found.group(4) + '"' + found.group(5) + '"'


def bulk_finish(text: str, head: str, pos: int, limit: int) -> tuple[str, int, dict[str, int], int, Any] | None:
    """Finish the value whose repaired beginning is ``head`` from ``text[pos:limit]``.

    Returns (repaired JSON text, end offset in ``text``, fix counts by code, offset of
    the last fix, the decoded value) or None when the cleaned rest does not complete a
    valid value.
    """
    cleaner = _Cleaner(pos - 1)
    # One character of context for the missing-comma lookbehind: "0" stands for a value's
    # end (it starts no match), " " for anything else; it is dropped again after the pass.
    context = "0" if pos > 0 and _VALUE_END.match(text, pos - 1) else " "
    rest = _BULK.sub(cleaner, context + text[pos:limit])[1:]
    document = head + rest
    try:
        value, end = SCAN_ONCE(document, 0)
    except (StopIteration, ValueError, RecursionError, MemoryError):
        return None
    if not document[end:].strip():  # the value ends the text (the common case): no replay
        closer = max(text.rfind("}", pos, limit), text.rfind("]", pos, limit)) + 1
        if closer > pos and not _BULK.sub(_Cleaner(0), text[closer:limit]).strip():
            return document[:end], closer, cleaner.counts, cleaner.last, value
    return document[:end], pos + _original_offset(text, pos, limit, end - len(head)), cleaner.counts, cleaner.last, value


def _original_offset(text: str, pos: int, limit: int, cleaned: int) -> int:
    """Offset (from ``pos``) in the original rest of the offset ``cleaned`` in the cleaned rest.

    Replays the pass, summing how much each edit changed the length, until the edits
    pass ``cleaned``: a second linear pass, rather than a table of a million edits.
    """
    delta = 0  # original minus cleaned, so far
    for found in _BULK.finditer(text, pos, limit):
        kind = found.lastindex
        if kind == 1:
            continue
        start = found.start() - pos
        if start - delta >= cleaned:
            break
        size = found.end() - found.start()
        new = 1 if kind == 2 else 0 if kind == 3 else size + 1 if kind == 6 else size + 2
        delta += size - new
    return cleaned + delta
