"""Timing helpers shared by the benchmark scripts: seconds per call over several rounds.

Machines here are shared and noisy, so every goal is a ratio of two figures taken the
same way in the same run; ``min_time`` (the least disturbed round) suits short calls,
``median_time`` longer ones.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def rounds(func: Callable[[], object], repeat: int, number: int = 1) -> list[float]:
    """Seconds per call in each of ``repeat`` rounds of ``number`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            func()
        samples.append((time.perf_counter() - start) / number)
    return samples


def min_time(func: Callable[[], object], repeat: int, number: int = 1) -> float:
    """The fastest round's seconds per call: the least disturbed by other work."""
    return min(rounds(func, repeat, number))


def median_time(func: Callable[[], object], repeat: int, number: int = 1) -> float:
    """The median round's seconds per call."""
    return statistics.median(rounds(func, repeat, number))
