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

from gate_tui.parsing.repair.edits import Edits
from gate_tui.parsing.repair.vocabulary import PYTHON_LITERALS, Fix, python_literal

_SENTINEL = "\ue000"  # stands for a string in the text between strings (never in the text: checked)
# A literal not inside a longer word (the lookbehind, after the word so the engine skips to
# each at C speed) and not a key (`True:`); \w never matches the sentinel.
_REWRITES = [
    (re.compile(word + r"(?<!\w" + word + r")\b(?![ \t\r\n]*+:)"), PYTHON_LITERALS[word])
    for word in PYTHON_LITERALS
]
_ANY = re.compile("|".join(pattern.pattern for pattern, _new in _REWRITES))
_WORD_PATTERNS = [
    (word, pattern) for word, (pattern, _new) in zip(PYTHON_LITERALS, _REWRITES, strict=True)
]
_MESSAGES = {word: python_literal(word, 0).message for word in PYTHON_LITERALS}


def literals_between_strings(
    current: str, start: int
) -> tuple[str, Fix | None, LiteralSpots | None] | None:
    """``current`` with every literal outside strings rewritten, one habit record for them
    all (offsets from ``start``) and each one's offset in ``current`` (literals after the
    value are rewritten and counted too: :func:`habit_within` trims the record to the value).
    None when ``current`` holds a backslash, the sentinel or an odd number of ``"``."""
    if "\\" in current or _SENTINEL in current:
        return None
    parts = current.split('"')
    if not len(parts) % 2:
        return None  # an unclosed string: the pairing is not certain
    original = _SENTINEL.join(parts[0::2])
    joined, total = original, 0
    for pattern, new in _REWRITES:  # each pattern is led by its word: C-speed skipping
        joined, count = pattern.subn(new, joined)
        total += count
    if not total:
        return current, None, None
    first = _ANY.search(original)
    last = max(_last_literal(original, word, pattern) for word, pattern in _WORD_PATTERNS)
    parts[0::2] = joined.split(_SENTINEL)
    spots = LiteralSpots(original, [0, *accumulate(map(len, parts[1::2]))])
    fix = Fix(
        "python_literal",
        _MESSAGES[first.group()],
        start + spots.place(first.start()),
        total,
        start + spots.place(last),
    )
    return '"'.join(parts), fix, spots


def _last_literal(joined: str, word: str, pattern: re.Pattern[str]) -> int:
    """Where the last rewritten ``word`` is in ``joined`` (-1: none): found from the end by
    ``rfind`` (the alternation of the three words cannot skip ahead as one word can)."""
    at = len(joined)
    while True:
        at = joined.rfind(word, 0, at)
        if at < 0 or pattern.match(joined, at) is not None:
            return at


class LiteralSpots:
    """Where the rewritten literals are in ``current``, mapped only when asked: the habit
    record needs the first and the last, and the rest only when the value ends before the
    last literal (a Python step per literal was a fifth of a small ``repr``'s time)."""

    __slots__ = ("joined", "kept")

    def __init__(self, joined: str, kept: list[int]) -> None:
        self.joined, self.kept = joined, kept  # the text between strings, before the rewrite

    def place(self, position: int) -> int:
        """The offset in ``current`` of a position in ``joined``: p + k + (the lengths of the
        first k strings) after k sentinels (each string is one sentinel, its quotes two more)."""
        count = self.joined.count(_SENTINEL, 0, position)
        return position + count + self.kept[count]

    def every(self) -> list[int]:
        positions = []
        count = at = 0
        for found in _ANY.finditer(self.joined):
            position = found.start()
            count += self.joined.count(_SENTINEL, at, position)
            at = position
            positions.append(position + count + self.kept[count])
        return positions


def habit_within(fix: Fix, spots: LiteralSpots, start: int, stop: int) -> Fix | None:
    """The habit record of :func:`literals_between_strings` counting only the literals
    before ``stop`` (the value's end), or None when there are none."""
    if fix.last < stop:
        return fix  # the last literal is inside the value: all are
    positions = spots.every()
    inside = bisect_left(positions, stop - start)
    if inside == len(positions):
        return fix
    return None if not inside else fix._replace(count=inside, last=start + positions[inside - 1])


# No leading ``\b``: a pattern that starts with a literal alternative lets the engine skip
# ahead to the next T, F or N at C speed (with ``\b`` first it tries every position, four
# times slower); the word boundary before the literal is checked in the loop instead.
_LITERAL_WORD = re.compile(r"(?:True|False|None)\b(?![ \t\r\n]*+:)")


# The message for each literal, built once: this loop runs per literal of the reply.
_LITERAL_MESSAGES = {word: python_literal(word, 0).message for word in PYTHON_LITERALS}


def literals_by_parity(current: str, start: int, edits: Edits) -> tuple[str, list[Fix]]:
    """The literals outside strings of a text with only double quotes and no backslash.

    Without escapes or another quote style, a word is inside a string exactly when an odd
    number of ``"`` precede it, so the Python work is per literal, not per string. Literals
    after the value are rewritten too (harmless) and their fixes dropped by the caller.
    """
    fixes: list[Fix] = []
    pieces: list[str] = []
    inside, previous, last = False, 0, 0
    original = edits.original if edits.spans else None
    for found in _LITERAL_WORD.finditer(current):
        at = found.start()
        if current.count('"', previous, at) % 2:
            inside = not inside
        previous = at
        if inside:
            continue
        if at:
            before = current[at - 1]  # what `\b` would check: a word character (alnum or _)
            if before.isalnum() or before == "_":
                continue  # part of a longer word (`IsTrue`)
        word = found.group()
        fixes.append(
            Fix(
                "python_literal",
                _LITERAL_MESSAGES[word],
                start + (at if original is None else original(at)),
            )
        )
        pieces += (current[last:at], PYTHON_LITERALS[word])
        last = found.end()
    pieces.append(current[last:])
    return "".join(pieces), fixes
