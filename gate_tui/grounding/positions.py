"""Where a gate's value sits in the reply text: 1-based line and column, found in one scan."""

from __future__ import annotations

import json

_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _quoted(text: str) -> str:
    """``text`` as a JSON string; text with nothing to escape is just quoted (no encoder call:
    this runs for every checked value of every reply in a batch)."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    return _ENCODE(text)


def value_position(text: str, key: str, field: str, value: str) -> tuple[int | None, int | None]:
    """The line and column of ``value`` (as a JSON string) under ``key`` / ``field`` in the
    reply ``text``; (None, None) when the text does not show it literally."""
    quoted = _quoted(value)
    at = text.find(quoted)
    if at < 0:
        return None, None
    if text.find(quoted, at + 1) >= 0:  # more than once: the one under this key and field
        key_at = text.find(_quoted(key))
        field_at = text.find(f'"{field}"', max(key_at, 0))
        under = text.find(quoted, max(field_at, 0))
        at = under if under >= 0 else at
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1
