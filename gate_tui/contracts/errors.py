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
  mistake to the reader, not a cascade of keyword failures);
* a ``oneOf`` / ``anyOf`` no branch of which fits → ONE ``no_branch_matched`` at the value
  (how many branches were tried, which came closest) followed by the CLOSEST branch's own
  errors at their own paths (:mod:`gate_tui.contracts.combinators` picks it); a ``oneOf``
  that fits several branches → ``invalid_value`` naming them.

Messages never dump the value: :mod:`gate_tui.contracts.wording` bounds every value, key
and option list shown, and :class:`~gate_tui.contracts.results.ErrorList` bounds their
number (the first 200, then one record counting the rest).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from gate_tui.contracts.combinators import branch_name, closest_branch, schema_at, valid_branches
from gate_tui.contracts.keyword_words import expected_of, keyword_of, listed, message_of, type_name
from gate_tui.contracts.loading import Contract
from gate_tui.contracts.results import ContractError, ErrorList, pointer
from gate_tui.contracts.splitting import Split, find_split
from gate_tui.contracts.wording import cut_middle, key_shown, options_shown, plural, shown

_ERROR = ContractError
_CONTAINERS = {"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
_NAMED_STEPS = {"properties", "patternProperties", "prefixItems"}
_NAMED = {"dependentSchemas", "$defs", "definitions"}  # followed by a name, but the value stays
_STEPS = {
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "propertyNames",
}
_RULE_DETAILS = 5
"""Failures of one rule spelled out in its ``actual`` (the rest are counted)."""
def schema_errors(
    contract: Contract,
    value: Any,
    into: ErrorList | None = None,
    skip: frozenset[str] = frozenset(),
) -> list[ContractError]:
    """Every schema error of ``value``, in the validator's order, rules grouped, bounded.

    With ``into``, the errors are added to that list (a check's other errors share its
    bound) and its items are returned unfinished; ``skip`` holds paths already reported.
    """
    errors = into if into is not None else ErrorList()
    validator = contract.validator
    if not validator.is_valid(value):  # the common case costs one fast call
        collector = _Collector(contract, errors, skip, value)
        split = find_split(contract, value)
        if split is None or not _by_item(collector, split, value):
            for error in validator.iter_errors(value):
                collector.add(error)
        collector.close_rules()
    return errors.errors if into is not None else errors.finish()


def _by_item(collector: _Collector, split: Split, value: Any) -> bool:
    """Collect the errors of ``value`` with its big array checked item by item
    (:mod:`gate_tui.contracts.splitting`); False if it cannot be (validate it whole)."""
    failing = split.failing()
    first = next(failing, None)
    if first is None:
        return False
    inside = [*split.where, 0]
    before: list[Any] = []
    after: list[Any] = []
    seen = False
    for error in collector.contract.validator.iter_errors(split.probe(value, first)):
        mine = list(error.instance_path)[: len(inside)] == inside
        seen = seen or mine
        if not mine:
            (after if seen else before).append(error)
    if not seen:  # the two validators disagree: trust the whole one
        return False
    for error in before:
        collector.add(error)
    unexamined = 0
    for index in chain([first], failing):
        if collector.errors.room > 0 or split.cheap:
            for error in split.errors(index):
                collector.add(error)
        else:
            unexamined += 1
    for error in after:
        collector.add(error)
    collector.errors.unexamined(unexamined, pointer(split.where))
    return True


class _Collector:
    """Converts validator errors into ``errors``; a rule's slot waits for all its failures."""

    def __init__(
        self, contract: Contract, errors: ErrorList, skip: frozenset[str], value: Any
    ) -> None:
        self.contract = contract
        self.value = value
        self.errors = errors
        self.skip = skip
        self.rules: dict[tuple[Any, ...], list[Any]] = {}
        self.rule_slots: dict[tuple[Any, ...], int] = {}
        self.rule_more: dict[tuple[Any, ...], int] = {}

    def add(self, error: Any) -> None:
        rule = _rule_of(list(error.evaluation_path), list(error.instance_path))
        if rule is None:
            self._convert(error)
        elif rule in self.rules:
            failures = self.rules[rule]
            if len(failures) < _RULE_DETAILS:
                failures.append(error)
            else:
                self.rule_more[rule] = self.rule_more.get(rule, 0) + 1
        elif self.errors.room > 0:
            self.rules[rule] = [error]
            self.rule_slots[rule] = len(self.errors.errors)
            self.errors.errors.append(None)  # the rule's place, filled by close_rules
        else:
            self.errors.count(1, "rule_failed")

    def close_rules(self) -> None:
        for rule, slot in self.rule_slots.items():
            self.errors.errors[slot] = self._rule_error(rule)

    def emit(self, error: ContractError) -> None:
        if error.path not in self.skip:
            self.errors.add(error)

    def _convert(self, error: Any) -> None:
        kind = error.kind
        name = kind.name
        where = list(error.instance_path)
        path = pointer(where)
        if name in ("oneOf", "anyOf"):
            self._combinator(error, where)
        elif name == "required":
            key = str(kind.property)
            self.emit(
                _ERROR(
                    code="missing_key",
                    path=pointer([*where, key]),
                    message=f"missing key {key_shown(key)}",
                    expected=cut_middle(key),
                    actual=None,
                )
            )
        elif name in ("additionalProperties", "unevaluatedProperties") or (
            name == "falseSchema" and keyword_of(error) == "additionalProperties"
        ):
            # With no properties beside it, ``additionalProperties: false`` is reported as ONE
            # false-schema error at the object: every key of the object is then unexpected.
            keys = [
                str(key)
                for key in (getattr(kind, "unexpected", None) or _keys_at(self.value, where))
            ]
            shown_keys = keys[: max(self.errors.room, 0)]
            for key in shown_keys:
                self.emit(
                    _ERROR(
                        code="extra_key",
                        path=pointer([*where, key]),
                        message=f"unexpected key {key_shown(key)} (the contract does not allow it)",
                        expected=None,
                        actual=cut_middle(key),
                    )
                )
            self.errors.count(len(keys) - len(shown_keys), "extra_key")
        elif (
            name == "falseSchema" and where and isinstance(where[-1], int)
        ):  # "items": false past prefixItems
            self.emit(
                _ERROR(
                    code="invalid_value",
                    path=path,
                    message=(
                        f"item {where[-1]} is not allowed here (the array allows no more items)"
                    ),
                    expected=None,
                    actual=shown(error.instance),
                )
            )
        elif name == "falseSchema":
            key = where[-1] if where else ""
            self.emit(
                _ERROR(
                    code="extra_key",
                    path=path,
                    message=f"key {key_shown(key)} is not allowed here",
                    expected=None,
                    actual=cut_middle(str(key)),
                )
            )
        elif name == "type":
            expected = " or ".join(str(t) for t in listed(getattr(kind, "types", None)))
            # The validator's copy of the instance is JSON as it sees it: a value it cannot
            # represent (an infinity) arrives as null. Name the type of the real value.
            actual = type_name(_instance(self.value, where, error.instance))
            self.emit(
                _ERROR(
                    code="invalid_type",
                    path=path,
                    message=f"expected {expected}, got {actual}",
                    expected=expected or None,
                    actual=actual,
                )
            )
        elif name == "enum":
            expected = f"one of {options_shown(listed(getattr(kind, 'options', None)))}"
            self.emit(
                _ERROR(
                    code="invalid_value",
                    path=path,
                    message=f"{shown(error.instance)} is not one of the allowed values",
                    expected=expected,
                    actual=shown(error.instance),
                )
            )
        else:
            self.emit(
                _ERROR(
                    code="invalid_value",
                    path=path,
                    message=message_of(error),
                    expected=expected_of(name, kind, error),
                    actual=shown(error.instance),
                )
            )

    def _combinator(self, error: Any, where: list[Any]) -> None:
        branches = [list(errors) for errors in error.kind.context]
        keyword = list(error.schema_path)
        word = str(keyword[-1]) if keyword else error.kind.name

        def names(
            indexes: list[int],
        ) -> list[str]:  # named on demand: a oneOf may have thousands of branches
            return [branch_name(self.contract.schema, keyword, index) for index in indexes]

        listed = ", ".join(names(list(range(min(len(branches), 8))))) + (
            f", … ({len(branches):,} in all)" if len(branches) > 8 else ""
        )
        path = pointer(where)
        matched = valid_branches(branches)
        if matched:  # oneOf: more than one branch fits
            both = " and ".join(names(matched[:4])) + (" …" if len(matched) > 4 else "")
            counted = plural(len(branches), "branch", "branches")
            message = (
                f"fits {len(matched)} of the {counted} of {word}, {both}; exactly one must fit"
            )
            self.emit(
                _ERROR(
                    code="invalid_value",
                    path=path,
                    message=message,
                    expected=f"exactly one of: {listed}",
                    actual=shown(error.instance),
                )
            )
            return
        best = closest_branch(branches, len(where))
        need = "exactly" if word == "oneOf" else "at least"
        counted = plural(len(branches), "branch", "branches")
        message = (
            f"fits none of the {counted} of {word}; the closest is {names([best])[0]},"
            " whose errors follow"
        )
        self.emit(
            _ERROR(
                code="no_branch_matched",
                path=path,
                message=message,
                expected=f"{need} one of: {listed}",
                actual=shown(error.instance),
            )
        )
        for sub in branches[best]:
            self.add(sub)

    def _rule_error(self, rule: tuple[Any, ...]) -> ContractError:
        failures = self.rules[rule]
        paths = [list(error.instance_path) for error in failures]
        common = paths[0]
        for other in paths[1:]:
            size = 0
            while size < min(len(common), len(other)) and common[size] == other[size]:
                size += 1
            common = common[:size]
        name = _rule_name(self.contract.schema, rule[0])
        details = "; ".join(
            f"{pointer(list(error.instance_path)) or '/'}: {message_of(error)}"
            for error in failures
        )
        more = self.rule_more.get(rule, 0)
        if more:
            details += f"; and {plural(more, 'more failure')}"
        return _ERROR(
            code="rule_failed",
            path=pointer(common),
            message=f"rule broken: {cut_middle(name, 200)}",
            expected=cut_middle(name, 200),
            actual=cut_middle(details, 300),
        )


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


def _rule_of(schema_path: list[Any], instance_path: list[Any]) -> tuple[Any, ...] | None:
    """The rule a ``then``/``else`` failure belongs to, or None: the evaluation path of the
    ``if`` schema (through any ``$ref``) and the value it was applied to (a rule under
    ``items`` is one rule per item).

    The value's path is the failure's, less one step per keyword of the ``then`` subtree that
    moves into the value (``properties`` NAME, ``items``, ``prefixItems`` N…).
    """
    for index, part in enumerate(schema_path):
        if part in ("then", "else") and (index == 0 or schema_path[index - 1] not in _CONTAINERS):
            steps = _steps(schema_path[index + 1 :])
            where = (
                instance_path[: len(instance_path) - steps] if steps <= len(instance_path) else []
            )
            return tuple(schema_path[:index]), tuple(where)
    return None


def _steps(schema_path: list[Any]) -> int:
    steps = 0
    skip = False
    for part in schema_path:
        if skip:
            skip = False
            continue
        if part in _NAMED_STEPS or part in _NAMED:
            steps += part in _NAMED_STEPS
            skip = True  # the property name, pattern or index that follows
        elif part in _STEPS:
            steps += 1
    return steps


def _rule_name(schema: Any, rule: tuple[Any, ...]) -> str:
    node = schema_at(schema, list(rule))
    if isinstance(node, dict):
        for key in ("description", "title", "$comment"):
            if isinstance(node.get(key), str) and node[key].strip():
                return node[key].strip()
    return "the rule at " + (pointer(list(rule)) or "/")


def _keys_at(value: Any, where: list[Any]) -> list[str]:
    for part in where:
        if isinstance(value, dict):
            value = value.get(part)
        elif isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            value = value[part]
        else:
            return []
    return list(value) if isinstance(value, dict) else []
