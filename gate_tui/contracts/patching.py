"""Edit one place of a contract value: read, set or remove at a JSON Pointer, and find the
schema that governs that place (to offer an enum's choices, or to read a number as a number).

Every function returns a *new* value (copy on write along the path) and never raises:
a path that does not fit the value comes back as an error message. The editor turns a
leaf edit into such a patch and hands the patched value to ``check_contract``, so the
system, not the editor, says whether it is valid.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from gate_tui.contracts.results import pointer_parts

LeafKind = Literal["string", "number", "integer", "boolean", "enum", "null", "container"]
_MISSING = object()


def value_at(value: Any, path: str) -> Any:
    """The value at ``path``, or :data:`None` when there is nothing there."""
    node = value
    for part in pointer_parts(path, value):
        if isinstance(node, dict) and isinstance(part, str) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            return None
    return node


def set_at(value: dict[str, Any], path: str, new: Any) -> tuple[dict[str, Any] | None, str | None]:
    """A copy of ``value`` with ``new`` at ``path`` (a missing last key is added)."""
    return _replace(value, pointer_parts(path, value), new)


def remove_at(value: dict[str, Any], path: str) -> tuple[dict[str, Any] | None, str | None]:
    """A copy of ``value`` without the key or item at ``path``."""
    if not path:
        return None, "the whole value cannot be removed"
    return _replace(value, pointer_parts(path, value), _MISSING)


def _replace(node: Any, parts: list[str | int], new: Any) -> tuple[Any, str | None]:
    if not parts:
        return new, None
    head, rest = parts[0], parts[1:]
    if isinstance(node, dict):
        key = str(head)
        if rest and key not in node:
            return None, f"no key {key!r} here"
        copy = dict(node)
        if not rest and new is _MISSING:
            copy.pop(key, None)
            return copy, None
        child, error = _replace(node.get(key), rest, new)
        if error is not None:
            return None, error
        copy[key] = child
        return copy, None
    if isinstance(node, list) and isinstance(head, int) and head < len(node):
        items = list(node)
        if not rest and new is _MISSING:
            del items[head]
            return items, None
        child, error = _replace(node[head], rest, new)
        if error is not None:
            return None, error
        items[head] = child
        return items, None
    return None, "the path does not fit the value"


def schema_at(root: dict[str, Any], value: Any, path: str) -> dict[str, Any]:
    """The (sub)schema governing ``path``, following ``properties``, ``items``,
    ``additionalProperties`` and local ``$ref``; ``{}`` when the schema says nothing."""
    node: Any = _deref(root, root)
    for part in pointer_parts(path, value):
        if not isinstance(node, dict):
            return {}
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            properties = node.get("properties")
            if isinstance(properties, dict) and part in properties:
                node = properties[part]
            else:
                extra = node.get("additionalProperties")
                node = extra if isinstance(extra, dict) else {}
        node = _deref(root, node)
    return node if isinstance(node, dict) else {}


def _deref(root: dict[str, Any], node: Any) -> Any:
    for _ in range(32):  # a chain of refs, never a loop
        if not (
            isinstance(node, dict)
            and isinstance(node.get("$ref"), str)
            and node["$ref"].startswith("#/")
        ):
            return node
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = (
                target.get(part.replace("~1", "/").replace("~0", "~"))
                if isinstance(target, dict)
                else None
            )
        merged = dict(target) if isinstance(target, dict) else {}
        merged.update({key: item for key, item in node.items() if key != "$ref"})
        node = merged
    return node


def leaf_kind(schema: dict[str, Any], current: Any) -> LeafKind:
    """How an editor should offer this place: a choice, a number, text, a switch…"""
    if isinstance(schema.get("enum"), list):
        return "enum"
    declared = schema.get("type")
    if isinstance(current, (dict, list)) or declared in ("object", "array"):
        return "container"
    if declared in ("string", "number", "integer", "boolean", "null"):
        return declared
    if isinstance(current, bool):
        return "boolean"
    if isinstance(current, int):
        return "integer"
    if isinstance(current, float):
        return "number"
    return "string"


def coerce(text: str, kind: LeafKind) -> tuple[Any, str | None]:
    """The typed value for what the user typed; an error message when it cannot be one.

    A number field accepts only a finite number; ``integer`` accepts only whole numbers;
    text is taken as typed (never stripped: whitespace may be the point); an object or a
    list is typed as JSON text. Anything that is not of the kind is an error here rather
    than a silently different value.
    """
    if kind == "string":
        return text, None
    if kind == "boolean":
        lowered = text.strip().lower()
        if lowered in ("true", "false"):
            return lowered == "true", None
        return None, "type true or false"
    if kind in ("number", "integer"):
        try:
            number = json.loads(text.strip())
        except (ValueError, RecursionError):
            number = None
        if (
            isinstance(number, bool)
            or not isinstance(number, (int, float))
            or (isinstance(number, float) and not math.isfinite(number))
        ):
            return None, f"{text.strip()!r} is not a number"
        if kind == "integer" and not isinstance(number, int):
            if number.is_integer():
                return int(number), None
            return None, f"{text.strip()!r} is not a whole number"
        return number, None
    if kind == "null":
        return None, None
    return parse_json_text(text)


def parse_json_text(text: str) -> tuple[Any, str | None]:
    """Any JSON value typed as text (an object, a list…); strict: no NaN, no repairs."""
    try:
        return json.loads(text, parse_constant=_reject_constant), None
    except json.JSONDecodeError as exc:
        return None, f"not valid JSON: {exc.msg} at line {exc.lineno}:{exc.colno}"
    except (ValueError, RecursionError) as exc:
        return None, f"not valid JSON: {exc}"


def _reject_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a JSON number")
