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


# The literal pass: strings are set aside by one C-level split, the text between them is
# joined with a sentinel in their place, and each kind is one C-level substitution with a
# literal replacement (whose count ``subn`` gives). No Python call per match: a template
# with a group reference is expanded in Python on this interpreter, slower than a callback.
_STRING = re.compile(r'("[^"\\]*+(?:\\[\s\S][^"\\]*+)*+")')
_SENTINEL = "\ue000"
_LITERAL_KINDS = (
    ("comment", re.compile(r"/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+|\#[^\n]*+"), " "),
    ("trailing_comma", re.compile(r",(?=[ \t\r\n]*+[}\]])"), ""),
    (
        "missing_comma",
        re.compile("(?<=[\ue0000-9elE}\\]])[ \t\r]*+\n[ \t\r\n]*+(?=[\ue000{\\[])"),
        ",\n",
    ),
    # A bare key gets its opening quote where the blanks before it were, then its closing
    # one where the blanks before its colon were (blanks between tokens mean nothing).
    ("unquoted_key", re.compile(r"(?<=[{,])[ \t\r\n]*+(?=[A-Za-z_$][\w$\-]*+[ \t\r\n]*+:)"), '"'),
    ("", re.compile(r"(?<=[\w$\-])[ \t\r\n]*+(?=:)"), '"'),
)
LITERAL_CODES = frozenset(code for code, _, _ in _LITERAL_KINDS if code)


def _literal_pass(chunk: str, kinds: set[str], context: str) -> tuple[str, dict[str, int]] | None:
    """``chunk`` with the ``kinds`` fixed outside strings, and their counts; None if unsure.

    ``context`` is one character put before the chunk for the lookbehinds and dropped after.
    """
    if _SENTINEL in chunk:
        return None
    parts = _STRING.split(context + chunk)
    joined = _SENTINEL.join(parts[0::2])
    counts: dict[str, int] = {}
    for code, pattern, replacement in _LITERAL_KINDS:
        if code in kinds:
            joined, counts[code] = pattern.subn(replacement, joined)
        elif not code and "unquoted_key" in kinds:
            joined, closed = pattern.subn(replacement, joined)
            if closed != counts["unquoted_key"]:
                return None  # a colon after something else than a key just quoted
    pieces = joined.split(_SENTINEL)
    if pieces[0][:1] != context:
        return None
    pieces[0] = pieces[0][1:]
    strings = parts[1::2]
    del parts
    out = [None] * (len(pieces) + len(strings))
    out[0::2] = pieces
    out[1::2] = strings
    return "".join(out), counts  # type: ignore[arg-type]


_VALUE_END = re.compile(r'["0-9elE}\]]')
_LAST_KEY = re.compile(
    r"(?s:.*)[{,][ \t\r\n]*+([A-Za-z_$][\w$\-]*+)[ \t\r\n]*+:"
)  # greedy: the last one


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


def bulk_finish(
    text: str, head: str, pos: int, limit: int, kinds: set[str] | None = None
) -> tuple[str, int, dict[str, int], int, Any] | None:
    """Finish the value whose repaired beginning is ``head`` from ``text[pos:limit]``.

    Returns (repaired JSON text, end offset in ``text``, fix counts by code, offset of
    the last fix, the decoded value) or None when the cleaned rest does not complete a
    valid value. With ``kinds`` (the codes that overflowed) made only of
    :data:`LITERAL_CODES`, the C-level literal pass is tried (the caller retries without
    ``kinds`` when it returns None).
    """
    cleaner = _Cleaner(pos - 1)
    # One character of context for the missing-comma lookbehind: "0" stands for a value's
    # end (it starts no match), " " for anything else; it is dropped after the pass.
    context = "0" if pos > 0 and _VALUE_END.match(text, pos - 1) else " "
    literal = (
        _literal_pass(text[pos:limit], kinds, context) if kinds and kinds <= LITERAL_CODES else None
    )
    if literal is not None:
        rest, counts = literal
        cleaner.counts.update(counts)
    else:
        rest = _BULK.sub(cleaner, context + text[pos:limit])[1:]
    document = head + rest
    try:
        value, end = SCAN_ONCE(document, 0)
    except (StopIteration, ValueError, RecursionError, MemoryError):
        return None
    if not document[end:].strip():  # the value ends the text (the common case): no replay
        closer = max(text.rfind("}", pos, limit), text.rfind("]", pos, limit)) + 1
        if closer > pos and not _BULK.sub(_Cleaner(0), text[closer:limit]).strip():
            if literal is not None and cleaner.counts.get("unquoted_key"):
                # The C-level pass counts its fixes but does not place them: the last key
                # (what the habit's record names) is found from the end, once.
                last = _LAST_KEY.match(text, pos, closer)
                cleaner.last = last.start(1) if last is not None else cleaner.last
            return document[:end], closer, cleaner.counts, cleaner.last, value
    if literal is not None:
        return None  # the replay below knows the general pass only: let the caller retry with it
    return (
        document[:end],
        pos + _original_offset(text, pos, limit, end - len(head)),
        cleaner.counts,
        cleaner.last,
        value,
    )


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
