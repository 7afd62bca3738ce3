"""Python literals outside strings, rewritten at C speed in a reply with only double quotes.

A Python ``repr`` (once its quotes are swapped) holds a ``True``/``False``/``None`` in
nearly every member; a Python step per literal was most of the time such a reply took.
With no backslash and one quote style every ``"`` opens or closes a string, so one split
sets the strings aside, three C-level substitutions rewrite the text between them (each
literal keeps its length: ``False`` → ``false``), and one join puts it back. Python work
is per literal only to record it, in a list comprehension.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from itertools import accumulate

from gate_tui.parsing.repair.vocabulary import PYTHON_LITERALS, Fix, python_literal

_SENTINEL = "\ue000"  # stands for a string in the text between strings (never in the text: checked)
# A literal not inside a longer word (the lookbehind, after the word so the engine skips to
# each at C speed) and not a key (`True:`); \w never matches the sentinel.
_REWRITES = [
    (re.compile(word + r"(?<!\w" + word + r")\b(?![ \t\r\n]*+:)"), PYTHON_LITERALS[word]) for word in PYTHON_LITERALS
]
_ANY = re.compile("|".join(pattern.pattern for pattern, _new in _REWRITES))
_MESSAGES = {word: python_literal(word, 0).message for word in PYTHON_LITERALS}


def literals_between_strings(current: str, start: int) -> tuple[str, Fix | None, list[int]] | None:
    """``current`` with every literal outside strings rewritten, one habit record for them
    all (offsets from ``start``) and each one's offset in ``current`` (literals after the
    value are rewritten and counted too: :func:`habit_within` trims the record to the value).
    None when ``current`` holds a backslash, the sentinel or an odd number of ``"``."""
    if "\\" in current or _SENTINEL in current:
        return None
    parts = current.split('"')
    if not len(parts) % 2:
        return None  # an unclosed string: the pairing is not certain
    joined = _SENTINEL.join(parts[0::2])
    found = [hit.start() for hit in _ANY.finditer(joined)]
    if not found:
        return current, None, []
    first = _ANY.match(joined, found[0]).group()
    for pattern, new in _REWRITES:
        joined = pattern.sub(new, joined)
    parts[0::2] = joined.split(_SENTINEL)
    # Offsets: a position p in `joined` after k sentinels is p + k + (the lengths of the
    # first k strings) in `current` (each string is one sentinel, its quotes two more).
    kept = [0, *accumulate(map(len, parts[1::2]))]
    positions = []
    count = at = 0
    for position in found:
        count += joined.count(_SENTINEL, at, position)
        at = position
        positions.append(position + count + kept[count])
    fix = Fix("python_literal", _MESSAGES[first], start + positions[0], len(positions), start + positions[-1])
    return '"'.join(parts), fix, positions


def habit_within(fix: Fix, positions: list[int], start: int, stop: int) -> Fix | None:
    """The habit record of :func:`literals_between_strings` counting only the literals
    before ``stop`` (the value's end), or None when there are none."""
    inside = bisect_left(positions, stop - start)
    if inside == len(positions):
        return fix
    return None if not inside else fix._replace(count=inside, last=start + positions[inside - 1])
