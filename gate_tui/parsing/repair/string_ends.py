"""Whether a quote closes its string, judged by what follows it on its line: a comma then
prose, a comment marker, a line that ends with a comma. Each look is bounded (a few KB of
one line), so each quote costs O(1) whatever the reply's size."""

from __future__ import annotations

import re

BLANK = re.compile(r"[ \t\r\n]*+")
# A double quote followed by what can follow a value (see follows_a_value), as one pattern.
DQ_CLOSING = re.compile(
    r'"(?=[ \t\r\n]*+(?:[,}\])\:/#]|\Z)'
    r"|[ \t\r]*+\n[ "
    r"\t\r\n]*+(?:[\"'\u201c\u2018{\[\-0-9]|(?:true|false|null|True|False|None)\b|[\w$][\w$\-]*+[ "
    r"\t]*+:))"
    r'|"(?=[ \t]*+"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"[ \t]*+:)'
)


# Within a line after a comment marker or a comma: the first quote (escapes skipped), when it
# closes a string for sure (`", "b"`, `"}`): the text up to it can be the string's.
_STRING_GOES_ON = re.compile(r'[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"[ \t]*+[,}\]:]')
_COMMENT_LOOKAHEAD = 4096  # characters looked at: bounded, so each marker costs O(1)


# After a comma, on its line: what starts a member or an element (or a line break, the end).
_AFTER_COMMA_STARTS = re.compile(
    r"""[ \t]*+(?:[\r\n"'{\[\-0-9}\]\u201c\u2018]|\Z|\\[ntr]|[\w$][\w$\-]*+"?[ \t]*+:"""
    r"""|[\w$.+\-]++[ \t]*+(?:[,}\]\r\n]|\\[ntr]))"""
)


def comma_ends_string(text: str, at: int, limit: int) -> bool:
    """Whether a quote followed by the ``,`` at ``at`` closes its string.

    It does, unless prose follows the comma on its line — a word that starts no member or
    element — and a quote that closes a string for sure comes later on that line: then the
    quote and the comma were text (``"the "dictator", waiting on it."``)."""
    if _AFTER_COMMA_STARTS.match(text, at + 1, limit) is not None:
        return True
    return _STRING_GOES_ON.match(text, at, min(limit, at + _COMMENT_LOOKAHEAD)) is None


def comment_closes(text: str, at: int, limit: int) -> bool:
    """Whether ``#`` / ``//`` / ``/*`` at ``at``, right after a quote, starts a comment (the
    quote closed its string) rather than going on inside the string.

    A ``/`` that opens no comment is text. A marker followed on its line by a quote that
    closes a string for sure (``"the "q" // y", "b"``) is inside what can be a string: a
    comment there would delete text and take a value short, so it is never one."""
    if text[at] == "/" and not text.startswith(("//", "/*"), at):
        return False
    stop = min(limit, at + _COMMENT_LOOKAHEAD)
    goes_on = _STRING_GOES_ON.match(text, at, stop)
    if goes_on is None:
        return True
    return text.startswith("/*", at) and 0 <= text.find("*/", at + 2, goes_on.end()) < goes_on.end()


def next_closing(text: str, at: int, limit: int) -> int:
    """The next unescaped ``"`` from ``at`` that :func:`follows_a_value` accepts, or -1.

    One regex search per candidate instead of a Python step per inner quote: a megabyte
    of inner quotes is one search."""
    while True:
        found = DQ_CLOSING.search(text, at, limit)
        if found is None:
            return -1
        quote = found.start()
        slashes = (
            quote - len(text[max(at, quote - 256) : quote].rstrip("\\")) - max(at, quote - 256)
        )
        if slashes % 2 == 0:
            after = BLANK.match(text, quote + 1, limit).end()
            judge = comma_ends_string if after < limit and text[after] == "," else comment_closes
            if after >= limit or text[after] not in "/#," or judge(text, after, limit):
                return quote
        at = quote + 1


def first_on_its_line(text: str, start: int, at: int) -> bool:
    newline = text.rfind("\n", start, at)
    return newline >= 0 and not text[newline + 1 : at].strip()


def line_ends_with_comma(text: str, start: int, at: int) -> int:
    """Offset of the ``,`` ending the line before ``at`` (inside the string), or -1."""
    newline = text.rfind("\n", start, at)
    before = text[start:newline].rstrip()
    return start + len(before) - 1 if before.endswith(",") else -1
