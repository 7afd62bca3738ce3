"""The defect kinds of the one-pass repair (:mod:`~gate_tui.parsing.repair.onepass`): each
found in the text between the strings by one C-level search, each fix recorded exactly as
the tokenizer records it. Python work is per defect, never per token."""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import accumulate, islice
from operator import itemgetter

from gate_tui.parsing.repair.vocabulary import Fix, trailing_comma, unquoted_key

SENTINEL = "\ue000"  # stands for a string set aside: the text between strings holds one each
# A comma before a closer (the loop checks that a value's end precedes it: never `{,` or
# `,,`). Each pattern starts with what it consumes, so the engine skips ahead at C speed
# (a pattern led by a lookbehind is tried at every position, several times slower).
TRAILING_COMMA = re.compile(",(?=[ \t\r\n]*+([}\\]]))")
TRAILING_MESSAGES = {closer: trailing_comma(closer, 0).message for closer in "}]"}
VALUE_END = frozenset("\ue0000123456789elE}]")
# After a value's end (a string, a digit, the last letter of true / false / null, a closer),
# a line break and the next member or element, with no comma. Led by the line break (a
# literal: the engine skips to each at C speed; a leading class is tried at every value's
# end): what precedes it is looked behind — the value's end, or one `\r` or space between.
_ENDS = "[\ue0000-9elE}\\]]"
MISSING_COMMA = re.compile(f"\n(?:(?<={_ENDS}\n)|(?<={_ENDS}[\r ]\n))[ \t\r\n]*+(?=[\ue000{{\\[])")
MISSING_COMMA_PLAIN = re.compile(
    f"\n(?<={_ENDS}\n)[ \t\r\n]*+(?=[\ue000{{\\[])"
)  # no `\r`, no ` \n`: one look behind
BARE_KEY = re.compile(r"[{,][ \t\r\n]*+([\w$][\w$\-]*+)(?=[ \t\r\n]*+:)")
CONTROL = re.compile(r"[\x00-\x1f]")
ESCAPES = {code: f"\\u{code:04x}" for code in range(32)}
ESCAPES.update({10: "\\n", 9: "\\t", 13: "\\r", 8: "\\b", 12: "\\f"})


def escape(found: re.Match[str]) -> str:
    """A control character's JSON escape (a callback per character: the strings are long,
    the control characters few, and ``str.translate`` with a table walks every character)."""
    return ESCAPES[ord(found.group())]


DELIMITER = re.compile(r"[ \t\r\n]*+[,:}\]]")
FOLLOWS = frozenset(",:}]")
CONTROL_MESSAGE = "escaped raw control characters (line breaks, tabs) inside a string"
MISSING_COMMA_MESSAGE = "added a missing comma between two members"
Edits = list[tuple[int, int, str, Fix | None]]  # (start, end, replacement, fix) in chunk offsets
MAX_EDITS = 256
"""Beyond this many defects the reply is hostile, not sloppy: the tokenizer's bulk finish
counts them at C speed instead of recording each one here."""


def matches(pattern: re.Pattern[str], joined: str) -> list[re.Match[str]] | None:
    """The matches of one kind of defect, in text order; None beyond :data:`MAX_EDITS`
    (a hostile reply: the tokenizer's bulk finish counts them at C speed)."""
    found = list(islice(pattern.finditer(joined), MAX_EDITS + 1))
    return None if len(found) > MAX_EDITS else found


def trailing_commas(joined: str, shift: int, kept: list[int], start: int, edits: Edits) -> bool:
    """Delete each comma before a closer that follows a value's end; False for a hostile count."""
    found_all = matches(TRAILING_COMMA, joined)
    if found_all is None:
        return False
    append, count, new = edits.append, joined.count, tuple.__new__
    seen = k = 0
    for found in found_all:
        comma = before = found.start()
        if not (comma and joined[comma - 1] in VALUE_END):  # usually right after the value
            while before and joined[before - 1] in " \t\r\n":
                before -= 1
            if not before or joined[before - 1] not in VALUE_END:
                continue
        k += count(SENTINEL, seen, comma)
        seen = comma
        at = comma + shift * k + kept[k]
        append(
            (
                at,
                at + 1,
                "",
                new(Fix, ("trailing_comma", TRAILING_MESSAGES[found.group(1)], start + at, 1, -1)),
            )
        )
    return True


def missing_commas(joined: str, shift: int, kept: list[int], start: int, edits: Edits) -> bool:
    """Add a comma at each line break between a value's end and the next member; False for a hostile
    count."""
    missing = MISSING_COMMA if "\r" in joined or " \n" in joined else MISSING_COMMA_PLAIN
    found_all = matches(missing, joined)
    if found_all is None:
        return False
    append, count, new = edits.append, joined.count, tuple.__new__
    seen = k = 0
    for found in found_all:
        at, member = found.span()
        k += count(SENTINEL, seen, at)  # none between the line break and the member
        seen = at
        moved = shift * k + kept[k]
        append(
            (
                at + moved,
                at + moved,
                ",",
                new(Fix, ("missing_comma", MISSING_COMMA_MESSAGE, start + member + moved, 1, -1)),
            )
        )
    return True


def bare_keys(
    joined: str, chunk: str, shift: int, kept: list[int], start: int, edits: Edits
) -> int | None:
    """Quote each bare key, one habit record for them all on the first one's edit; how
    many, or None for a hostile count."""
    # A bare key ends before a `:` that no string (a sentinel) stands right before: when
    # every colon follows one, as in most replies, the scan is skipped (two C counts).
    count = joined.count
    colons = count(":")
    if not colons or colons == count(SENTINEL + ":"):
        return 0
    found_all = matches(BARE_KEY, joined)
    if found_all is None:
        return None
    marks = len(edits)
    append = edits.append
    seen = k = 0
    for found in found_all:
        begin, end = found.span(1)
        k += count(SENTINEL, seen, begin)
        seen = begin
        moved = shift * k + kept[k]  # a bare word holds no string: it ends as many later
        append((begin + moved, end + moved, f'"{found.group(1)}"', None))
    keys = len(edits) - marks
    if keys:
        first, last = edits[marks], edits[-1]
        word = chunk[first[0] : first[1]]
        habit = (start + first[0], keys, start + last[0]) if keys > 1 else (start + first[0], 1, -1)
        edits[marks] = (
            first[0],
            first[1],
            first[2],
            tuple.__new__(Fix, ("unquoted_key", key_message(word), *habit)),
        )
    return keys


FIX = itemgetter(3)


@lru_cache(maxsize=1024)
def key_message(word: str) -> str:
    """The unquoted-key message (the vocabulary's), built once per key name: a reply repeats its
    keys."""
    return unquoted_key(word, 0).message


def control_strings(
    chunk: str,
    between: list[str],
    strings: list[str],
    kept: list[int],
    quotes: int,
    edits: Edits,
    start: int,
    careful: bool,
) -> bool:
    """Escape each string holding raw control characters (one record per string, at its first).

    Line breaks are nearly always the only ones (a multi-line answer): unless ``careful``,
    when the strings hold no tab or carriage return, each is found with ``str.find`` and
    escaped with ``str.replace`` (C speed; the general pattern tries a class at every
    character and calls back per character). Another control character then stays, the
    decode says so and the caller runs the pass again, careful.

    False when such a string is not followed by a delimiter: its quotes may not be where
    the split paired them (a missing quote), which is the tokenizer's judgement to make.
    """
    together = "".join(strings)
    lines_only = not careful and "\t" not in together and "\r" not in together
    lead = [0, *accumulate(map(len, between))]  # the text between strings, up to each one
    first = together.find("\n") if lines_only else first_control(together, 0)
    while first >= 0:
        index = bisect_right(kept, first) - 1
        string = strings[index]
        # The original offset of the string: the text between strings up to it, plus them.
        at = lead[index + 1] + kept[index] + quotes * index
        size = len(string) + quotes
        if between[index + 1][:1] not in FOLLOWS and DELIMITER.match(chunk, at + size) is None:
            return False  # (what follows the string, usually right after it)
        if len(edits) > 3 * MAX_EDITS:
            return False
        escaped = string.replace("\n", "\\n") if lines_only else CONTROL.sub(escape, string)
        fix = tuple.__new__(
            Fix,
            (
                "control_character",
                CONTROL_MESSAGE,
                start + at + quotes // 2 + first - kept[index],
                1,
                -1,
            ),
        )
        edits.append((at, at + size, f'"{escaped}"' if quotes else escaped, fix))
        first = (
            together.find("\n", kept[index + 1])
            if lines_only
            else first_control(together, kept[index + 1])
        )
    return True


def first_control(text: str, at: int) -> int:
    found = CONTROL.search(text, at)
    return -1 if found is None else found.start()
