"""JSON that a program or a person hands to ``check`` as data (``--jsonl`` lines, a
``--previous`` file, a user's patch): a key given twice is an error, never last-wins.

Every JSON decoder keeps the last of two equal keys silently, so ``{"reply": A,
"reply": B}`` or a patch giving ``gates`` twice would decide with a value nobody can say
was meant. NaN and the infinities are not JSON either, and are refused the same way.
"""

from __future__ import annotations

import json
from typing import Any


class RepeatedKey(ValueError):
    """An object gives a key twice; ``args[0]`` is the key."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return value


STRICT_DECODER = json.JSONDecoder(
    parse_constant=_reject_constant, object_pairs_hook=_unique_members
)
"""``STRICT_DECODER.decode(text)``: raises :class:`RepeatedKey` (a ``ValueError``) on a repeated
key."""
