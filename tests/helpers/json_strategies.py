"""Hypothesis strategies for JSON objects (strings holding quotes, braces, fences and line
breaks on purpose), the JSON tokens of a value, and replies damaged with common defects."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import strategies as st

from gate_tui.parsing.repair.tail import decode_repaired
from gate_tui.parsing.repair.tokenizer import repair_json

PIECES = st.sampled_from(
    list("ab {}[]\"'`:,\n\\#/é") + ["```", '{"k": 1}', "<think>", "\n```json\n"]
)
TEXT = st.lists(PIECES, max_size=8).map("".join)
KEYS = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
SCALARS = (
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.sampled_from([0.25, 1.0, -2.5]) | TEXT
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
OBJECTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)


def tokens(value: Any) -> list[str]:
    """The value as JSON tokens: brackets, ``,``, ``:`` and whole scalars."""
    out: list[str] = []
    pending: list[Any] = [("value", value)]
    while pending:
        kind, item = pending.pop()
        if kind == "raw":
            out.append(item)
        elif isinstance(item, dict):
            parts: list[Any] = [("raw", "{")]
            for index, (key, child) in enumerate(item.items()):
                if index:
                    parts.append(("raw", ","))
                parts += [("raw", json.dumps(key)), ("raw", ":"), ("value", child)]
            parts.append(("raw", "}"))
            pending.extend(reversed(parts))
        elif isinstance(item, list):
            parts = [("raw", "[")]
            for index, child in enumerate(item):
                if index:
                    parts.append(("raw", ","))
                parts.append(("value", child))
            parts.append(("raw", "]"))
            pending.extend(reversed(parts))
        else:
            out.append(json.dumps(item, ensure_ascii=False))
    return out


def damaged(value: Any, kinds: list[str], seed: int) -> str:
    text = json.dumps(value, indent=1, ensure_ascii=False)
    for number, kind in enumerate(kinds):
        spots = _spots(text, kind)
        if not spots:
            continue
        at, end, new = spots[(seed + number * 7) % len(spots)]
        text = text[:at] + new + text[end:]
    return text


def _spots(text: str, kind: str) -> list[tuple[int, int, str]]:
    if kind == "trailing comma":
        return [(m.end(1), m.end(1), ",") for m in re.finditer(r'(["\d el}\]])\n *[}\]]', text)]
    if kind == "bare key":
        return [
            (m.start(1), m.end(1), m.group(1)[1:-1]) for m in re.finditer(r'\n *("[a-h_]+"):', text)
        ]
    if kind == "line break":
        return [(m.start(), m.end(), "\n") for m in re.finditer(r"\\n", text)]
    return [
        (m.start(), m.end(), "") for m in re.finditer(r"(?<=[\"\d el}\]]),(?=\n *[\"{\[])", text)
    ]


def tokenizer(text: str) -> tuple[Any, int, list[Any]]:
    outcome = repair_json(text, 0, len(text))
    assert outcome.json_text is not None
    return decode_repaired(outcome), outcome.end, sorted(outcome.fixes)
