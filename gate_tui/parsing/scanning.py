"""Linear-time scanners for model replies: thinking blocks, code fences and brackets.

This module only *locates* things; it never decodes JSON. It is separate from
:mod:`gate_tui.parsing.extraction` (which decides which candidate wins) so that the one piece
of per-character Python work in the package is in one place and can be reasoned
about on its own: every function here is linear in the length of the text.

How linearity is kept:

* jumps between interesting characters are made by precompiled regular expressions
  that are single character classes or possessive runs (``*+``), so they cannot
  backtrack; the Python loop runs once per structural character, not per character;
* a thinking tag's closing tag is searched once; a failed search is remembered, so
  a reply made of thousands of unclosed ``<thinking>`` tags costs one search;
* strings (any quote style, raw line breaks, inner quotes) end where the repair pass says
  (:func:`~gate_tui.parsing.repair.lexing.locate_string`); a single or curly quote opens
  one only where a token starts, and the walk back to see that covers each blank run once;
* nesting deeper than :data:`MAX_DEPTH` stops the scan with an error instead of
  growing a stack (and, later, ``json.loads`` hitting ``RecursionError``).

Offsets are always offsets into the original text: nothing is stripped or copied.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from gate_tui.limits import MAX_DEPTH
from gate_tui.parsing.markers import (
    FENCE_RUN,
    THINK_TAG,
    find_closing_tag,
    tag_name,
)
from gate_tui.parsing.repair.closers import mistyped_closer, next_row_ahead
from gate_tui.parsing.repair.lexing import BODIES, locate_string

"""Deepest bracket nesting the scanner accepts; real gate states are 3 or 4 deep."""


# What the bracket scan stops at. Outside any bracket, `"` is prose (`5" screen`) and not a
# string; `<` may start a thinking tag. Inside brackets, strings matter and tags do not.
# Single character classes: the regex engine's fast search (an alternation is ~9× slower).
_OUTER = re.compile(r"[{\[<`~]")
_OUTER_IN_FENCE = re.compile(r"[{\[`~]")
_INNER = re.compile(r'[{}\[\]"`~\'\u201c\u201d\u2018\u2019]')
# Beyond this depth, runs of openers or closers are taken in one step: `{{{{…}}}}` is then
# not a Python iteration per character. Real gate states never get near it.
_RUN_DEPTH = 16
_OPENERS = re.compile(r"[{\[]++")
_CLOSERS = {"}": re.compile(r"\}++"), "]": re.compile(r"\]++")}
# Strings are read as the repair pass reads them (repair.lexing.locate_string: any quote
# style, raw line breaks, inner quotes that cannot close), so a fence, a brace or a tag
# quoted in a value is never a candidate. The common case inline: a double-quoted body up
# to its quote, closed when `,` `:` `}` or `]` follows at once.
_STRING_BODY = BODIES['"']
_CLOSED_AT_ONCE = frozenset(",:}]")
# A single or curly quote opens a string only where a token starts: after one of these
# (or on a new line); elsewhere it is text (`don't` in an unquoted value).
_TOKEN_BEFORE = frozenset("{[,:(\"'\u201c\u201d\u2018\u2019")
_OTHER_QUOTES = frozenset("'\u201c\u201d\u2018\u2019")
# A fence's language tag (json, py, c++, ...): the body starts after it, even on the same line.
_INFO = re.compile(r"[ \t]*+[\w+.#-]*+")
_SPACE = re.compile(r"\s*+")


"""A stretch of thinking: ``(start, end, soft)``, ``[start, end)``; ``soft`` when a tag was
left unclosed. A plain tuple, not a named one: building a ``NamedTuple`` costs a Python-level
call, and every reply with a thinking block builds one on the fast path."""


@dataclass
class ScanResult:
    """Everything the bracket scan located; all offsets index the original text.

    ``objects``: outermost balanced ``{…}`` pairs as ``(start, end, fence)``, end exclusive,
    fence = index into ``fences`` or -1. ``arrays``: outermost balanced ``[…]`` pairs that
    are not inside a balanced object, same shape. ``cut_objects`` / ``cut_arrays``: openers
    still open when the text or a fence ended, as ``(start, limit, fence)``. ``boundaries``:
    fence markers (no structure spans one). ``leads``: offsets where a value would be the
    whole reply (a fence body's lead is the first non-blank after ``fences[k][0]``).
    """

    objects: list[tuple[int, int, int]] = field(default_factory=list)
    arrays: list[tuple[int, int, int]] = field(default_factory=list)
    cut_objects: list[tuple[int, int, int]] = field(default_factory=list)
    cut_arrays: list[tuple[int, int, int]] = field(default_factory=list)
    fences: list[tuple[int, int]] = field(default_factory=list)
    boundaries: list[int] = field(default_factory=list)
    leads: list[int] = field(default_factory=list)
    depth_error: int | None = None
    soft_thinking_used: bool = False


def scan(text: str, *, soft_thinking: bool = True) -> ScanResult:
    """One balanced-bracket pass over ``text`` that respects JSON strings, fences and thinking.

    With ``soft_thinking`` an unclosed opening tag hides the rest of the text and an
    orphan closing tag hides what came before it; without it both are plain text
    (the caller's fallback when the first pass found nothing).
    """
    return _Scanner(text, soft_thinking).run()


class _Scanner:
    """The state of one :func:`scan`; the hot loop is :meth:`run`, rare events are methods."""

    def __init__(self, text: str, soft_thinking: bool) -> None:
        self.text = text
        self.n = len(text)
        self.soft = soft_thinking
        self.result = ScanResult()
        self.kinds: list[str] = []
        self.starts: list[int] = []
        self.open_objects = 0
        self.fence: tuple[str, int, int] | None = None  # (char, marker length, body start)
        self.fence_index = -1  # index the open fence will have in result.fences, or -1
        self.lead_open = True  # nothing but blanks and thinking seen so far at the top level
        self.outside_start = 0  # where the current stretch outside thinking began
        self.no_close_after: dict[str, int] = {}

    def run(self) -> ScanResult:
        text, n = self.text, self.n
        kinds, starts = self.kinds, self.starts
        objects = self.result.objects
        inner, string_rest = _INNER.search, _STRING_BODY.match
        pos = 0
        while pos < n:
            if kinds:
                hit = inner(text, pos)
            else:
                hit = (_OUTER if self.fence is None else _OUTER_IN_FENCE).search(text, pos)
                if hit is not None and self.lead_open:
                    self._check_lead_gap(pos, hit.start())
            if hit is None:
                break
            i = hit.start()
            c = text[i]
            if c == '"':
                end = string_rest(text, i + 1).end()
                if end + 1 < n and text[end + 1] not in _CLOSED_AT_ONCE:
                    end = (
                        locate_string(text, i, n)[2] - 1
                    )  # blanks or an inner quote: ask the lexer
                pos = end + 1
            elif c in _OTHER_QUOTES:
                pos = locate_string(text, i, n)[2] if _starts_token(text, i, starts[-1]) else i + 1
            elif c == "}" and kinds[-1] == "{" and len(kinds) < _RUN_DEPTH:
                # The commonest closer, inlined (see _close, which also takes runs of closers).
                kinds.pop()
                start = starts.pop()
                self.open_objects -= 1
                while objects and objects[-1][0] > start:  # pairs inside this one are not outermost
                    objects.pop()
                objects.append((start, i + 1, self.fence_index))
                pos = i + 1
            elif c == "{" or c == "[":
                if self.lead_open:
                    self.result.leads.append(i)
                    self.lead_open = False
                if len(kinds) < _RUN_DEPTH:
                    kinds.append(c)
                    starts.append(i)
                    if c == "{":
                        self.open_objects += 1
                    pos = i + 1
                    continue
                room = MAX_DEPTH - len(kinds)
                pos = _OPENERS.match(text, i, i + room + 1).end()  # the whole run at once
                if pos - i > room:
                    self.result.depth_error = i + room
                    return self._finish()
                kinds.extend(text[i:pos])
                starts.extend(range(i, pos))
                self.open_objects += text.count("{", i, pos)
            elif c == "}" or c == "]":
                pos = self._close(c, i)
            elif c == "<":
                pos = self._tag(i)
            else:
                pos = self._fence_marker(i, c)
        return self._finish()

    def _check_lead_gap(self, pos: int, at: int) -> None:
        if pos < at and not text_is_blank(self.text, pos, at):
            self.lead_open = False

    def _close(self, c: str, i: int) -> int:
        """Close the bracket(s) at ``i``; returns where scanning goes on.

        A run of one closer kind that matches the top of the stack closes in one step
        (``}}}}`` after ``{{{{``): only the outermost pair is an outermost candidate.
        """
        kinds, starts = self.kinds, self.starts
        want = "{" if c == "}" else "["
        if (
            c == "]"
            and kinds[-1] == "["
            and len(kinds) > 1
            and kinds[-2] == "{"
            and next_row_ahead(self.text, i + 1, len(self.text))
        ):
            # A row whose `[` was forgotten closes here, not the list (as the repair pass reads it).
            return i + 1
        if kinds[-1] != want:
            same = self.open_objects if want == "{" else len(kinds) - self.open_objects
            if not same:
                return i + 1  # a stray closer: prose, not structure
            if mistyped_closer(self.text, i + 1, len(self.text), kinds, want):
                want = kinds[-1]  # a mistyped closer, as the repair pass reads it
                c = "}" if want == "{" else "]"
            while kinds[-1] != want:  # openers the closer skips over were never closed
                if kinds.pop() == "{":
                    self.open_objects -= 1
                starts.pop()
        count = 1
        if len(kinds) >= _RUN_DEPTH and self.text.startswith(c, i + 1):
            run = _CLOSERS[c].match(self.text, i).end() - i
            tail = "".join(kinds[-run:])
            count = len(tail) - len(tail.rstrip(want))  # how many top openers this run closes
        start = starts[-count]
        del kinds[-count:]
        del starts[-count:]
        records = self.result.objects
        if want == "{":
            self.open_objects -= count
        else:
            records = self.result.arrays
        while records and records[-1][0] > start:
            records.pop()
        records.append((start, i + count, self.fence_index))
        return i + count

    def _tag(self, i: int) -> int:
        """Handle a `<` at the top level: skip a thinking block, or treat it as prose."""
        tag = THINK_TAG.match(self.text, i)
        if tag is None:
            self.lead_open = False
            return i + 1
        if tag.group(1):
            if not self.soft:
                self.lead_open = False
                return tag.end()
            # An orphan closing tag: everything since the last block was thinking.
            self.result.soft_thinking_used = True
            self._forget_since(self.outside_start)
            self.lead_open = True
            self.outside_start = tag.end()
            return tag.end()
        end = self._closing_tag_end(tag_name(tag), tag.end())
        if end is not None:
            self.outside_start = end
            return end
        if self.soft:
            self.result.soft_thinking_used = True
            return self.n  # an unclosed tag: the rest of the reply is thinking
        self.lead_open = False
        return tag.end()

    def _closing_tag_end(self, name: str, start: int) -> int | None:
        failed_from = self.no_close_after.get(name)
        if failed_from is not None and start >= failed_from:
            return None  # an earlier search from before here found no closing tag
        close = find_closing_tag(self.text, name, start)
        if close < 0:
            self.no_close_after[name] = start
            return None
        return close

    def _forget_since(self, start: int) -> None:
        """Drop everything recorded at or after ``start`` (it turned out to be thinking)."""
        result = self.result
        for records in (
            result.objects,
            result.arrays,
            result.cut_objects,
            result.cut_arrays,
            result.fences,
        ):
            while records and records[-1][0] >= start:
                records.pop()
        for offsets in (result.boundaries, result.leads):
            while offsets and offsets[-1] >= start:
                offsets.pop()

    def _fence_marker(self, i: int, c: str) -> int:
        """Open or close a code fence at a run of backticks or tildes outside any string."""
        run_end = FENCE_RUN[c].match(self.text, i).end()
        length = run_end - i
        self.lead_open = False
        if length < 3:
            return run_end
        fence = self.fence
        quote = self.text[i - 1] if i else ""
        if fence is None and quote in ("'", '"') and self.text.startswith(quote, run_end):
            return run_end  # `"```"`: a quoted marker is text (a JSON string cut loose), no fence
        if fence is None:
            self._abandon(i)
            self.result.boundaries.append(i)
            body = _INFO.match(self.text, run_end).end()
            self.fence = (c, length, body)
            self.fence_index = len(self.result.fences)
            return body
        if c == fence[0] and length >= fence[1]:
            self._abandon(i)
            self.result.boundaries.append(i)
            self.result.fences.append((fence[2], i))
            self.fence = None
            self.fence_index = -1
        return run_end

    def _abandon(self, limit: int) -> None:
        """A fence marker or the end of the text cuts every open structure at ``limit``.

        The bottom-most opener (if an array) and the three bottom-most objects become
        candidates for the truncation repair; more would only repeat the same text.
        """
        kinds, starts = self.kinds, self.starts
        if not kinds:
            return
        result, fence = self.result, self.fence_index
        if kinds[0] == "[":
            result.cut_arrays.append((starts[0], limit, fence))
        index = -1
        for _ in range(self.open_objects if self.open_objects < 3 else 3):
            index = kinds.index("{", index + 1)
            start = starts[index]
            if self.text.find(":", start, limit) >= 0:  # without a key it could only become `{}`
                result.cut_objects.append((start, limit, fence))
        kinds.clear()
        starts.clear()
        self.open_objects = 0

    def _finish(self) -> ScanResult:
        if self.result.depth_error is None:
            self._abandon(self.n)
        if self.fence is not None:  # an unterminated fence runs to the end of the text
            self.result.fences.append((self.fence[2], self.n))
            self.fence = None
        self._drop_arrays_inside_objects()
        return self.result

    def _drop_arrays_inside_objects(self) -> None:
        """Arrays were kept outermost among arrays only; those inside a balanced object go."""
        objects, arrays = self.result.objects, self.result.arrays
        if not objects or not arrays:
            return
        starts = [start for start, _, _ in objects]
        kept = []
        for array in arrays:
            index = bisect_right(starts, array[0]) - 1
            if index < 0 or array[0] >= objects[index][1]:
                kept.append(array)
        self.result.arrays = kept


def _starts_token(text: str, at: int, floor: int) -> bool:
    """Whether a quote at ``at`` stands where a token starts: the last non-blank before it
    (at or after the innermost opener, ``floor``) is an opener, ``,``, ``:`` or a quote, or a
    line break comes between. Walks back over blanks in chunks (each blank run once)."""
    before = text[at - 1]
    if before not in " \t\r\n":
        return before in _TOKEN_BEFORE
    end = at
    while end > floor:
        chunk = max(floor, end - 64)
        kept = len(text[chunk:end].rstrip(" \t\r\n"))
        if kept:
            last = chunk + kept - 1
            return text[last] in _TOKEN_BEFORE or text.find("\n", last, at) >= 0
        end = chunk
    return True


def first_non_blank(text: str, start: int) -> int:
    """Offset of the first non-whitespace character at or after ``start`` (or the end)."""
    return _SPACE.match(text, start).end()


def text_is_blank(text: str, start: int, end: int) -> bool:
    """True when ``text[start:end]`` is empty or whitespace only."""
    return start >= end or _SPACE.match(text, start, end).end() >= end
