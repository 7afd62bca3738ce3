"""The small wordings a schema description (:mod:`gate_tui.contracts.describing`) is made of: a
value as JSON, an enum's options (the first :data:`ENUM_SHOWN`, then a count), a node's own
description, its ``oneOf`` / ``anyOf`` branches, and the "a Step, see below" of a named
definition with a name no other definition has."""

from __future__ import annotations

import json
from typing import Any

ENUM_SHOWN = 40


def as_list(value: Any) -> list[Any]:
    """``value`` when it is a list, else an empty one."""
    return value if isinstance(value, list) else []


def branches(shape: Any) -> list[tuple[str, list[Any]]]:
    """The ``oneOf`` / ``anyOf`` branch lists of ``shape``, each with the words introducing it."""
    if not isinstance(shape, dict):
        return []
    found = []
    for key, word in (
        ("oneOf", "exactly one of these shapes"),
        ("anyOf", "at least one of these shapes"),
    ):
        if isinstance(shape.get(key), list) and shape[key]:
            found.append((word, shape[key]))
    return found


def about(node: Any) -> str:
    """`` — `` and the node's description on one line, or nothing."""
    text = node.get("description") if isinstance(node, dict) else None
    if not isinstance(text, str) or not text.strip():
        return ""
    return " — " + " ".join(text.split())


def options_line(options: list[Any]) -> str:
    """An enum's options as JSON: the first :data:`ENUM_SHOWN`, then how many there are."""
    shown = ", ".join(as_json(option) for option in options[:ENUM_SHOWN])
    return shown if len(options) <= ENUM_SHOWN else f"{shown}, … ({len(options):,} options in all)"


def as_json(value: Any) -> str:
    """``value`` as JSON, non-ASCII text kept readable."""
    return json.dumps(value, ensure_ascii=False)


def see_below(name: str) -> str:
    """"a Step, see below" / "an Item, see below"."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}, see below"


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or ``name2``, ``name3``… when it is taken."""
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}{number}", number + 1
    return candidate
