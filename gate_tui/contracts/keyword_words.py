"""A keyword failure of the JSON Schema validator in words: the message, what was
expected, and the type names a reader knows (``object``, not ``dict``). The values shown
are bounded by :mod:`gate_tui.contracts.wording`; :mod:`gate_tui.contracts.errors` decides
which failures become which errors and uses these words for them."""

from __future__ import annotations

from typing import Any

from gate_tui.contracts.combinators import valid_branches
from gate_tui.contracts.wording import cut_middle, key_shown, options_shown, plural, shown

_TYPE_NAMES = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}
_LIMITS = {
    "minLength": ("is shorter than {}", "at least {}", "character"),
    "maxLength": ("is longer than {}", "at most {}", "character"),
    "minItems": ("has fewer than {}", "at least {}", "item"),
    "maxItems": ("has more than {}", "at most {}", "item"),
    "minProperties": ("has fewer than {}", "at least {}", "key"),
    "maxProperties": ("has more than {}", "at most {}", "key"),
}
_RANGES = {
    "minimum": ("is less than the minimum of {}", "≥ {}"),
    "maximum": ("is greater than the maximum of {}", "≤ {}"),
    "exclusiveMinimum": ("is less than or equal to the minimum of {}", "> {}"),
    "exclusiveMaximum": ("is greater than or equal to the maximum of {}", "< {}"),
    "multipleOf": ("is not a multiple of {}", "a multiple of {}"),
}


def type_name(value: Any) -> str:
    if isinstance(value, float) and value - value != 0.0:
        return f"{value!r} (not a JSON number)"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def message_of(error: Any) -> str:
    """What is wrong, in words, with the value shown bounded (never the validator's
    message, which dumps the whole value)."""
    kind = error.kind
    name = kind.name
    value = shown(error.instance)
    limit = getattr(kind, "limit", None)
    if name in _LIMITS:
        words, _, unit = _LIMITS[name]
        return f"{value} {words.format(plural(int(limit or 0), unit))}"
    if name in _RANGES:
        return f"{value} {_RANGES[name][0].format(getattr(kind, 'multiple_of', limit))}"
    special = {
        "pattern": lambda: f"{value} does not match {shown(getattr(kind, 'pattern', ''))}",
        "format": lambda: f'{value} is not a "{getattr(kind, "format", "")}"',
        "const": lambda: (
            f"{shown(getattr(kind, 'expected_value', None))} was expected, got {value}"
        ),
        "enum": lambda: (
            f"{value} is not one of {options_shown(listed(getattr(kind, 'options', None)))}"
        ),
        "type": lambda: (
            f"{value} is not of type "
            + " or ".join(str(t) for t in listed(getattr(kind, "types", None)))
        ),
        "required": lambda: f"missing key {key_shown(getattr(kind, 'property', ''))}",
        "not": lambda: f"{value} matches the schema under 'not', which it must not",
        "contains": lambda: f"{value}: {_contains(error)}",
        "uniqueItems": lambda: f"{value} has items that are not unique",
        "additionalItems": lambda: (
            f"{value} has more than {plural(int(limit or 0), 'item')} (no more are allowed)"
        ),
        "falseSchema": lambda: f"{value} is not allowed here (the schema is false)",
        "propertyNames": lambda: f"key name {message_of(kind.error)}",
        "oneOf": lambda: (
            f"{value} fits "
            f"{'none' if not valid_branches(list(kind.context)) else 'more than one'}"
            " of the oneOf branches"
        ),
        "anyOf": lambda: f"{value} fits none of the anyOf branches",
    }
    if name in special:
        return special[name]()
    if name in ("additionalProperties", "unevaluatedProperties", "unevaluatedItems"):
        unexpected = list(getattr(kind, "unexpected", []) or [])
        what = "items" if name == "unevaluatedItems" else "keys"
        return f"unexpected {what}: {options_shown(unexpected, 5)}"
    return f"{value} does not satisfy '{name}'"


def keyword_of(error: Any) -> str:
    path = list(error.schema_path)
    return str(path[-1]) if path else ""


def _contains(error: Any) -> str:
    keyword = keyword_of(error) or "contains"
    if keyword == "minContains":
        return "too few items match the 'contains' schema"
    if keyword == "maxContains":
        return "too many items match the 'contains' schema"
    return "no item matches the 'contains' schema"


def expected_of(name: str, kind: Any, error: Any) -> str | None:
    limit = getattr(kind, "limit", None)
    if name in _LIMITS and limit is not None:
        return _LIMITS[name][1].format(plural(int(limit), _LIMITS[name][2]))
    if name in _RANGES:
        bound = getattr(kind, "multiple_of", limit)
        return None if bound is None else _RANGES[name][1].format(bound)
    if name == "format":
        return f"a valid {getattr(kind, 'format', 'value')}"
    if name == "pattern":
        return f"text matching {cut_middle(str(getattr(kind, 'pattern', '')))}"
    if name == "const":
        return shown(getattr(kind, "expected_value", None))
    return None


def listed(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]
