"""Offsets in a string edited a few times, mapped back to the text it was cut from.

The error-driven rounds (:mod:`~gate_tui.parsing.repair.quick`) edit the candidate in place
and must report each fix, and the value's end, at its offset in the reply.
"""

from __future__ import annotations


class Edits:
    """Maps offsets in an edited string back to the original, whatever order edits came in.

    A trailing comma is found (and removed) after a comment that follows it, so edits are
    not in text order. There are at most a dozen, so a linear walk is cheapest.
    """

    def __init__(self) -> None:
        self.spans: list[tuple[int, int, int]] = []  # (original start, original end, new length)

    def original(self, offset: int) -> int:
        """The original offset of ``offset`` in the current string (inside a replacement: its
        start)."""
        if not self.spans:
            return offset
        delta = 0
        for begin, end, size in self.spans:
            here = begin + delta
            if offset < here:
                break
            if offset < here + size:
                return begin
            delta += size - (end - begin)
        return offset - delta

    def add(self, begin: int, stop: int, size: int) -> None:
        """Record that current ``[begin, stop)`` became ``size`` characters."""
        span = (self.original(begin), self.original(stop), size)
        self.spans.append(span)
        self.spans.sort()


# The bulk passes match, in text order: strings of both quote styles (double-quoted ones
# first, so an apostrophe inside them is never taken for a quote), brackets (group 2, to
# stop where the value closes), and what the pass rewrites (group 1): a single-quoted
# string, or a bare Python literal that is not a key (`True:` would be one). Strings left
# alone have no group, so the loop skips them on `lastindex` alone.
# Each starts with a lookahead on the possible first characters: without it the engine
# tries every alternative at every position (several times slower on long text).
