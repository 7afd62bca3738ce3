"""Check one big array of a reply item by item, so a reply's errors cost what is listed.

``jsonschema-rs``'s ``iter_errors`` builds EVERY error, with every ``oneOf``/``anyOf``
branch's own errors, before it yields the first: 60,000 bad tool calls against a
2-branch contract took 25 s and 2 GB to list 200 of them. So when the reply's big array
hangs from the root through plain ``properties`` (no keyword on the way or on the array
that looks at the array as a whole or at a key other than its own), the checker:

1. validates the reply with the array cut to its first failing item (the errors before
   and after that item's are the errors of the rest of the reply, in the validator's order);
2. finds the failing items with the items subschema's own ``is_valid`` (fast), and builds
   the errors of failing items one at a time, with the paths of the whole reply, only while
   the list has room;
3. then counts the rest: exactly (converting each item's errors) when the contract has no
   ``oneOf``/``anyOf`` (linear and cheap), else as failing items not examined.

The errors listed are the ones a whole-reply ``iter_errors`` gives, in the same order.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator
from typing import Any

from gate_tui.contracts.loading import Contract
from gate_tui.contracts.results import pointer

SPLIT_FROM = 16
"""Arrays shorter than this are validated whole (little to gain in splitting)."""
_NOTES = {
    "title",
    "description",
    "$comment",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "x-gate-tui",
}
_ROOT = {"$schema", "$id", "$defs", "definitions"}
_OBJECT = {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "minProperties",
    "maxProperties",
}
_ARRAY = {"type", "items"}
_MAX_DEPTH = 8
_prepared: weakref.WeakKeyDictionary[Contract, tuple[Any, bool]] = weakref.WeakKeyDictionary()


class Split:
    """The big array found in a reply: where it is, its items' validator and schema path."""

    def __init__(
        self,
        where: list[Any],
        items: list[Any],
        validator: Any,
        schema_path: list[Any],
        cheap: bool,
    ) -> None:
        self.where = where
        self.items = items
        self.validator = validator
        self.schema_path = schema_path
        self.cheap = cheap
        """True when a failing item's errors can all be converted at small cost (no combinators)."""

    def probe(self, value: Any, index: int) -> Any:
        """``value`` with the array holding only its item ``index`` (copies along the path only)."""
        return _replaced(value, self.where, [self.items[index]])

    def failing(self) -> Iterator[int]:
        check = self.validator.is_valid
        return (index for index, item in enumerate(self.items) if not check(item))

    def errors(self, index: int) -> Iterator[Any]:
        """The item's errors as the whole reply's validator reports them (paths from the root)."""
        at = [*self.where, index]
        return (
            Shifted(error, at, self.schema_path)
            for error in self.validator.iter_errors(self.items[index])
        )


def find_split(contract: Contract, value: Any) -> Split | None:
    """The reply's big array that can be checked item by item, or None (validate it whole)."""
    if (
        contract.validator_map is None
        or contract.draft != 20
        or not isinstance(value, (dict, list))
    ):
        return None
    schema = contract.schema
    if not isinstance(schema, dict) or not set(schema) <= _OBJECT | _ARRAY | _NOTES | _ROOT:
        return None
    found = _walk(schema, value, [], [], 0)
    if found is None:
        return None
    where, items, schema_path = found
    try:
        validators, cheap = _prepare(contract)
        validator = validators.get("#" + pointer(schema_path))
    except Exception:  # noqa: BLE001 - a subschema the map cannot compile: validate the reply whole
        return None
    return None if validator is None else Split(where, items, validator, schema_path, cheap)


def _walk(
    node: Any, value: Any, where: list[Any], schema_path: list[Any], depth: int
) -> tuple[list[Any], list[Any], list[Any]] | None:
    if not isinstance(node, dict) or depth > _MAX_DEPTH:
        return None
    kinds = node.get("type")
    if isinstance(value, list):
        wants = kinds is None or kinds == "array" or (isinstance(kinds, list) and "array" in kinds)
        if (
            wants
            and len(value) >= SPLIT_FROM
            and isinstance(node.get("items"), dict)
            and set(node) <= _ARRAY | _NOTES | _ROOT
        ):
            return where, value, [*schema_path, "items"]
        return None
    if (
        not isinstance(value, dict)
        or not set(node) <= _OBJECT | _NOTES | _ROOT
        or not isinstance(node.get("properties"), dict)
    ):
        return None
    for key, sub in node["properties"].items():
        if isinstance(value.get(key), (dict, list)):
            found = _walk(
                sub, value[key], [*where, key], [*schema_path, "properties", key], depth + 1
            )
            if found is not None:
                return found
    return None


def _prepare(contract: Contract) -> tuple[Any, bool]:
    """The contract's subschema validators and whether it is free of combinators, once per
    contract."""
    known = _prepared.get(contract)
    if known is None:
        text = json.dumps(contract.schema, default=str)
        known = (contract.validator_map(), '"oneOf"' not in text and '"anyOf"' not in text)
        _prepared[contract] = known
    return known


def _replaced(value: Any, where: list[Any], new: Any) -> Any:
    if not where:
        return new
    head, *rest = where
    copy = dict(value)
    copy[head] = _replaced(value[head], rest, new)
    return copy


class Shifted:
    """A validator error of an item, with the paths it has when the whole reply is validated.

    The items validator's paths start at the item; a ``schema_path`` that went through a
    ``$ref`` is already the document's own location and stays as it is. Paths are made on
    demand: a ``oneOf`` of thousands of branches wraps thousands of errors, few of them read.
    """

    __slots__ = ("_error", "_at", "_schema")

    def __init__(self, error: Any, at: list[Any], schema: list[Any]) -> None:
        self._error = error
        self._at = at
        self._schema = schema

    @property
    def instance_path(self) -> list[Any]:
        return [*self._at, *self._error.instance_path]

    @property
    def evaluation_path(self) -> list[Any]:
        return [*self._schema, *self._error.evaluation_path]

    @property
    def schema_path(self) -> list[Any]:
        own = list(self._error.schema_path)
        through_ref = any(
            part in ("$ref", "$dynamicRef", "$recursiveRef") for part in self._error.evaluation_path
        )
        return own if through_ref else [*self._schema, *own]

    @property
    def instance(self) -> Any:
        return self._error.instance

    @property
    def kind(self) -> Any:
        return _Kind(self._error.kind, self._at, self._schema)


class _Kind:
    """The error's kind; the branch errors of a ``oneOf``/``anyOf`` are shifted too."""

    __slots__ = ("_kind", "_at", "_schema")

    def __init__(self, kind: Any, at: list[Any], schema: list[Any]) -> None:
        self._kind = kind
        self._at = at
        self._schema = schema

    @property
    def context(self) -> list[list[Shifted]]:
        return [
            [Shifted(error, self._at, self._schema) for error in branch]
            for branch in self._kind.context
        ]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._kind, name)
