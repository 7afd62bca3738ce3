"""Turn the validator's errors into :class:`ContractError` values with stable codes.

``jsonschema-rs`` reports every failing keyword with the instance path and the schema
path. The mapping, by keyword:

* ``required`` → one ``missing_key`` per missing key, at the key's own path;
* ``additionalProperties`` / ``unevaluatedProperties`` / a ``false`` property schema →
  one ``extra_key`` per unexpected key, at the key's path;
* ``type`` → ``invalid_type``;
* ``enum``, ``const``, lengths, ranges, item counts, ``pattern``, ``format``… → ``invalid_value``;
* anything inside the ``then`` / ``else`` of an ``if`` → ONE ``rule_failed`` per rule,
  named by the description of the schema holding the ``if`` (a cross-field rule is one
  mistake to the reader, not a cascade of keyword failures).
"""

from __future__ import annotations

import json
from typing import Any

from gate_tui.contracts.loading import Contract
from gate_tui.contracts.results import ContractError, pointer

_ERROR = ContractError
_CONTAINERS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
_TYPE_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def schema_errors(contract: Contract, value: Any) -> list[ContractError]:
    """Every schema error of ``value``, in the validator's order, rules grouped."""
    validator = contract.validator
    if validator.is_valid(value):  # the common case costs one fast call
        return []
    # Errors in the validator's order; a rule's slot holds its key until all its failures are known.
    slots: list[ContractError | tuple[Any, ...]] = []
    rules: dict[tuple[Any, ...], list[Any]] = {}
    for error in validator.iter_errors(value):
        rule = _rule_of(list(error.schema_path))
        if rule is None:
            slots.extend(_convert(error, value))
            continue
        if rule not in rules:
            rules[rule] = []
            slots.append(rule)
        rules[rule].append(error)
    return [_rule_error(contract, slot, rules) if isinstance(slot, tuple) else slot for slot in slots]


def _rule_of(schema_path: list[Any]) -> tuple[Any, ...] | None:
    """The schema path of the ``if`` schema whose ``then``/``else`` failed, or None."""
    for index, part in enumerate(schema_path):
        if part in ("then", "else") and (index == 0 or schema_path[index - 1] not in _CONTAINERS):
            return tuple(schema_path[:index])
    return None


def _rule_error(contract: Contract, rule: tuple[Any, ...], rules: dict[tuple[Any, ...], list[Any]]) -> ContractError:
    failures = rules[rule]
    paths = [list(error.instance_path) for error in failures]
    common = paths[0]
    for other in paths[1:]:
        size = 0
        while size < min(len(common), len(other)) and common[size] == other[size]:
            size += 1
        common = common[:size]
    name = _rule_name(contract.schema, rule)
    details = "; ".join(f"{pointer(list(error.instance_path)) or '/'}: {error.message}" for error in failures)
    return _ERROR(code="rule_failed", path=pointer(common), message=f"rule broken: {name}", expected=name, actual=_short(details, 300))


def _rule_name(schema: Any, rule: tuple[Any, ...]) -> str:
    node = schema
    for part in rule:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
            break
    if isinstance(node, dict):
        for key in ("description", "title", "$comment"):
            if isinstance(node.get(key), str) and node[key].strip():
                return node[key].strip()
    return "the rule at " + (pointer(list(rule)) or "/")


def _convert(error: Any, value: Any = None) -> list[ContractError]:
    kind = error.kind
    name = kind.name
    where = list(error.instance_path)
    path = pointer(where)
    if name == "required":
        key = str(kind.property)
        return [_ERROR(code="missing_key", path=pointer([*where, key]), message=f"missing key {key!r}", expected=key, actual=None)]
    if name in ("additionalProperties", "unevaluatedProperties"):
        keys = [str(key) for key in getattr(kind, "unexpected", [])]
        return [
            _ERROR(code="extra_key", path=pointer([*where, key]), message=f"unexpected key {key!r} (the contract does not allow it)", expected=None, actual=key)
            for key in keys
        ]
    if name == "falseSchema":
        key = where[-1] if where else ""
        return [_ERROR(code="extra_key", path=path, message=f"key {key!r} is not allowed here", expected=None, actual=str(key))]
    if name == "type":
        expected = " or ".join(str(t) for t in _listed(getattr(kind, "types", None)))
        # The validator's copy of the instance is JSON as the validator sees it: a value it
        # cannot represent (an infinity) arrives as null. Name the type of the real value.
        actual = _type_name(_instance(value, where, error.instance))
        return [_ERROR(code="invalid_type", path=path, message=f"expected {expected}, got {actual}", expected=expected or None, actual=actual)]
    if name == "enum":
        options = ", ".join(_short(json.dumps(option, ensure_ascii=False), 40) for option in _listed(getattr(kind, "options", None)))
        return [_ERROR(code="invalid_value", path=path, message=f"{_shown(error.instance)} is not one of the allowed values", expected=f"one of {options}", actual=_shown(error.instance))]
    return [_ERROR(code="invalid_value", path=path, message=_short(error.message, 300), expected=_expected(name, kind), actual=_shown(error.instance))]


def _expected(name: str, kind: Any) -> str | None:
    limit = getattr(kind, "limit", None)
    words = {
        "minLength": "at least {} characters",
        "maxLength": "at most {} characters",
        "minItems": "at least {} items",
        "maxItems": "at most {} items",
        "minProperties": "at least {} keys",
        "maxProperties": "at most {} keys",
        "minimum": "≥ {}",
        "maximum": "≤ {}",
        "exclusiveMinimum": "> {}",
        "exclusiveMaximum": "< {}",
        "multipleOf": "a multiple of {}",
    }
    if name in words and limit is not None:
        return words[name].format(limit)
    if name == "format":
        return f"a valid {getattr(kind, 'format', 'value')}"
    if name == "pattern":
        return f"text matching {getattr(kind, 'pattern', '')}"
    if name == "const":
        return _shown(getattr(kind, "expected_value", None))
    return None


def _instance(value: Any, where: list[Any], fallback: Any) -> Any:
    """The node of ``value`` at the instance path ``where`` (``fallback`` if it is not there)."""
    node = value
    for part in where:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return fallback
    return node


def _listed(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _type_name(value: Any) -> str:
    if isinstance(value, float) and value - value != 0.0:
        return f"{value!r} (not a JSON number)"
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _shown(value: Any) -> str:
    """A short JSON rendering of a value for messages (long values are cut)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return _short(text, 80)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
