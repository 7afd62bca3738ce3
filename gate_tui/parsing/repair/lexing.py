"""Lexing for the repair passes: how strings, numbers and words are read.

One notion of a string for the whole repair package: double, single and curly quotes,
escapes, and what a cut-off string leaves behind. Every pattern is possessive (nothing
can backtrack) and a string is found with ``str.find`` where possible, so reading stays
linear even when a string never closes.
"""

from __future__ import annotations

import json
import re

# The shared decoder (NaN, infinities and repeated keys watched) and the C scanner's entry
# points, re-exported: the repair passes import what they read strings with from here.
from gate_tui.parsing.repair.decoder import (
    DECODER,
    DUPLICATES_SEEN,
    SCAN_ONCE,
    SCAN_STRING,
    Duplicated,
    finite_float,
)
from gate_tui.parsing.repair.string_ends import (
    BLANK,
    comma_ends_string,
    comment_closes,
    first_on_its_line,
    line_ends_with_comma,
    next_closing,
)
from gate_tui.parsing.repair.vocabulary import (
    SINGLE_QUOTES_MESSAGE,
    SMART_QUOTES_MESSAGE,
    Fail,
    Fix,
)

# BLANK and comma_ends_string are also the repair passes' (re-exported here).
__all__ = [
    "BLANK",
    "DECODER",
    "DUPLICATES_SEEN",
    "SCAN_ONCE",
    "SCAN_STRING",
    "Duplicated",
    "comma_ends_string",
    "finite_float",
]


# One token after optional blanks, by group number: 1 a complete double-quoted string,
# 2 a complete single-quoted one, 3 punctuation (these three are handled inline in the loop),
# 4 any other quote (curly, or a string the text cuts off), 5 a number, 6 a word, 7 a
# comment, 8 anything else. Every repetition is possessive: nothing can backtrack.
TOKEN = re.compile(
    r"[ \t\r\n]*+(?:"
    r'("[^"\\\x00-\x1f]*+(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*+)*+")'
    r"|('[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')"
    r"|([{}\[\]:,])"
    r"|([\"'\u201c\u201d\u2018\u2019])"
    r"|([-0-9])"
    r"|([\w$])"
    r"|([/#])"
    r"|([\s\S]))?"
)


# How far one TOKEN match may read. A complete string is taken by the match itself; a quote
# whose string does not close within this many characters is read by read_quoted, which
# finds its end with str.find. Without the bound, a string that never closes (a cut-off
# reply) was scanned to the end twice by regular expressions, the costliest pass of all.
TOKEN_WINDOW = 4096


# A string the cut leaves open is detached from the repaired text beyond this length (see
# repair_json); the placeholder's value cannot come from a reply but by the \u0000 escape.
LONG_TAIL = 1 << 16


TAIL_VALUE = "\x00gate-tui: detached tail\x00"


TAIL_PLACEHOLDER = json.dumps(TAIL_VALUE)


_DQ_BODY = re.compile(r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+')


_SQ_BODY = re.compile(r"[^'\\\n]*+(?:\\.[^'\\\n]*+)*+")


_SMART_DQ_BODY = re.compile(r"[^\u201c\u201d\\\n]*+(?:\\.[^\u201c\u201d\\\n]*+)*+")


_SMART_SQ_BODY = re.compile(r"[^\u2018\u2019\\\n]*+(?:\\.[^\u2018\u2019\\\n]*+)*+")


NUMBER = re.compile(r"-?(?:Infinity|[0-9][0-9.eE+\-]*+)")


JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*+)(?:\.[0-9]++)?(?:[eE][+-]?[0-9]++)?|-?Infinity")


WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*+")


BARE_KEY = re.compile(r"[\w$][\w$\-]*+")


REQUOTE = re.compile(r'\\.|"', re.DOTALL)


# (closing characters, body pattern, repair code) for each kind of opening quote.
QUOTES: dict[str, tuple[str, re.Pattern[str], str | None]] = {
    '"': ('"', _DQ_BODY, None),
    "'": ("'", _SQ_BODY, "single_quotes"),
    "\u201c": ("\u201c\u201d", _SMART_DQ_BODY, "smart_quotes"),
    "\u201d": ("\u201c\u201d", _SMART_DQ_BODY, "smart_quotes"),
    "\u2018": ("\u2018\u2019", _SMART_SQ_BODY, "smart_quotes"),
    "\u2019": ("\u2018\u2019", _SMART_SQ_BODY, "smart_quotes"),
}


def read_quoted(text: str, pos: int, limit: int) -> tuple[str, int, bool, Fix | None]:
    """Read the string opening at ``text[pos]`` (any quote style) as a JSON string token.

    Returns the token, the offset after it, whether the text (``limit``) ended inside it,
    and the quote fix if the quotes were not plain double quotes. Raises :class:`Fail`
    for a raw line break inside the string: that is not something we guess about.
    """
    quote = text[pos]
    closers, body, code = QUOTES[quote]
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
        raise Fail
    fix = None
    if code is not None:
        if '"' in content or "\\" in content:
            content = REQUOTE.sub(requote, content)
        fix = Fix(
            code, SINGLE_QUOTES_MESSAGE if code == "single_quotes" else SMART_QUOTES_MESSAGE, pos
        )
    return '"' + content + '"', after, cut, fix


def end_of_content(text: str, start: int, limit: int) -> int:
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
    """Drop a ``\\u`` escape the cut left incomplete (``\\u00``); a lone backslash is already
    gone."""
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


def requote(found: re.Match[str]) -> str:
    token = found.group()
    if token == '"':
        return '\\"'
    if token == "\\'":
        return "'"
    return token


# --- where a string ends: the one notion of a string (the repair pass and the candidate scan)

_FOLLOWERS = frozenset(",}]):/#")
_BARE_KEY_AHEAD = re.compile(r"[\w$][\w$\-]*+[ \t]*+:")
_LITERAL_AHEAD = re.compile(r"(?:true|false|null|True|False|None)\b")
# Right after a closing quote, another string and a colon: the next key, its comma forgotten
# (`"According to the policy""ans": "YES"`).
_KEY_REST = re.compile(
    r'[^"\\\n]*+"[ \t]*+:'
)  # the rest of a key after its opening quote, then `:`
_KEY_AHEAD = re.compile(r'"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"[ \t]*+:')
# A body up to the next closing quote of its style (escapes skipped); line breaks are content.
BODIES = {
    '"': re.compile(r'[^"\\]*+(?:\\[\s\S][^"\\]*+)*+'),
    "'": re.compile(r"[^'\\]*+(?:\\[\s\S][^'\\]*+)*+"),
    "\u201c": re.compile(r"[^\u201c\u201d\\]*+(?:\\[\s\S][^\u201c\u201d\\]*+)*+"),
    "\u2018": re.compile(r"[^\u2018\u2019\\]*+(?:\\[\s\S][^\u2018\u2019\\]*+)*+"),
}
BODIES["\u201d"] = BODIES["\u201c"]
BODIES["\u2019"] = BODIES["\u2018"]
_CLOSERS = {
    '"': '"',
    "'": "'",
    "\u201c": "\u201c\u201d",
    "\u201d": "\u201c\u201d",
    "\u2018": "\u2018\u2019",
    "\u2019": "\u2018\u2019",
}


# How a string ends (the first field of locate_string's answer).
CLOSED, MISSING_QUOTE, CUT = range(3)


def locate_string(
    text: str, pos: int, limit: int, *, key: bool = False
) -> tuple[int, int, int, int]:
    """Where the string opening at ``text[pos]`` (any quote style) ends, as the repair pass reads
    it.

    Returns ``(how, end, after, inner)``: ``how`` is :data:`CLOSED` (``end`` is the
    closing quote, ``after`` the offset past it), :data:`MISSING_QUOTE` (the closing
    quote is missing before the ``,`` at ``end``; ``after == end``) or :data:`CUT` (the
    text, at ``limit``, ends inside it). ``inner`` is the first quote read as text, or -1.

    A quote closes its string only when what follows it (after blanks) can follow a value
    — ``,`` ``}`` ``]`` ``)`` ``:``, a comment, the end of the text, or on a new line the
    start of a member; otherwise it is text (an ``inner_quote`` guess). A key closes at
    its first closing quote. Raw line breaks are content. The candidate scan asks this
    too, so a brace, a fence or a tag inside a string is never structure for either.
    """
    quote = text[pos]
    body, closers = BODIES[quote], _CLOSERS[quote]
    start = at = pos + 1
    inner = -1
    while True:
        end = body.match(text, at, limit).end()
        if end >= limit or text[end] not in closers:
            return _unclosed(text, pos, limit, inner)
        if key or follows_a_value(text, end + 1, limit):
            return CLOSED, end, end + 1, inner
        if inner < 0 and first_on_its_line(text, start, end):
            comma = line_ends_with_comma(text, start, end)
            if comma >= 0:  # `"raw": "x,⏎  "next": …`: the quote closing "x" is missing
                return MISSING_QUOTE, comma, comma, -1
            if quote == '"' and _KEY_REST.match(text, end + 1, limit) is not None:
                # `"raw": "x⏎  "next": …`: the quote closing "x" (and a comma) are missing
                line_end = len(text[start : text.rfind("\n", start, end)].rstrip()) + start
                return MISSING_QUOTE, line_end, line_end, -1
        if (
            inner < 0
            and quote == '"'
            and text[end - 1] == ","
            and _KEY_REST.match(text, end + 1, limit) is not None
        ):
            # `"…falling back,"seed": 42`: the quote closing the value is missing before `,"key":`
            return MISSING_QUOTE, end - 1, end - 1, -1
        if inner < 0:
            inner = end
            if quote == '"':  # past the first inner quote, jump to the next quote that can close
                end = next_closing(text, end + 1, limit)
                if end < 0:
                    return _unclosed(text, pos, limit, inner)
                return CLOSED, end, end + 1, inner
        at = end + 1


def _unclosed(text: str, pos: int, limit: int, inner: int) -> tuple[int, int, int, int]:
    """A string the text ends inside: cut off, or one closing quote missing before ``,`` +
    newline."""
    newline = text.find("\n", pos, limit)
    if newline >= 0 and inner < 0:
        line_end = len(text[pos + 1 : newline].rstrip()) + pos + 1
        after = BLANK.match(text, newline, limit).end()
        if text[line_end - 1] == "," and after < limit and text[after] in "\"}]":
            return MISSING_QUOTE, line_end - 1, line_end - 1, -1
    return CUT, limit, limit, inner


_LITERAL_PAIRS = ("\\n", "\\t", "\\r")
_LITERAL_BLANKS = re.compile(r"(?:[ \t\r\n]|\\[ntr])*+")


def follows_a_value(text: str, at: int, limit: int) -> bool:
    """Whether a quote at ``at - 1`` can close its string: see :func:`locate_string`."""
    if at >= limit:
        return True
    c = text[at]
    if c in _FOLLOWERS:
        if c == ",":
            return comma_ends_string(text, at, limit)
        return c not in "/#" or comment_closes(text, at, limit)
    if c == '"':
        return _KEY_AHEAD.match(text, at, limit) is not None
    if c not in " \t\r\n" and not (c == "\\" and text.startswith(_LITERAL_PAIRS, at)):
        return False
    # Blanks, and literal escape pairs between tokens (`"x" \n}`: see the tokenizer).
    after = _LITERAL_BLANKS.match(text, at, limit).end()
    if after >= limit:
        return True
    c = text[after]
    if c in _FOLLOWERS:
        if c == ",":
            return comma_ends_string(text, after, limit)
        return c not in "/#" or comment_closes(text, after, limit)
    if "\n" not in text[at:after] and "\\n" not in text[at:after]:
        return c == '"' and _KEY_AHEAD.match(text, after, limit) is not None
    # On a new line: the next member or element (a missing comma is repaired later).
    if c in "\"'\u201c\u2018{[-0123456789":
        return True
    return (
        _BARE_KEY_AHEAD.match(text, after, limit) is not None
        or _LITERAL_AHEAD.match(text, after, limit) is not None
    )
