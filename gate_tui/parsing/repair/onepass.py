"""The one-pass repair: the commonest defects fixed as they are found, with one decode.

A model's reply usually breaks JSON in a few habitual ways at once — a trailing comma
after every last member, keys left unquoted, raw line breaks in long answers, a comma
forgotten at the end of a line, a quoted word inside an answer. Fixing one defect per
decode (what the error-driven rounds of :mod:`~gate_tui.parsing.repair.quick` do) costs a
decode of the whole text per defect; the Python tokenizer costs a loop turn per token.
This pass costs neither:

1. the strings are set aside by one C-level split (double-quoted, escapes respected); a
   string whose closing quote is followed by text holds inner quotes, merged as the
   tokenizer reads them (:mod:`~gate_tui.parsing.repair.innerquote`);
2. in the text between them each defect kind is one C-level search — a trailing comma
   before ``}``/``]``, a bare key after ``{``/``,`` and before ``:``, a line break between
   a value's end and the next member with no comma — and the strings holding raw line
   breaks are found with ``str.find``;
3. the edits are applied in text order and the result decoded once — or twice: the kind
   of the first defect (what the failed strict decode found) is fixed and decoded first,
   since a reply mostly repeats one habit; only when that decode fails are the other
   kinds looked for.

Python work is per defect, never per token, so the twelfth defect costs what the first
did. Each fix is recorded exactly as the tokenizer records it (code, message, offset).
Anything else inside the value (a comment, a single quote, an odd number of inner
quotes, a cut) makes the decode fail and the caller goes on with the other paths: this
pass only ever takes a reply the tokenizer would read the same way.
"""

from __future__ import annotations

import re
from itertools import accumulate
from operator import itemgetter

from gate_tui.parsing.repair.innerquote import (
    INNER_QUOTE_MESSAGE,
    ODD_AFTER_STRING,
    merge_inner_quotes,
)
from gate_tui.parsing.repair.lexing import SCAN_ONCE
from gate_tui.parsing.repair.onepass_kinds import (
    FIX,
    MAX_EDITS,
    SENTINEL,
    Edits,
    bare_keys,
    control_strings,
    missing_commas,
    trailing_commas,
)
from gate_tui.parsing.repair.vocabulary import Fix

_STRING = re.compile(r'("[^"\\]*+(?:\\[\s\S][^"\\]*+)*+")')
ONE_PASS_MAX = 256 * 1024
"""Replies up to this size try the one-pass repair first; a hostile megabyte goes straight
to the rounds and the tokenizer (whose bulk finish counts a million fixes at C speed)."""
_ROUNDS_FIRST = ("True", "False", "None")  # Python literals: the rounds fix them all at once


def one_pass_fixes(text: str, at: int, message: str) -> str | None:
    """The kind of the first defect (what the decoder reported at ``at``) when it is one the
    one-pass repair fixes — ``"controls"`` (a raw control character), ``"trailing"`` (a
    trailing comma), ``"missing"`` (a missing comma), ``"inner"`` (an inner quote),
    ``"keys"`` (a bare key), ``""`` (one of these, unsure which) — else None."""
    if message.startswith("Invalid control character"):
        return "controls"
    if at >= len(text) or text.startswith(_ROUNDS_FIRST, at):
        return None
    c = text[at]
    if c in "}]":
        return "trailing"
    if c == ",":
        return ""
    if c == '"':
        return "missing" if message.startswith("Expecting ','") else None
    if message.startswith("Expecting ',' delimiter"):  # text right after a string: an inner quote
        before = at - 1
        while before > 0 and text[before] in " \t":
            before -= 1
        return "inner" if text[before] == '"' else None
    # A bare word where a key is due (a bare value is for the others).
    return (
        "keys"
        if (c.isalnum() or c == "_" or c == "$") and message.startswith("Expecting property name")
        else None
    )


_KINDS = ("trailing", "missing", "keys", "controls")


def _orders() -> dict[tuple[str, bool], tuple[str, tuple[str, ...]]]:
    """Per (first kind, whether to look for control characters): the kind scanned and
    decoded first ("" for none) and the kinds scanned after (a table: this runs per reply)."""
    table = {}
    for controls in (True, False):
        kinds = [kind for kind in _KINDS if controls or kind != "controls"]
        for first in ("", "inner", *_KINDS):
            head = first if first in kinds else ""
            table[first, controls] = (head, tuple(kind for kind in kinds if kind != head))
    return table


_ORDERS = _orders()


def one_pass(
    text: str, start: int, controls: bool = True, *, careful: bool = False, first: str = ""
) -> tuple[object, int, tuple[Fix, ...]] | None:
    """The value opening at ``text[start]`` with the common defects fixed, its end and the
    fixes; None when anything else stands in the value (the caller then tries the others).

    ``controls=False`` skips looking for raw control characters in strings (the caller's
    decode said the first defect is another); should one remain, the decode says so and
    the pass is run again looking for them (``careful``: for all of them, not only line
    breaks; see :func:`control_strings`).

    ``first`` is the kind of the first defect (see :func:`one_pass_fixes`). A reply mostly
    repeats one habit, so that kind is fixed first and the result decoded: when the decode
    succeeds no other kind stands in the value (each is invalid JSON outside a string, or a
    raw control character inside one), and their scans are skipped. When it fails, the
    other kinds are looked for and the whole decoded again: one decode more, never more.
    """
    chunk = text[start:]
    if SENTINEL in chunk:
        return None
    quotes = 0  # what each string part leaves out of its text: its two quotes, or nothing
    if "\\" not in chunk:
        parts = chunk.split('"')  # no escapes: every `"` opens or closes a string (C speed)
        quotes = 2 if len(parts) % 2 else 0
    if not quotes:
        parts = _STRING.split(chunk)
    between, joined = _between(parts)
    merges = ()
    odd = ODD_AFTER_STRING.search(joined) if quotes else None
    if odd is not None:
        # A string's closing quote followed by text: inner quotes, merged as the tokenizer would.
        merges = merge_inner_quotes(parts, joined, odd.start(), MAX_EDITS, controls)
        if merges is None:
            return None
    stale = bool(
        merges
    )  # `between` and `joined` are rebuilt from the merged parts when a scan needs them
    strings = parts[1::2]
    # A position p in `joined` with k sentinels before it is at offset p + shift * k +
    # kept[k] of the chunk: each sentinel stands for a string's text and its quotes (or
    # for the string with its quotes). Each scan finds its matches in order, so k is
    # counted on from the previous match (a C count): linear, and no call per match.
    kept = [0, *accumulate(map(len, strings))]
    shift = quotes - 1
    edits: Edits = []
    new = tuple.__new__
    for (
        index,
        at,
        head,
    ) in merges:  # each merged string: its JSON token, one fix at its first inner quote
        at += shift * index + kept[index]
        body = strings[index]
        edits.append(
            (
                at,
                at + len(body) + 2,
                '"' + body.replace('"', '\\"') + '"',
                new(Fix, ("inner_quote", INNER_QUOTE_MESSAGE, start + at + 1 + head, 1, -1)),
            )
        )
    kinds = 1 if edits else 0  # how many kinds made edits (more than one: sort them)
    keys = 0  # bare keys quoted
    leading, pending = _ORDERS.get((first, controls)) or _ORDERS["", controls]
    done: tuple[str, object, int] | str | None = None
    if leading:
        if stale:
            between, joined, stale = *_between(parts), False
        keys = _scan(leading, chunk, joined, between, strings, kept, quotes, start, careful, edits)
        if keys < 0:
            return None
        kinds += len(edits) > len(merges)
    tried = len(edits)
    if first and edits:
        done = _decode(chunk, edits, kinds > 1)
        if isinstance(done, tuple):
            return _finish(done, chunk, start, edits, keys)
    if stale and pending:
        between, joined = _between(parts)
    for kind in pending:
        before = len(edits)
        found = _scan(kind, chunk, joined, between, strings, kept, quotes, start, careful, edits)
        if found < 0:
            return None
        keys += found
        kinds += len(edits) > before
    if not edits:
        return None
    if len(edits) > tried or not first:  # (nothing more found: the same failure again)
        done = _decode(chunk, edits, kinds > 1)
        if isinstance(done, tuple):
            return _finish(done, chunk, start, edits, keys)
    if not careful and done == "control":
        return one_pass(text, start, controls=True, careful=controls, first="controls")
    return None


def _between(parts: list[str]) -> tuple[list[str], str]:
    """The text between strings of a reply split by them, and that text joined by sentinels."""
    between = parts[0::2]
    return between, SENTINEL.join(between)


def _scan(
    kind: str,
    chunk: str,
    joined: str,
    between: list[str],
    strings: list[str],
    kept: list[int],
    quotes: int,
    start: int,
    careful: bool,
    edits: Edits,
) -> int:
    """Add the edits of one kind of defect: how many bare keys were quoted (0 for the other
    kinds), or -1 when the pass must give up (a hostile count, an unsure string)."""
    shift = quotes - 1
    if kind == "trailing":
        return 0 if trailing_commas(joined, shift, kept, start, edits) else -1
    if kind == "missing":
        return 0 if missing_commas(joined, shift, kept, start, edits) else -1
    if kind == "keys":
        found = bare_keys(joined, chunk, shift, kept, start, edits)
        return -1 if found is None else found
    return (
        0
        if not strings
        or control_strings(chunk, between, strings, kept, quotes, edits, start, careful)
        else -1
    )


def _finish(
    done: tuple[str, object, int], chunk: str, start: int, edits: Edits, keys: int
) -> tuple[object, int, tuple[Fix, ...]] | None:
    """The decoded value, its end in ``text`` and the fixes before that end."""
    repaired, value, end = done
    # When the last edit comes before the value's end (text after it rarely needs one), all
    # do, and the end moves by what they all changed: no walk over the edits.
    begin, stop, replacement, _ = edits[-1]
    moved = len(chunk) - len(repaired)  # original minus repaired
    if begin - moved + (stop - begin - len(replacement)) < end:
        return (
            value,
            start + end + moved,
            tuple([fix for fix in map(FIX, edits) if fix is not None]),
        )
    stop = _original_end(edits, end)
    if keys and any(fix is None and begin >= stop for begin, _, _, fix in edits):
        return None  # bare keys after the value: the habit's count is the others' to settle
    return (
        value,
        start + stop,
        tuple([fix for begin, _, _, fix in edits if fix is not None and begin < stop]),
    )


def _decode(chunk: str, edits: Edits, unordered: bool) -> tuple[str, object, int] | str | None:
    """The chunk with ``edits`` applied, decoded: (repaired text, value, end); ``"control"``
    when a raw control character stopped the decode, None for another failure."""
    if unordered:
        edits.sort(key=itemgetter(0))
    pieces: list[str] = []
    last = 0
    for begin, end, replacement, _ in edits:
        pieces += (chunk[last:begin], replacement)
        last = end
    pieces.append(chunk[last:])
    repaired = "".join(pieces)
    try:
        value, end = SCAN_ONCE(repaired, 0)
    except ValueError as error:
        return "control" if str(error).startswith("Invalid control character") else None
    except (StopIteration, RecursionError, MemoryError):
        return None
    return repaired, value, end


def _original_end(edits: Edits, end: int) -> int:
    """The chunk offset of ``end``, an offset in the repaired text."""
    delta = 0  # original minus repaired, so far
    for begin, stop, replacement, _ in edits:
        if begin - delta >= end:
            break
        delta += (stop - begin) - len(replacement)
    return end + delta
