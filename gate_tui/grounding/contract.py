"""Contract mode: a string property marked ``"x-grounded": true`` must quote the user.

The walk follows the schema and the value together through ``properties``, ``items`` and
``prefixItems`` (a ``$ref`` or a combinator is not followed: mark the property where it is
defined inline). Each marked string is traced as a gate's ``raw`` is (exact, near,
ungrounded), giving findings of the same shape with a JSON Pointer as their path.
Bounded: at most :data:`MAX_CHECKED` values per reply, depth at most :data:`MAX_DEPTH`.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from typing import Any

from gate_tui.grounding.conversation import user_turns
from gate_tui.grounding.matching import trace_many

GROUNDED_KEY = "x-grounded"
MAX_CHECKED = 1000
MAX_DEPTH = 64


def _escape(part: str | int) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def marked_strings(
    schema: Any, value: Any, path: str = "", depth: int = 0
) -> Iterator[tuple[str, str]]:
    """``(JSON Pointer, text)`` of every string in ``value`` whose schema says ``x-grounded``."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    if schema.get(GROUNDED_KEY) is True and isinstance(value, str):
        yield path, value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        for key, sub in schema["properties"].items():
            if key in value:
                yield from marked_strings(sub, value[key], f"{path}/{_escape(key)}", depth + 1)
    if isinstance(value, list):
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items")
        for index, item in enumerate(value):
            sub = (
                prefix[index] if index < len(prefix) else items if isinstance(items, dict) else None
            )
            yield from marked_strings(sub, item, f"{path}/{index}", depth + 1)


def contract_findings(
    schema: Any, value: Any, conversation: Any
) -> tuple[list[dict[str, Any]], str | None]:
    """The findings of each ``x-grounded`` string against the user's words (and a problem
    with the conversation, if any)."""
    turns, problem = user_turns(conversation if conversation is not None else [])
    marked = [
        (path, text)
        for path, text in islice(marked_strings(schema, value), MAX_CHECKED)
        if text.strip()
    ]
    traced = trace_many([text for _, text in marked], turns)
    findings = [
        {"path": path, "kind": kind, "value": text, "closest": closest}
        for (path, text), (kind, closest) in zip(marked, traced, strict=True)
    ]
    return findings, problem
