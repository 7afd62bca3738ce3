"""Waiting in a screenshot scene: poll the state it shows (one helper for every scene)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


async def until(pilot: Any, predicate: Callable[[], object], timeout: float = 5.0) -> None:
    """Poll ``predicate`` every 20 ms (the scene's state, not a guess at idleness)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the scene did not reach its state in time")
        await pilot.pause(0.02)
