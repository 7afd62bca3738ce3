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
_MESSAGE = GUESS_FIX_MESSAGES["inner_quote"]


def inner_quote_edit(current: str, at: int, message: str, floor: int) -> tuple[int, int, str, list[Fix]] | None:
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
    return opening, after, '"' + body.replace('"', '\\"') + '"', [Fix("inner_quote", _MESSAGE, inner)]


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
