"""Spans of text and what arrays hold, for the chooser (:mod:`gate_tui.parsing.choosing`):
is an offset inside one of a sorted list of spans, overlapping spans merged, does a
decoded array hold an object (looking through nested arrays, without recursion)."""

from __future__ import annotations

from bisect import bisect_right
from typing import Any


def merge_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` (sorted by start) with the overlapping ones merged."""
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def inside(spans: list[tuple[int, int]], starts: list[int], offset: int) -> bool:
    """Whether ``offset`` falls in one of ``spans`` (merged, sorted; ``starts`` their starts)."""
    index = bisect_right(starts, offset) - 1
    return index >= 0 and offset < spans[index][1]


def holds_object(value: list[Any]) -> bool:
    """Whether a decoded array has an object among its elements (looking through nested arrays)."""
    pending = [value]
    while pending:
        for item in pending.pop():
            if isinstance(item, dict):
                return True
            if isinstance(item, list):
                pending.append(item)
    return False
