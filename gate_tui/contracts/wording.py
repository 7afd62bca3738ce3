"""Values, keys and option lists as they appear in contract error messages: always short.

A reply is untrusted and may be huge (a 1 MB string, an object with 400,000 keys, an
enum of 60,000 options), and one reply can have 200 errors, so every value a message
shows is bounded here: text is cut in the MIDDLE (both ends tell two long values apart)
and says its full length; a container is rendered lazily and stops at the limit, naming
its size; an option list shows the first few and a count. The cost of a message is
bounded by the limit, not by the value (except a string's one ``len``).
"""

from __future__ import annotations

import json
from typing import Any

VALUE_LIMIT = 80
"""Characters of a value a message shows (before the length note)."""
OPTIONS_SHOWN = 8
"""Enum options named in a message; the rest are counted."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=True)


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 item``, ``2 items``, ``60,000 options``, ``3 branches`` (with ``words`` given)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def cut_middle(text: str, limit: int = VALUE_LIMIT) -> str:
    """``text`` itself when short; else its start and end around ``…``, and its length."""
    if len(text) <= limit:
        return text
    head = (limit + 1) // 2
    tail = limit - head
    return f"{text[:head]}…{text[-tail:] if tail else ''} ({plural(len(text), 'character')})"


def shown(value: Any, limit: int = VALUE_LIMIT) -> str:
    """A value as compact JSON for a message, bounded (see the module docstring)."""
    if isinstance(value, str):
        if len(value) <= limit:
            return _dumps(value)
        head = (limit + 1) // 2
        return (
            f"{_dumps(value[:head])[:-1]}…{_dumps(value[head - limit :])[1:]} "
            f"({plural(len(value), 'character')})"
        )
    if isinstance(value, (dict, list)):
        return _container(value, limit)
    text = _dumps(value)
    return text if len(text) <= limit else cut_middle(text, limit).replace("character", "digit")


def key_shown(key: Any, limit: int = VALUE_LIMIT) -> str:
    """An object key quoted for a message: ``'hint'``; a long key cut with its length."""
    text = str(key)
    if len(text) <= limit:
        return repr(text)
    head = (limit + 1) // 2
    return f"{text[:head] + '…' + text[head - limit:]!r} ({plural(len(text), 'character')})"


def options_shown(options: list[Any], limit: int = OPTIONS_SHOWN) -> str:
    """``"a", "b", "c"``, or the first ``limit`` and ``… (60,000 options)``."""
    first = ", ".join(shown(option, 40) for option in options[:limit])
    return first if len(options) <= limit else f"{first}, … ({plural(len(options), 'option')})"


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)[:VALUE_LIMIT]


def _container(value: dict[str, Any] | list[Any], limit: int) -> str:
    """Compact JSON of a container up to ``limit`` characters, encoded lazily (chunk by
    chunk, so a huge container costs no more than its first few members)."""
    size = plural(len(value), "key" if isinstance(value, dict) else "item")
    out: list[str] = []
    used = 0
    try:
        for chunk in _ENCODER.iterencode(value):
            out.append(chunk)
            used += len(chunk)
            if used > limit:
                break
        else:
            return "".join(out)
    except (TypeError, ValueError, RecursionError):
        return f"{'an object' if isinstance(value, dict) else 'an array'} with {size}"
    return f"{''.join(out)[:limit]}… ({size})"
