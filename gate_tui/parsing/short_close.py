"""An object that closes while its members go on: read whole with a guess, or refused.

``{"name": "old man "}", "age": 14}`` (the name really holds ``"}``) decodes strictly to
``{"name": "old man "}`` and stops; ``{"heading": "x"}\\n"items": [...]`` closes one line
too early. Either way what follows the object reads as more of its members, and returning
the object as it closed would drop them without a word. :func:`judge_close` says which:

- a quote, then the rest of a string and a comma or the last closers: the quote before the
  closer was text (an ``inner_quote`` guess). The object is read again with that string
  running to the later quote; when the result decodes, it is the answer;
- a comma and a member, or a quoted key and a colon: refused, with the position.
"""

from __future__ import annotations

import json
import re
from typing import Any

from gate_tui.parsing.repair.closers import continues_container
from gate_tui.parsing.repair.lexing import BLANK
from gate_tui.parsing.repair.vocabulary import GUESS_FIX_MESSAGES, Fix

_MEMBER = r"""(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+'|[\w$][\w$\-]*+)[ \t]*+:"""
# A quoted key and a colon: a member written after the object closed (its comma lost too).
_KEY_AFTER = re.compile(r"""(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|'[^'\\\n]*+')[ \t]*+:""")
# After the closer: the rest of the string whose quote before the closer was text (no opener
# in it: prose then another object is not a string), its real closing quote, then a comma
# and a member, or the closers that end the value. Lazy, on one line of at most 4 KB.
_STRING_GOES_ON = re.compile(
    r'([^{\[\n]*?)(?<!\\)"(?=[ \t\r\n]*+(?:,[ \t\r\n]*+'
    + _MEMBER
    + r"|[}\]][ \t\r\n}\]]*+(?:\Z|\n|```)))"
)
_DECODER = json.JSONDecoder()
_LOOKAHEAD = 4096
_CLOSER_RUN = re.compile(r"(?:[ \t\r\n]*+[}\]]){0,64}")


def judge_close(text: str, start: int, end: int) -> tuple[str, Any, Fix | None, int]:
    """What follows the object ``text[start:end]`` (decoded as closing at ``end``) says.

    Returns ``("ok", None, None, -1)`` when nothing that goes on with it follows;
    ``("whole", value, fix, new_end)`` when it reads whole with an inner quote taken as
    text; ``("refuse", None, None, -1)`` when its members go on and it cannot be read whole.
    """
    after = BLANK.match(text, end).end()
    if after >= len(text):
        return _OK
    c = text[after]
    # Only when the object's last value is a string can its closer be inside that string.
    goes_on = None
    if _ends_in_string(text, start, end) >= 0:
        # On the object's last line only, and at most a few KB of it: one bounded match per reply.
        line_end = text.find("\n", end, end + _LOOKAHEAD)
        goes_on = _STRING_GOES_ON.match(
            text, end, line_end if line_end >= 0 else min(len(text), end + _LOOKAHEAD)
        )
        if goes_on is not None:
            whole = _inner_quote_whole(text, start, end, goes_on)
            return whole if whole is not None else _REFUSE
    if c not in _MAY_GO_ON:
        return _OK  # prose, a fence, another object: nothing of this one
    # Closers first (a repair that closed too early leaves the real ones after it), then a
    # comma and a member: `{"a": [{"b": 1]]}}, "c": 2}`.
    closers = _CLOSER_RUN.match(text, end).end()
    if continues_container(text, closers, len(text), "{"):
        return _REFUSE
    if c in "\"'" and _KEY_AFTER.match(text, after) is not None:
        return _REFUSE
    return _OK


_OK: tuple[str, Any, Fix | None, int] = ("ok", None, None, -1)
_REFUSE: tuple[str, Any, Fix | None, int] = ("refuse", None, None, -1)
_MAY_GO_ON = frozenset(",}]\"'")


def comma_follows(text: str, end: int) -> bool:
    """Whether a comma follows ``end`` after blanks and closers: the value goes on past them."""
    after = _CLOSER_RUN.match(text, end).end()
    after = BLANK.match(text, after).end()
    return after < len(text) and text[after] == ","


def closer_follows(text: str, end: int) -> bool:
    """Whether a ``}`` or ``]`` follows ``end`` (after blanks): a closer the value left over."""
    after = BLANK.match(text, end).end()
    return after < len(text) and text[after] in "}]"


def _ends_in_string(text: str, start: int, end: int) -> int:
    """The closing quote of the string right before the closer at ``end - 1``, or -1."""
    quote = end - 2
    while quote > start and text[quote] in " \t\r\n":
        quote -= 1
    return quote if quote > start and text[quote] == '"' else -1


def _inner_quote_whole(
    text: str, start: int, end: int, goes_on: re.Match[str]
) -> tuple[str, Any, Fix, int] | None:
    """The object read again with the string before its closer running to the next closing
    quote (``"old man "}"``), when that decodes strictly to an object; else None."""
    quote = _ends_in_string(text, start, end)
    if quote < 0:
        return None
    opening = _opening_quote(text, start, quote)
    if opening < 0:
        return None
    body = text[opening + 1 : goes_on.end() - 1]
    # The inner quotes of the body become escaped; the rest of the object is kept as written.
    escaped = re.sub(r'(?<!\\)"', r'\\"', body)
    rebuilt = text[start : opening + 1] + escaped + text[goes_on.end() - 1 :]
    try:
        value, used = _DECODER.raw_decode(rebuilt)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    new_end = start + used - (len(escaped) - len(body))
    return "whole", value, Fix("inner_quote", GUESS_FIX_MESSAGES["inner_quote"], quote), new_end


def _opening_quote(text: str, start: int, closing: int) -> int:
    """The opening quote of the (strictly decoded) string closing at ``closing``, or -1."""
    at = closing
    while True:
        at = text.rfind('"', start, at)
        if at < 0:
            return -1
        slashes = 0
        while text[at - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            return at
