"""The conservative repair pass for almost-JSON that a model wrote.

It rewrites what language models commonly get wrong in a candidate (starting at its
``{`` or ``[``), and nothing else:

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

Anything else (a bare word used as a value, a missing comma, a raw line break inside a
string, prose) makes the repair fail: the pass never invents content. Every fix is
reported with its offset in the original text; :func:`to_repairs` turns offsets into the
1-based line and column of :class:`gate_tui.models.Repair`.

Two implementations of the same rules, because speed matters:

* :func:`repair_json` is the reference: one tokenizer pass over an explicit bracket stack
  (no recursion). Strings, numbers and blanks are consumed by possessive regular
  expressions, the Python loop runs once per token, and every nested value that is
  already valid is taken whole by the C scanner, so only broken parts are tokenized.
  Linear, with a work budget from the caller.
* :func:`quick_repair` lets the C decoder find each defect and fixes it in place, for a
  bounded number of rounds; for a reply with a few defects it is several times faster.
  It handles no truncation and no single quotes, and returns None whenever it is unsure,
  so that :func:`repair_json` decides. Tests check the two agree.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from gate_tui.limits import MAX_DEPTH
from gate_tui.models import Repair

_BLANK = re.compile(r"[ \t\r\n]*+")
# One token after optional blanks, by group number: 1 a complete double-quoted string,
# 2 a complete single-quoted one, 3 punctuation (these three are handled inline in the loop),
# 4 any other quote (curly, or a string the text cuts off), 5 a number, 6 a word, 7 a
# comment, 8 anything else. Every repetition is possessive: nothing can backtrack.
_TOKEN = re.compile(
    r"[ \t\r\n]*+(?:"
    r'("[^"\\\n]*+(?:\\.[^"\\\n]*+)*+")'
    r"|('[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')"
    r"|([{}\[\]:,])"
    r"|([\"'\u201c\u201d\u2018\u2019])"
    r"|([-0-9])"
    r"|([\w$])"
    r"|(/)"
    r"|([\s\S]))?"
)
# How far one _TOKEN match may read. A complete string is taken by the match itself; a quote
# whose string does not close within this many characters is read by read_quoted, which
# finds its end with str.find. Without the bound, a string that never closes (a cut-off
# reply) was scanned to the end twice by regular expressions, the costliest pass of all.
_TOKEN_WINDOW = 4096
# A string the cut leaves open is detached from the repaired text beyond this length (see
# repair_json); the placeholder's value cannot come from a reply but by the \u0000 escape.
LONG_TAIL = 1 << 16
_TAIL_VALUE = "\x00gate-tui: detached tail\x00"
_TAIL_PLACEHOLDER = json.dumps(_TAIL_VALUE)
_DQ_BODY = re.compile(r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+')
_SQ_BODY = re.compile(r"[^'\\\n]*+(?:\\.[^'\\\n]*+)*+")
_SMART_DQ_BODY = re.compile(r"[^\u201c\u201d\\\n]*+(?:\\.[^\u201c\u201d\\\n]*+)*+")
_SMART_SQ_BODY = re.compile(r"[^\u2018\u2019\\\n]*+(?:\\.[^\u2018\u2019\\\n]*+)*+")
_NUMBER = re.compile(r"-?(?:Infinity|[0-9][0-9.eE+\-]*+)")
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|-?Infinity")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*+")
_BARE_KEY = re.compile(r"[\w$][\w$\-]*+")
_REQUOTE = re.compile(r'\\.|"', re.DOTALL)

# (closing characters, body pattern, repair code) for each kind of opening quote.
_QUOTES: dict[str, tuple[str, re.Pattern[str], str | None]] = {
    '"': ('"', _DQ_BODY, None),
    "'": ("'", _SQ_BODY, "single_quotes"),
    "\u201c": ("\u201c\u201d", _SMART_DQ_BODY, "smart_quotes"),
    "\u201d": ("\u201c\u201d", _SMART_DQ_BODY, "smart_quotes"),
    "\u2018": ("\u2018\u2019", _SMART_SQ_BODY, "smart_quotes"),
    "\u2019": ("\u2018\u2019", _SMART_SQ_BODY, "smart_quotes"),
}
_SINGLE_QUOTES_MESSAGE = "single-quoted string → double quotes"
_SMART_QUOTES_MESSAGE = "curly quotes used as JSON quotes → double quotes"
_PER_STRING_CODES = frozenset({"single_quotes", "smart_quotes"})
_LITERALS = {"true": "true", "false": "false", "null": "null", "NaN": "NaN", "Infinity": "Infinity"}
_PYTHON_LITERALS = {"True": "true", "False": "false", "None": "null"}

# Tokenizer states: what the innermost open bracket expects next.
_OBJ_FIRST, _OBJ_KEY, _OBJ_COLON, _OBJ_VALUE, _OBJ_NEXT = range(5)
_ARR_FIRST, _ARR_VALUE, _ARR_NEXT = range(5, 8)
_KEY_STATES = (_OBJ_FIRST, _OBJ_KEY)
_VALUE_STATES = (_OBJ_VALUE, _ARR_FIRST, _ARR_VALUE)
_CLOSABLE = (_OBJ_FIRST, _OBJ_NEXT, _ARR_FIRST, _ARR_NEXT)


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


class _Fail(Exception):
    """Raised inside the tokenizer to abandon a candidate; never leaves this module."""


class _Cut(Exception):
    """Raised inside the tokenizer when the text ends mid-token or mid-structure."""


def repair_json(
    text: str, start: int, limit: int, *, budget: int | None = None, detach_tail: bool = False
) -> RepairOutcome:
    """Repair the JSON value opening at ``text[start]`` (``{`` or ``[``), reading at most to ``limit``.

    Stops where the value closes. If ``limit`` comes first the value is treated as cut
    off and closed (``truncated``). Gives up once more than ``budget`` characters were
    examined. Never raises.

    With ``detach_tail``, a string value that the end of the text leaves open and that is
    longer than :data:`LONG_TAIL` (no backslash or control character in it) is not copied
    into ``json_text``: that holds a placeholder in its place and the outcome's ``tail``
    holds the string, which :func:`decode_repaired` puts back. A reply cut off in a
    megabyte-long string then costs one copy of it instead of three (the token, the
    repaired text, the decoded value), two of which were alive at once: enough for the
    allocator to hand the memory back after each reply and fault it in again for the next
    (measured: that, not the scanning, made a 2 MB cut-off reply cost 3× a 1 MB one).
    """
    repairer = _Repairer(text, start, limit, budget, detach_tail)
    try:
        return repairer.run()
    except _Fail:
        return RepairOutcome(None, repairer.pos, (), repairer.pos - start)
    except (RecursionError, MemoryError, ValueError, IndexError):
        return RepairOutcome(None, repairer.pos, (), repairer.pos - start)


class QuickRepair(NamedTuple):
    """A value decoded by :func:`quick_repair`, its end offset and the fixes it needed."""

    value: object
    end: int
    fixes: tuple[Fix, ...]


_DECODER = json.JSONDecoder()
_SCAN_ONCE = _DECODER.scan_once  # the C scanner: decodes one JSON value at an index
_SCAN_STRING = json.decoder.scanstring  # the C scanner's string reader
QUICK_MAX_FIXES = 12


def quick_repair(text: str, start: int, *, max_fixes: int = QUICK_MAX_FIXES) -> QuickRepair | None:
    """Decode the value opening at ``text[start]``, letting the C decoder find the defects.

    Each failed decode of the candidate points at the first defect; if it is one the
    tokenizer would fix the same way (trailing comma, comment, unquoted key, Python
    literal, curly quotes) it is fixed in place and decoding retried. Anything else —
    a cut-off reply, prose, a missing comma — returns None so the
    caller runs :func:`repair_json`, which handles all cases. Single quotes are the one
    defect fixed in bulk (every string at once, see :func:`_requote_all`), when they are
    the first defect and there are no block comments. At most ``max_fixes + 1``
    decodes of the slice: linear, and far cheaper than tokenizing in Python when a
    reply has a few defects. Text after the value is ignored, as the tokenizer does.
    """
    found = quick_repair_parts(text, start, max_fixes)
    return None if found is None else QuickRepair(*found)


def quick_repair_parts(text: str, start: int, max_fixes: int = QUICK_MAX_FIXES) -> tuple[object, int, tuple[Fix, ...]] | None:
    """:func:`quick_repair` as a plain tuple, for the extraction fast path (a named tuple
    is built by a Python-level call, a measurable share of parsing a typical reply)."""
    # The first decode reads the original text at `start`: nearly every reply needs no
    # repair, and then the candidate is never copied out of the text. The C scanner reads
    # nothing before its index, so its positions are the slice's plus `start`. A failure
    # counts lines from 0 to build its error (O(start), once); the rounds that edit work
    # on the slice, and the first of them reuses this failure instead of decoding again.
    try:
        value, end = _SCAN_ONCE(text, start)
    except StopIteration as missing:  # what raw_decode reports as "Expecting value"
        at, message = missing.value - start, "Expecting value"
    except json.JSONDecodeError as error:
        at, message = error.pos - start, error.msg
    except (ValueError, RecursionError, MemoryError):
        return None
    else:
        return value, end, ()
    current = text[start:]
    fixes: list[Fix] = []
    edits = _Edits()
    removed: list[tuple[int, int]] = []  # original spans of comments taken out
    literals_done = False
    last = -1
    for round_ in range(max_fixes + 1):
        if round_:
            try:
                value, end = _SCAN_ONCE(current, 0)
            except StopIteration as missing:
                at, message = missing.value, "Expecting value"
            except json.JSONDecodeError as error:
                at, message = error.pos, error.msg
            except (ValueError, RecursionError, MemoryError):
                return None
            else:
                stop = start + edits.original(end)
                if removed:
                    fixes = [fix for fix in fixes if not _inside_any(removed, fix)]
                return value, stop, tuple(fix for fix in fixes if fix.offset < stop)
        if at <= last:
            return None  # no progress: the defect is not a local one
        if current.startswith("'", at) and not fixes and "/*" not in current:
            requoted = _requote_all(current, start)
            if requoted is None:
                return None
            current, quote_fixes, spans = requoted
            fixes.extend(quote_fixes)
            edits.spans.extend(spans)
            last = at
            continue
        if not literals_done and current.startswith(_LITERAL_STARTS, at) and "/*" not in current:
            literals_done = True  # a reply written with Python literals: all of them at once
            current, literal_fixes = _python_literals_all(current, start, edits)
            if literal_fixes:
                fixes.extend(literal_fixes)
                last = at - 1  # the defect at `at` was one of them: decoding may now pass it
                continue
        edit = _local_edit(current, at, message)
        if edit is None:
            return None
        begin, stop, replacement, fix = edit
        fixes.append(Fix(fix.code, fix.message, start + edits.original(fix.offset)))
        if fix.code == "comment":  # quotes the bulk pass "fixed" inside it were never strings
            removed.append((start + edits.original(begin), start + edits.original(stop)))
        if len(replacement) != stop - begin:  # `None` → `null` moves nothing
            edits.add(begin, stop, len(replacement))
        current = current[:begin] + replacement + current[stop:]
        last = at
    return None


def _inside_any(spans: list[tuple[int, int]], fix: Fix) -> bool:
    bulk = fix.code == "single_quotes" or fix.code == "python_literal"
    return bulk and any(begin < fix.offset < end for begin, end in spans)


class _Edits:
    """Maps offsets in an edited string back to the original, whatever order edits came in.

    A trailing comma is found (and removed) after a comment that follows it, so edits are
    not in text order. There are at most a dozen, so a linear walk is cheapest.
    """

    def __init__(self) -> None:
        self.spans: list[tuple[int, int, int]] = []  # (original start, original end, new length)

    def original(self, offset: int) -> int:
        """The original offset of ``offset`` in the current string (inside a replacement: its start)."""
        if not self.spans:
            return offset
        delta = 0
        for begin, end, size in self.spans:
            here = begin + delta
            if offset < here:
                break
            if offset < here + size:
                return begin
            delta += size - (end - begin)
        return offset - delta

    def add(self, begin: int, stop: int, size: int) -> None:
        """Record that current ``[begin, stop)`` became ``size`` characters."""
        span = (self.original(begin), self.original(stop), size)
        self.spans.append(span)
        self.spans.sort()


# The bulk passes match, in text order: strings of both quote styles (double-quoted ones
# first, so an apostrophe inside them is never taken for a quote), brackets (group 2, to
# stop where the value closes), and what the pass rewrites (group 1): a single-quoted
# string, or a bare Python literal that is not a key (`True:` would be one). Strings left
# alone have no group, so the loop skips them on `lastindex` alone.
# Each starts with a lookahead on the possible first characters: without it the engine
# tries every alternative at every position (several times slower on long text).
_DQ_STRING = r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"'
_SQ_STRING = r"'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'"
_BRACKET = r"([{}\[\]])"
_BULK_QUOTES = re.compile(r"(?=[\"'{}\[\]])(?:" + _DQ_STRING + "|(" + _SQ_STRING + ")|" + _BRACKET + ")")
_BULK_LITERALS = re.compile(
    r"(?=[\"'{}\[\]TFN])(?:" + _DQ_STRING + "|" + _SQ_STRING
    + r"|\b(True|False|None)\b(?![ \t\r\n]*+:)|" + _BRACKET + ")"
)
_LITERAL_STARTS = ("True", "False", "None")
_MAX_RESIZED_STRINGS = 32


def _bulk_rewrite(current: str, pattern: re.Pattern[str], rewrite: Callable[[re.Match[str]], str]) -> str:
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


def _requote_all(current: str, start: int) -> tuple[str, list[Fix], list[tuple[int, int, int]]] | None:
    """Turn every single-quoted string of the value into a double-quoted one, in one pass.

    A reply in single quotes has them on every string; one regex-driven pass is far
    cheaper than a decode round per string. Called only before any other edit, so offsets
    in ``current`` are still original offsets. Returns the new text, the fixes, and the
    (start, end, new length) of strings whose length changed (escapes), or None when
    there are too many of those to map offsets cheaply.

    :func:`_bulk_rewrite`'s loop, written out: a string is rewritten on every turn here,
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
                content = _REQUOTE.sub(_requote, content)
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
    fixes = [Fix("single_quotes", _SINGLE_QUOTES_MESSAGE, start + at) for at in converted]
    return "".join(pieces), fixes, resized


def _python_literals_all(current: str, start: int, edits: _Edits) -> tuple[str, list[Fix]]:
    """Rewrite every bare ``True`` / ``False`` / ``None`` of the value outside strings, in one pass.

    The rewrites keep lengths (False → false is 5 too), so no offsets move.
    """
    fixes: list[Fix] = []

    def convert(found: re.Match[str]) -> str:
        word = found.group(1)
        fixes.append(_python_literal(word, start + edits.original(found.start())))
        return _PYTHON_LITERALS[word]

    return _bulk_rewrite(current, _BULK_LITERALS, convert), fixes


def _local_edit(current: str, at: int, message: str) -> tuple[int, int, str, Fix] | None:
    """The edit that fixes the defect the decoder reported at ``at``: (start, end, new, fix).

    Fix offsets are in ``current``; the caller maps them back to the original text.
    """
    if at >= len(current):
        return None  # cut off: the tokenizer closes brackets in order
    c = current[at]
    if c == "}" or c == "]":
        comma = current.rfind(",", 0, at)
        if comma < 0 or _BLANK.match(current, comma + 1, at).end() < at or not _after_value(current, comma):
            return None
        return comma, comma + 1, "", _trailing_comma(c, comma)
    if c == ",":  # Python 3.13+ reports a trailing comma at the comma itself
        after = _BLANK.match(current, at + 1).end()
        if after < len(current) and current[after] in "}]" and _after_value(current, at):
            return at, at + 1, "", _trailing_comma(current[after], at)
        return None  # `{,`, `[,` or `,,`: a comma after nothing is not a trailing comma
    if c == "/":
        return _comment_edit(current, at)
    if c in _QUOTES and c != "'" and c != '"':
        try:
            token, end, cut, fix = read_quoted(current, at, len(current))
        except _Fail:
            return None
        return None if cut or fix is None else (at, end, token, fix)
    word = _BARE_KEY.match(current, at)
    if word is None:
        return None
    if message.startswith("Expecting property name"):
        after = _BLANK.match(current, word.end()).end()
        if after < len(current) and current[after] == ":":
            return at, word.end(), '"' + word.group() + '"', _unquoted_key(word.group(), at)
        return None
    literal = _WORD.match(current, at)
    if message.startswith("Expecting value") and literal is not None and literal.group() in _PYTHON_LITERALS:
        name = literal.group()
        return at, literal.end(), _PYTHON_LITERALS[name], _python_literal(name, at)
    return None


def _after_value(current: str, comma: int) -> bool:
    """Whether the comma at ``comma`` follows a value (not an opener, a colon or a comma)."""
    before = comma - 1
    while before >= 0 and current[before] in " \t\r\n":
        before -= 1
    return before >= 0 and current[before] not in "{[,:"


def _comment_edit(current: str, at: int) -> tuple[int, int, str, Fix] | None:
    kind = current[at + 1 : at + 2]
    if kind == "/":
        end = current.find("\n", at)
        return at, len(current) if end < 0 else end, "", _comment("//", at)
    if kind == "*":
        end = current.find("*/", at + 2)
        return None if end < 0 else (at, end + 2, " ", _comment("/* */", at))
    return None


RepairRecord = dict[str, Any]
"""A :class:`Repair` as a dict with its four fields (``code``, ``message``, ``line``, ``column``)."""


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
        if fix.code in _PER_STRING_CODES:  # a quote style is one habit: one report
            while last + 1 < count and ordered[last + 1].code == fix.code:
                last += 1
        line, column = lines.position(fix.offset)
        message = fix.message
        if last > index:
            last_line, last_column = lines.position(ordered[last].offset)
            noun = "single-quoted strings" if fix.code == "single_quotes" else "strings in curly quotes"
            message = f"{last - index + 1} {noun} → double quotes (the last at line {last_line}, column {last_column})"
        repairs.append({"code": fix.code, "message": message, "line": line, "column": column})
        index = last + 1
    return repairs


def _offset(fix: Fix) -> int:
    return fix.offset


class _LineCounter:
    """1-based (line, column) of offsets asked for in ascending order: one pass over the text."""

    __slots__ = ("text", "line", "line_start", "previous")

    def __init__(self, text: str) -> None:
        self.text = text
        self.line, self.line_start, self.previous = 1, 0, 0

    def position(self, offset: int) -> tuple[int, int]:
        text, previous = self.text, self.previous
        offset = min(max(offset, 0), len(text))
        self.line += text.count("\n", previous, offset)
        newline = text.rfind("\n", previous, offset)
        if newline >= 0:
            self.line_start = newline + 1
        self.previous = offset
        return self.line, offset - self.line_start + 1


class _Repairer:
    """One repair attempt: a token loop over an explicit bracket stack (no recursion)."""

    def __init__(self, text: str, start: int, limit: int, budget: int | None, detach_tail: bool = False) -> None:
        self.text = text
        self.start = start
        self.limit = min(limit, len(text))
        self.stop = self.limit if budget is None else min(self.limit, start + max(budget, 0))
        self.pos = start
        self.out: list[str] = []
        self.fixes: list[Fix] = []
        self.kinds: list[str] = []
        self.states: list[int] = []
        self.marks: list[int] = []  # out index where the current member (with its comma) begins
        self.commas: list[int] = []  # text offset of the last comma of each open bracket
        # Valid nested values are consumed whole by the C scanner (see _whole_value). It reads
        # a slice of the candidate, never the whole text: its errors count lines from index 0.
        self.segment = ""
        self.scan_budget = 16 * (self.limit - start) + 16_384
        self.closed_string = False  # the text ended inside a string value, which was closed
        self.detach_tail = detach_tail  # see repair_json
        self.tail: str | None = None
        self.dropped = ""  # what the cut left incomplete, for the truncation message

    def run(self) -> RepairOutcome:
        """The token loop. Long on purpose: strings and punctuation — nearly every token —
        are handled inline, without a method call, because this loop is the cost of every
        repaired reply. Rarer tokens go to :meth:`_other`."""
        text, limit, stop = self.text, self.limit, self.stop
        if self.start >= limit or text[self.start] not in "{[":
            raise _Fail
        out, states, marks, commas = self.out, self.states, self.marks, self.commas
        self._open(text[self.start])
        pos = self.start + 1
        match = _TOKEN.match
        try:
            while True:
                window = pos + _TOKEN_WINDOW
                token = match(text, pos, window if window < limit else limit)
                kind = token.lastindex
                if kind is None:  # only blanks up to where the match could read
                    if window < limit:
                        pos = window
                        continue
                    self.pos = limit
                    raise _Cut  # only blanks left before the limit
                pos = self.pos = token.start(kind)
                if pos > stop:
                    raise _Fail  # over budget
                state = states[-1]
                if kind <= 2:  # a complete string: a key or a value
                    piece = token.group(kind)
                    if kind == 2:
                        piece = self._single_quoted(piece, pos)
                    if state <= _OBJ_KEY:
                        states[-1] = _OBJ_COLON
                    elif state == _OBJ_VALUE:
                        states[-1] = _OBJ_NEXT
                    elif state == _ARR_FIRST or state == _ARR_VALUE:
                        states[-1] = _ARR_NEXT
                    else:
                        raise _Fail
                    out.append(piece)
                    pos = token.end()
                elif kind == 3:
                    c = text[pos]
                    if c == ",":
                        if state == _OBJ_NEXT:
                            states[-1] = _OBJ_KEY
                        elif state == _ARR_NEXT:
                            states[-1] = _ARR_VALUE
                        else:
                            raise _Fail  # `[,` `{"a":,` `[1,,2]`: not a repair we make
                        marks[-1] = len(out)
                        commas[-1] = pos
                        out.append(",")
                    elif c == ":":
                        if state != _OBJ_COLON:
                            raise _Fail
                        out.append(":")
                        states[-1] = _OBJ_VALUE
                    elif c == "}" or c == "]":
                        if self._close(c, state):
                            return self._outcome(pos + 1)
                    elif state in _VALUE_STATES:
                        if self.scan_budget > 0 and self._whole_value(pos):
                            pos = self.pos
                            continue
                        self._open(c)
                    else:
                        raise _Fail
                    pos += 1
                else:
                    self._other(kind, state)
                    pos = self.pos
        except _Cut:
            return self._truncate()

    def _outcome(self, end: int) -> RepairOutcome:
        return RepairOutcome("".join(self.out), end, tuple(self.fixes), end - self.start, self.tail)

    def _whole_value(self, pos: int) -> bool:
        """Let the C scanner take the container at ``pos`` if it is valid JSON already.

        Most of a repaired reply is valid; taking each valid nested value in one C call
        instead of token by token is what keeps repairs cheap. A failed attempt costs its
        scanning plus the decoder's line count, both charged to ``scan_budget`` (linear).
        """
        if not self.segment:
            self.segment = self.text[self.start : self.limit]
        try:
            _, end = _SCAN_ONCE(self.segment, pos - self.start)
        except json.JSONDecodeError as error:
            self.scan_budget -= 2 * error.pos
            return False
        except (StopIteration, ValueError, RecursionError, MemoryError):
            self.scan_budget -= 2 * (pos - self.start) + 64
            return False
        end += self.start
        self.out.append(self.text[pos:end])
        self._value_done()
        self.pos = end
        return True

    def _single_quoted(self, piece: str, pos: int) -> str:
        content = piece[1:-1]
        if '"' in content or "\\" in content:
            content = _REQUOTE.sub(_requote, content)
        self.fixes.append(Fix("single_quotes", _SINGLE_QUOTES_MESSAGE, pos))
        return '"' + content + '"'

    def _other(self, kind: int, state: int) -> None:
        """The rarer tokens: other quotes, numbers, words, comments; anything else fails."""
        if kind == 7:
            self._comment()
        elif kind == 8:
            raise _Fail
        elif state in _KEY_STATES:
            self._key(self.text[self.pos])
        elif state in _VALUE_STATES:
            self._value(self.text[self.pos])
        else:
            raise _Fail

    def _open(self, c: str) -> None:
        if len(self.kinds) >= MAX_DEPTH:
            raise _Fail
        self.out.append(c)
        self.kinds.append(c)
        self.states.append(_OBJ_FIRST if c == "{" else _ARR_FIRST)
        self.marks.append(len(self.out))
        self.commas.append(-1)

    def _close(self, c: str, state: int) -> bool:
        if (c == "}") != (self.kinds[-1] == "{"):
            raise _Fail
        if state == _OBJ_KEY or state == _ARR_VALUE:
            self.out[self.marks[-1]] = ""
            self.fixes.append(_trailing_comma(c, self.commas[-1]))
        elif state not in _CLOSABLE:
            raise _Fail  # `{"a": }` or `{"a" }`
        self.out.append(c)
        self.kinds.pop()
        self.states.pop()
        self.marks.pop()
        self.commas.pop()
        if not self.kinds:
            return True
        self._value_done()
        return False

    def _value_done(self) -> None:
        self.states[-1] = _OBJ_NEXT if self.kinds[-1] == "{" else _ARR_NEXT

    def _comment(self) -> None:
        text, pos = self.text, self.pos
        nxt = text[pos + 1 : pos + 2]
        if nxt == "/":
            end = text.find("\n", pos, self.limit)
            self.pos = self.limit if end < 0 else end + 1
            kind = "//"
        elif nxt == "*":
            end = text.find("*/", pos + 2, self.limit)
            self.pos = self.limit if end < 0 else end + 2
            kind = "/* */"
        elif pos + 1 >= self.limit:
            raise _Cut
        else:
            raise _Fail
        self.fixes.append(_comment(kind, pos))

    def _key(self, c: str) -> None:
        if c in _QUOTES:
            token, cut, fix = self._string(c)
            if cut:
                self.dropped = "a dangling key"
                raise _Cut
        else:
            word = _BARE_KEY.match(self.text, self.pos, self.limit)
            if word is None:
                raise _Fail
            after = _BLANK.match(self.text, word.end(), self.limit).end()
            if after >= self.limit:
                self.dropped = "a dangling key"
                raise _Cut
            if self.text[after] != ":":
                raise _Fail  # a bare word is a key only when a colon follows it
            token = '"' + word.group() + '"'
            fix = _unquoted_key(word.group(), self.pos)
            self.pos = word.end()
        if fix is not None:
            self.fixes.append(fix)
        self.out.append(token)
        self.states[-1] = _OBJ_COLON

    def _value(self, c: str) -> None:
        if c == '"' and self.detach_tail and self.limit - self.pos > LONG_TAIL and self._detach_tail():
            return
        if c in _QUOTES:
            token, cut, fix = self._string(c)
            if fix is not None:
                self.fixes.append(fix)
            self.closed_string = cut
        elif c == "-" or "0" <= c <= "9":
            token = self._number()
        elif c.isalpha() or c == "_" or c == "$":
            token = self._literal()
        else:
            raise _Fail
        self.out.append(token)
        self._value_done()

    def _detach_tail(self) -> bool:
        """Take the string at ``pos`` as the outcome's tail if it runs to the end unescaped.

        Its value is then its text as it is. Anything else goes read_quoted's ordinary way.
        """
        text, start = self.text, self.pos + 1
        if self.limit < len(text) or text.find('"', start) >= 0:
            return False  # cut before the end of the text (a fence), or the string closes
        if text.find("\\", start) >= 0:
            return False  # escapes to decode
        try:
            _SCAN_STRING(text, start, True)  # the C scanner's strict check, as json.loads does
        except json.JSONDecodeError as error:
            if not error.msg.startswith("Unterminated string"):
                return False  # a control character, which strict decoding refuses
        else:
            return False  # (it has no closing quote: the scanner always raises)
        self.tail = text[start:]
        self.out.append(_TAIL_PLACEHOLDER)
        self.closed_string = True
        self._value_done()
        self.pos = self.limit
        return True

    def _string(self, quote: str) -> tuple[str, bool, Fix | None]:
        token, end, cut, fix = read_quoted(self.text, self.pos, self.limit)
        self.pos = end
        return token, cut, fix

    def _number(self) -> str:
        found = _NUMBER.match(self.text, self.pos, self.limit)
        if found is None:
            if self.pos + 1 >= self.limit:
                self.dropped = "an incomplete value"
                raise _Cut  # a lone '-' at the very end
            raise _Fail
        token = found.group()
        if _JSON_NUMBER.fullmatch(token) is None:
            if found.end() >= self.limit:
                self.dropped = "an incomplete value"
                raise _Cut  # `1.` or `2e` cut off: drop it rather than guess digits
            raise _Fail
        self.pos = found.end()
        return token

    def _literal(self) -> str:
        found = _WORD.match(self.text, self.pos, self.limit)
        if found is None:
            raise _Fail
        word = found.group()
        if word in _LITERALS:
            token = _LITERALS[word]
        elif word in _PYTHON_LITERALS:
            token = _PYTHON_LITERALS[word]
            self.fixes.append(_python_literal(word, self.pos))
        elif found.end() >= self.limit:
            self.dropped = "an incomplete value"
            raise _Cut  # `tr` at the very end: a literal cut off mid-word
        else:
            raise _Fail  # a bare word as a value is prose, not JSON
        self.pos = found.end()
        return token

    def _truncate(self) -> RepairOutcome:
        """Close a value the text cut off: drop what is incomplete, close brackets in order."""
        if not self.kinds:
            raise _Fail
        notes: list[str] = []
        if self.closed_string:
            notes.append("closed an open string")
        state = self.states[-1]
        if self.dropped:
            notes.append("dropped " + self.dropped)
        elif state in (_OBJ_COLON, _OBJ_VALUE):
            notes.append("dropped a key with no value")
        elif state in (_OBJ_KEY, _ARR_VALUE):
            notes.append("dropped a trailing comma")
        if state in (_OBJ_KEY, _OBJ_COLON, _OBJ_VALUE, _ARR_VALUE):
            del self.out[self.marks[-1] :]  # back to before this member's comma (or the bracket)
        opened_objects = self.kinds.count("{")
        opened_arrays = len(self.kinds) - opened_objects
        closed = [f"{count} '{kind}'" for count, kind in ((opened_arrays, "["), (opened_objects, "{")) if count]
        notes.append("closed " + " and ".join(closed))
        self.out.extend("}" if kind == "{" else "]" for kind in reversed(self.kinds))
        cut_at = _end_of_content(self.text, self.start, self.limit)
        self.fixes.append(Fix("truncated", "the JSON is cut off: " + ", ".join(notes), cut_at))
        return self._outcome(cut_at)


def decode_repaired(outcome: RepairOutcome) -> Any:
    """``json.loads(outcome.json_text)``, with a detached tail put back (see :func:`repair_json`).

    The placeholder is found by walking the decoded value (linear); should the reply itself
    hold the placeholder's value, the tail is spliced into the text instead. Raises what
    ``json.loads`` raises.
    """
    assert outcome.json_text is not None
    value = json.loads(outcome.json_text)
    if outcome.tail is None:
        return value
    holders = _placeholder_holders(value)
    if len(holders) == 1:
        container, key = holders[0]
        container[key] = outcome.tail
        return value
    # Ours is the last occurrence: nothing but closing brackets follows the cut.
    head, _, rest = outcome.json_text.rpartition(_TAIL_PLACEHOLDER)
    return json.loads("".join((head, '"', outcome.tail, '"', rest)))


def _placeholder_holders(value: Any) -> list[tuple[Any, Any]]:
    """(container, key or index) of every string equal to the placeholder's value."""
    found: list[tuple[Any, Any]] = []
    pending = [value]
    while pending:
        container = pending.pop()
        pairs = container.items() if isinstance(container, dict) else enumerate(container)
        for key, item in pairs:
            if isinstance(item, str):
                if item == _TAIL_VALUE:
                    found.append((container, key))
            elif isinstance(item, dict | list):
                pending.append(item)
    return found


def read_quoted(text: str, pos: int, limit: int) -> tuple[str, int, bool, Fix | None]:
    """Read the string opening at ``text[pos]`` (any quote style) as a JSON string token.

    Returns the token, the offset after it, whether the text (``limit``) ended inside it,
    and the quote fix if the quotes were not plain double quotes. Raises :class:`_Fail`
    for a raw line break inside the string: that is not something we guess about.
    """
    quote = text[pos]
    closers, body, code = _QUOTES[quote]
    end = -1
    if quote == '"' or quote == "'":
        # The body ends at the closing quote or a line break, if no backslash comes first:
        # three memchr-speed finds instead of a regex scan (a cut-off string is megabytes).
        end = text.find(quote, pos + 1, limit)
        if end < 0:
            end = limit
        newline = text.find("\n", pos + 1, end)
        if newline >= 0:
            end = newline
        if text.find("\\", pos + 1, end) >= 0:
            end = -1  # escapes: the regex knows them
    if end < 0:
        end = body.match(text, pos + 1, limit).end()
    if end < limit and text[end] in closers:
        if code is None:  # a plain JSON string: the token is the text itself, in one copy
            return text[pos : end + 1], end + 1, False, None
        content, cut, after = text[pos + 1 : end], False, end + 1
    elif end >= limit or (text[end] == "\\" and end + 1 >= limit):
        if code is None:
            # A cut-off string may be most of the reply (megabytes): one copy of it, and `+=`
            # on the only reference to that copy lets CPython append the quote in place.
            token = text[pos : _partial_escape_end(text, pos + 1, end)]
            token += '"'
            return token, limit, True, None
        content, cut, after = _without_partial_escape(text[pos + 1 : end]), True, limit
    else:
        raise _Fail
    fix = None
    if code is not None:
        if '"' in content or "\\" in content:
            content = _REQUOTE.sub(_requote, content)
        fix = Fix(code, _SINGLE_QUOTES_MESSAGE if code == "single_quotes" else _SMART_QUOTES_MESSAGE, pos)
    return '"' + content + '"', after, cut, fix


def _end_of_content(text: str, start: int, limit: int) -> int:
    """Offset just past the last non-blank character of ``text[start:limit]``.

    Walks back in small chunks: no copy of the whole candidate, and no regex anchored at
    the end (searching for trailing blanks is quadratic on long runs of blanks).
    """
    end = limit
    while end > start:
        chunk = max(start, end - 256)
        kept = len(text[chunk:end].rstrip())
        if kept:
            return chunk + kept
        end = chunk
    return start


def _without_partial_escape(content: str) -> str:
    """Drop a ``\\u`` escape the cut left incomplete (``\\u00``); a lone backslash is already gone."""
    return content[: _partial_escape_end(content, 0, len(content))]


def _partial_escape_end(text: str, start: int, end: int) -> int:
    """Where ``text[start:end]`` ends once a ``\\u`` escape the cut left incomplete is dropped."""
    slash = text.rfind("\\", max(end - 5, start), end)
    if slash < 0 or slash + 1 >= end or text[slash + 1] != "u":
        return end
    digits = text[slash + 2 : end]
    if len(digits) >= 4 or any(c not in "0123456789abcdefABCDEF" for c in digits):
        return end
    run = slash - len(text[start:slash].rstrip("\\"))  # backslashes before this one
    return end if run % 2 else slash


def _trailing_comma(closer: str, offset: int) -> Fix:
    return Fix("trailing_comma", f"removed a trailing comma before '{closer}'", offset)


def _unquoted_key(word: str, offset: int) -> Fix:
    return Fix("unquoted_key", f"quoted the key {word!r}", offset)


def _python_literal(word: str, offset: int) -> Fix:
    return Fix("python_literal", f"Python {word} → {_PYTHON_LITERALS[word]}", offset)


def _comment(kind: str, offset: int) -> Fix:
    return Fix("comment", f"removed a {kind} comment", offset)


def _requote(found: re.Match[str]) -> str:
    token = found.group()
    if token == '"':
        return '\\"'
    if token == "\\'":
        return "'"
    return token
