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

from gate_tui.parsing.repair.lexing import BLANK
from gate_tui.parsing.repair.scalars import read_string
from gate_tui.parsing.repair.vocabulary import Fix


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
    fixes: list[Fix] = []
    token, end, cut = read_string(current, opening, limit, fixes)
    # Only a string closed further on, its first inner quote where the decoder stopped: a
    # missing quote or a cut is the tokenizer's to judge, with the whole reply in view.
    if cut or not fixes or fixes[0].code != "inner_quote" or fixes[0].offset != quote:
        return None
    if BLANK.match(current, end).end() >= limit:
        return None
    return opening, end, token, fixes


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
