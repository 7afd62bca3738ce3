"""Values JSON can carry but nothing downstream can store: lone surrogates and non-finite numbers.

``"\\ud800"`` is a valid JSON escape that decodes to a lone surrogate, which is not
Unicode: writing it as UTF-8 raises. ``NaN`` and the infinities are not JSON at all (the
repair pass refuses them in text), but a caller can hand them over in a dict. Both are
decided once, where values come in (``parse``; contract mode calls the same helper):
:func:`unstorable` lists every offending place with its path, and the caller reports
``invalid_value``. Iterative (no recursion) and linear in the size of the value.
"""

from __future__ import annotations

import math
import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
# What can become a lone surrogate in decoded text: one already there, or its escape.
_SURROGATE_ESCAPE = re.compile("\\\\u[dD][89abcdefABCDEF]")


def may_hold_surrogates(text: str) -> bool:
    """Whether JSON decoded from ``text`` may hold a lone surrogate (one C-speed search).

    Text the repair pass read cannot hold ``NaN`` (it refuses it), so this is the only
    check a text payload needs before :func:`unstorable`."""
    if "\\u" in text and _SURROGATE_ESCAPE.search(text) is not None:
        return True
    return not text.isascii() and _SURROGATE.search(text) is not None


def unstorable(value: Any, limit: int = 20) -> list[tuple[str, str]]:
    """``(path, message)`` for each string or number in ``value`` that cannot be stored, in
    document order, at most ``limit``. Paths are dotted (``gates.a.raw``, ``items.3``)."""
    found: list[tuple[str, str]] = []
    pending: list[tuple[str, Any]] = [("", value)]
    while pending and len(found) < limit:
        path, item = pending.pop()
        if isinstance(item, str):
            problem = surrogate_problem(item)
            if problem:
                found.append((path, problem))
        elif isinstance(item, float):
            if not math.isfinite(item):
                found.append((path, f"{item!r} is not a number JSON allows"))
        elif isinstance(item, dict):
            children = []
            for key, child in item.items():
                child_path = f"{path}.{key}" if path else str(key)
                if isinstance(key, str) and surrogate_problem(key):
                    found.append((child_path, "the key: " + surrogate_problem(key)))
                children.append((child_path, child))
            pending.extend(reversed(children))
        elif isinstance(item, list | tuple):
            pending.extend(
                reversed(
                    [
                        (f"{path}.{index}" if path else str(index), child)
                        for index, child in enumerate(item)
                    ]
                )
            )
    return found[:limit]


def surrogate_problem(text: str) -> str:
    """A message naming the first lone surrogate in ``text``, or ``""``."""
    found = _SURROGATE.search(text)
    if found is None:
        return ""
    return f"lone surrogate U+{ord(found.group()):04X} is not valid Unicode"
