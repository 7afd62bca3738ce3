"""Inner quotes the C decoder stumbles on, fixed in the error-driven rounds.

``"raw": "the "gold" table"`` makes the decoder read the string ``"the "`` and then fail
on ``gold`` ("Expecting ',' delimiter"). The tokenizer would read that string with
:func:`~gate_tui.parsing.repair.scalars.read_string` (a quote closes a string only when
what can follow a value follows it): so do the rounds, on the same string, and get the
same token and the same fixes — without tokenizing the rest of the reply in Python.

Why the string is the tokenizer's: every string the decoder read before the failure was
followed by ``,`` ``}`` ``]`` or ``:``, where the tokenizer closes a string too, so both
agree on where each string starts; the one that failed is re-read from its opening quote.
"""

from __future__ import annotations

import re

from gate_tui.parsing.repair.lexing import BLANK, CLOSED, locate_string
from gate_tui.parsing.repair.scalars import read_string
from gate_tui.parsing.repair.vocabulary import GUESS_FIX_MESSAGES, Fix

_CONTROL = re.compile(r"[\x00-\x1f]")
INNER_QUOTE_MESSAGE = GUESS_FIX_MESSAGES["inner_quote"]



def inner_quote_edit(
    current: str, at: int, message: str, floor: int
) -> tuple[int, int, str, list[Fix]] | None:
    """The edit re-reading the value string before the decoder's failure at ``at``:
    (start, end, token, fixes), offsets in ``current``; None when the failure is not an
    inner quote of a string opening after ``floor`` (where the previous round's defect was:
    an earlier edit inside the string would blur its fixes' offsets).
    """
    if not message.startswith("Expecting ',' delimiter"):
        return None
    quote = at - 1
    while quote > 0 and current[quote] in " \t\r\n":
        quote -= 1
    if quote <= 0 or current[quote] != '"':
        return None
    opening = _opening_quote(current, quote)
    if opening <= floor:
        return None
    limit = len(current)
    how, close, after, inner = locate_string(current, opening, limit)
    # Only a string closed further on, its first inner quote where the decoder stopped: a
    # missing quote or a cut is the tokenizer's to judge, with the whole reply in view.
    if how != CLOSED or inner != quote or BLANK.match(current, after).end() >= limit:
        return None
    body = current[opening + 1 : close]
    if "\\" in body or _CONTROL.search(body) is not None:
        fixes: list[Fix] = []  # escapes or control characters: the reader's own encoding
        token, end, _cut = read_string(current, opening, limit, fixes)
        return opening, end, token, fixes
    # What read_string makes of a body with neither (the same token, the same one fix).
    return (
        opening,
        after,
        '"' + body.replace('"', '\\"') + '"',
        [Fix("inner_quote", INNER_QUOTE_MESSAGE, inner)],
    )


def _opening_quote(current: str, closing: int) -> int:
    """The opening quote of the string the decoder read up to ``closing`` (its body holds
    only escaped quotes), or -1."""
    at = closing
    while True:
        at = current.rfind('"', 0, at)
        if at < 0:
            return -1
        slashes = 0
        while at - slashes > 0 and current[at - slashes - 1] == "\\":
            slashes += 1
        if slashes % 2 == 0:
            return at


# --- the one pass (see onepass.py): inner quotes found in the split of a reply by `"`

# A string's closing quote (the sentinel standing for it) followed, after spaces, by text:
# a between part that cannot follow a value, so the quote was text (``"the "gold" table"``).
ODD_AFTER_STRING = re.compile("\ue000[ \t]*+[^\ue000 \t\r\n,:}\\]]")
_CLOSING = frozenset(",}]")
_NOT_TEXT = frozenset(",}]):/#")  # what makes the tokenizer close a string at a quote (or unsure)
_BLANKS = re.compile(r"[ \t]*+")
_CLOSER_AHEAD = re.compile(r"[ \t\r\n]*+[,}\]]")
_UNSURE = _NOT_TEXT | {" ", "\t", ""}  # a first character that needs a closer look


def merge_inner_quotes(
    parts: list[str], joined: str, first: int, max_merges: int, controls: bool
) -> list[tuple[int, int, int]] | None:
    """Merge each value string holding an even number of inner quotes, as the tokenizer reads it.

    ``parts`` is the reply split by ``"`` (no backslash anywhere: every part at an odd
    index is a string's text), ``joined`` the parts between strings joined by sentinels
    (``\ue000``, one per string), ``first`` where the first spot is in it. A merge
    replaces the string's parts by its whole text (``parts`` is changed in place); the
    answer is, per merge, the string's index and its sentinel's position in ``joined``
    once merged, and the length of its text before the first inner quote (the caller
    makes the edit once its offset is known); None beyond ``max_merges`` (a hostile
    reply: the others count it at C speed).

    A string holding a control character is not merged when ``controls`` (the caller then
    escapes raw control characters: never twice in one string); otherwise it is not looked
    for: merged, the string's raw character makes the strict decode fail, and the caller
    runs again with ``controls``.

    Only a reading that is certainly the tokenizer's is merged (see
    :func:`~gate_tui.parsing.repair.lexing.locate_string`): a string after a ``:``, no
    control character in it, each quote inside followed by text, the last one by ``,`` ``}``
    or ``]``. Anything else is left: the decode then fails on it (text after a string is
    never JSON) and the other paths decide; a spot after the value does not matter.
    """
    found: list[tuple[int, int, int]] = []
    merged: list[str] = []  # the parts once merged, built once (no list shift per merge)
    index = seen = last = 0  # the string whose sentinel is at `seen`; parts copied so far
    # A string opening before `skip` is read, if at all, up to where an earlier reading got:
    # it would stop where that one stopped (each walk step looks at the parts alone), so
    # it is not walked again — linear, however many strings a hostile reply chains.
    skip = 0
    removed = gone = 0  # parts and joined characters the merges so far took out
    for odd in ODD_AFTER_STRING.finditer(joined, first):
        sentinel = odd.start()
        index += joined.count("\ue000", seen, sentinel)
        seen = sentinel
        opening = 2 * index + 1
        if opening < skip:
            continue  # inside a string merged already, or one read as far already
        end = _merged_end(parts, opening)
        if end < 0:
            skip = -end
            continue
        skip = end
        text = '"'.join(parts[opening:end])
        if (
            controls and not text.isprintable() and _CONTROL.search(text) is not None
        ):  # (isprintable: C speed)
            # A line break or another control character: the tokenizer looks further (a
            # quote missing at the end of a line, an escape to record); theirs to judge.
            continue
        if len(found) >= max_merges:
            return None
        found.append((index - removed // 2, sentinel - gone, len(parts[opening])))
        # The text between the inner quotes, and the sentinels of the strings after it, leave
        # `joined`.
        gone += (
            len(parts[opening + 1])
            if end - opening == 3
            else sum(map(len, parts[opening + 1 : end : 2]))
        ) + (end - opening) // 2
        removed += end - opening - 1
        merged += parts[last:opening]
        merged.append(text)
        last = end
    if found:
        merged += parts[last:]
        parts[:] = merged
    return found


def _merged_end(parts: list[str], opening: int) -> int:
    """The index past the last part of the string whose text starts at ``parts[opening]``,
    when it holds inner quotes the tokenizer reads as text; when unsure, minus the index
    where the reading stopped (a string opening before it stops there too). (Control
    characters are the caller's to look for, once the parts are joined.)"""
    before = parts[opening - 1]
    if not (before.endswith(": ") or before.rstrip(" \t\r\n").endswith(":")) or parts[
        opening
    ].endswith(","):
        return -1  # not a value after a key; or `"…falling back,"seed": 42`, maybe a missing quote
    at = opening + 1
    last = len(parts) - 2
    while at < last:
        inner, after = parts[at], parts[at + 1]  # between two inner quotes; after the second
        if inner[:1] in _UNSURE and not _text(inner):
            return -at
        first = after[:1]
        # What follows the second: text (usually a space and a word), or the closing quote
        # (`"we call it "gold""`) unless a key follows.
        if first in _UNSURE and not (
            (first == " " and after[1:2] not in _UNSURE)
            or _text(after)
            or (not after and not _key_quoted_after(parts, at + 2))
        ):
            return -at
        follows = parts[at + 2]
        if follows[:1] in _CLOSING or _CLOSER_AHEAD.match(follows) is not None:
            return at + 2
        at += 2
    return -at


def _text(part: str) -> bool:
    """Whether a quote followed by ``part`` (then another quote) is text to the tokenizer:
    something other than blanks follows it, and it cannot follow a value."""
    first = part[:1]
    if first == " " or first == "\t":
        first = part[1:2]  # after one space, usually (no copy of a long string to strip)
        if first == " " or first == "\t":
            blank = _BLANKS.match(part).end()
            first = part[blank : blank + 1]
    return bool(first) and first not in _NOT_TEXT


def _key_quoted_after(parts: list[str], at: int) -> bool:
    """Whether a quote right before the quote ending ``parts[at - 1]`` would close its string
    because a key follows that one (``"x "y""z": 1``: a missing comma, to the tokenizer)."""
    return (
        at + 1 < len(parts)
        and "\n" not in parts[at]
        and parts[at + 1].lstrip(" \t").startswith(":")
    )
