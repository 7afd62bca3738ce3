"""Contract errors that say what is wrong and stay bounded: the closest branch of a failed
``oneOf``/``anyOf`` with its own errors, a ``oneOf`` fitting two branches named, values cut
in the middle with their length (never the value dumped), enum options shown as a few and a
count, and at most 200 errors then one record counting the rest (gate mode's cap)."""

from __future__ import annotations

import json

import pytest

from gate_tui.contracts.checking import check_contract, check_value
from gate_tui.contracts.loading import contract_from_schema
from gate_tui.contracts.results import MAX_REPORTED, ContractResult

STEP = {
    "title": "Step",
    "type": "object",
    "additionalProperties": False,
    "required": ["type", "name", "seconds"],
    "properties": {
        "type": {"const": "step"},
        "name": {"type": "string", "maxLength": 20},
        "seconds": {"type": "integer", "minimum": 0},
    },
}
GATE = {
    "type": "object",
    "required": ["type", "question"],
    "properties": {"type": {"const": "gate"}, "question": {"type": "string"}},
}
PLAN = {
    "$defs": {"Step": STEP, "Gate": GATE},
    "type": "object",
    "properties": {
        "items": {
            "type": "array",
            "items": {"oneOf": [{"$ref": "#/$defs/Gate"}, {"$ref": "#/$defs/Step"}]},
        }
    },
}


def contract(schema: dict):
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems
    return loaded


def codes(result: ContractResult) -> list[tuple[str, str]]:
    return [(error.code, error.path) for error in result.errors]


def test_the_discriminator_picks_the_branch_and_its_own_errors_are_listed_at_their_paths() -> None:
    # The Step has 2 mistakes, the Gate branch "only" 2 as well (wrong const, missing question):
    # the `type: "step"` discriminator decides, not the count.
    result = check_value(
        {"items": [{"type": "step", "name": "boil", "seconds": -5, "colour": "red"}]},
        contract(PLAN),
    )
    assert codes(result) == [
        ("no_branch_matched", "/items/0"),
        ("invalid_value", "/items/0/seconds"),
        ("extra_key", "/items/0/colour"),
    ]
    head = result.errors[0]
    assert "none of the 2 branches of oneOf" in head.message and "branch 2 (Step)" in head.message
    assert head.expected == "exactly one of: branch 1 (Gate), branch 2 (Step)"
    assert result.errors[1].message == "-5 is less than the minimum of 0"


def test_without_a_discriminator_the_branch_with_fewest_errors_wins() -> None:
    schema = {
        "anyOf": [
            {"type": "object", "required": ["a", "b", "c"]},
            {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}},
        ]
    }
    result = check_value({"a": "x"}, contract(schema))
    assert codes(result) == [("no_branch_matched", ""), ("invalid_type", "/a")]
    assert "none of the 2 branches of anyOf" in result.errors[0].message and result.errors[
        0
    ].expected.startswith("at least one of")


def test_a_branch_wanting_another_type_is_farthest_even_with_one_error() -> None:
    schema = {
        "oneOf": [
            {"type": "string"},
            {"type": "object", "required": ["a", "b"], "properties": {"c": {"type": "integer"}}},
        ]
    }
    result = check_value({"c": "no"}, contract(schema))
    assert codes(result) == [
        ("no_branch_matched", ""),
        ("missing_key", "/a"),
        ("missing_key", "/b"),
        ("invalid_type", "/c"),
    ]
    assert "branch 2 (object)" in result.errors[0].message


def test_nested_combinators_recurse_into_the_closest_branch() -> None:
    inner = {
        "oneOf": [
            {
                "type": "object",
                "properties": {"kind": {"const": "a"}, "n": {"type": "integer"}},
                "required": ["kind"],
            },
            {"type": "object", "properties": {"kind": {"const": "b"}}, "required": ["kind"]},
        ]
    }
    schema = {"type": "object", "properties": {"x": {"anyOf": [{"type": "string"}, inner]}}}
    result = check_value({"x": {"kind": "a", "n": "1"}}, contract(schema))
    assert codes(result) == [
        ("no_branch_matched", "/x"),
        ("no_branch_matched", "/x"),
        ("invalid_type", "/x/n"),
    ]


def test_one_of_with_two_matching_branches_names_both() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {
                "oneOf": [{"type": "integer", "title": "Count"}, {"minimum": 0}, {"type": "string"}]
            }
        },
    }
    result = check_value({"n": 3}, contract(schema))
    assert codes(result) == [("invalid_value", "/n")]
    message = result.errors[0].message
    assert (
        "fits 2 of the 3 branches of oneOf" in message
        and "branch 1 (Count) and branch 2" in message
        and "branch 3" not in message
    )


def test_no_message_is_the_instance_dumped_and_cut() -> None:
    big = {
        "type": "step",
        "name": "x" * 5000,
        "seconds": 1,
        **{f"k{i}": "v" * 100 for i in range(50)},
    }
    result = check_value({"items": [big]}, contract(PLAN))
    for error in result.errors:
        for text in (error.message, error.actual or "", error.expected or ""):
            assert len(text) < 400, text
            assert not text.endswith("…") or "(" in text  # a cut always says the size
    name = next(error for error in result.errors if error.path == "/items/0/name")
    assert "(5,000 characters) is longer than 20 characters" in name.message
    assert name.message.startswith('"xxxx') and "…" in name.message


def test_rule_details_use_bounded_messages() -> None:
    schema = {
        "type": "object",
        "if": {"required": ["a"]},
        "then": {"properties": {"b": {"maxLength": 1}}},
        "description": "b is short when a is there",
    }
    result = check_value({"a": 1, "b": "y" * 10_000}, contract(schema))
    assert codes(result) == [("rule_failed", "/b")]
    assert "(10,000 characters) is longer than 1 character" in result.errors[0].actual
    assert len(result.errors[0].actual) <= 400


def test_a_huge_enum_shows_its_first_options_and_a_count() -> None:
    schema = {
        "type": "object",
        "properties": {"e": {"enum": [f"option-{i}" for i in range(60_000)]}},
    }
    result = check_value({"e": "nope"}, contract(schema))
    (error,) = result.errors
    assert error.expected.startswith('one of "option-0", "option-1"') and error.expected.endswith(
        "… (60,000 options)"
    )
    assert len(error.model_dump_json()) < 500


def test_a_long_key_is_cut_in_messages_but_its_path_stays_exact() -> None:
    key = "k" * 1_000_000
    result = check_value(
        {key: 1},
        contract({"type": "object", "properties": {"a": {}}, "additionalProperties": False}),
    )
    (error,) = result.errors
    assert error.path == "/" + key  # a program can still find the key
    assert (
        "(1,000,000 characters)" in error.message
        and len(error.message) < 200
        and len(error.actual) < 200
    )


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "additionalProperties": False},
        {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
    ],
)
def test_errors_stop_at_200_then_one_record_counts_the_rest(schema) -> None:
    value = {f"extra{i}": i for i in range(420_00)}
    result = check_value(value, contract(schema))
    assert len(result.errors) == MAX_REPORTED + 1
    assert all(error.code == "extra_key" for error in result.errors[:MAX_REPORTED])
    assert result.errors[0].path == "/extra0"  # each key at its own path, even without properties
    last = result.errors[-1]
    assert (
        last.path == ""
        and last.message
        == f"and {42_000 - MAX_REPORTED:,} more errors (only the first {MAX_REPORTED} are listed)"
    )


def test_the_cap_covers_every_kind_of_error_and_text_replies() -> None:
    schema = {
        "type": "object",
        "properties": {"xs": {"type": "array", "items": {"type": "integer"}}},
    }
    text = json.dumps({"xs": ["a"] * 5000})
    result = check_contract(text, contract(schema))
    assert len(result.errors) == MAX_REPORTED + 1 and result.errors[-1].message.startswith(
        "and 4,800 more errors"
    )
    assert result.errors[-1].code == "invalid_type"
    rules = {
        "type": "object",
        "properties": {
            "xs": {
                "type": "array",
                "items": {
                    "if": {"type": "string"},
                    "then": {"maxLength": 0},
                    "description": "no text",
                },
            }
        },
    }
    many = check_value(
        {"xs": ["a"] * 500}, contract(rules)
    )  # a rule under items: one record per item, capped
    assert len(many.errors) == MAX_REPORTED + 1 and codes(many)[:2] == [
        ("rule_failed", "/xs/0"),
        ("rule_failed", "/xs/1"),
    ]
    assert many.errors[-1].code == "rule_failed" and many.errors[-1].message.startswith(
        "and 300 more errors"
    )


def test_a_rule_is_one_error_per_value_it_applies_to_with_its_failures_bounded() -> None:
    rule = {
        "description": "a closed order has no open lines",
        "if": {"properties": {"state": {"const": "closed"}}, "required": ["state"]},
        "then": {"properties": {"lines": {"items": {"properties": {"open": {"const": False}}}}}},
    }
    schema = {
        "$defs": {"Order": {"type": "object", "allOf": [rule]}},
        "type": "object",
        "properties": {"orders": {"type": "array", "items": {"$ref": "#/$defs/Order"}}},
    }
    orders = [
        {"state": "closed", "lines": [{"open": True}] * 8},
        {"state": "open", "lines": [{"open": True}]},
        {"state": "closed", "lines": [{"open": False}, {"open": True}]},
    ]
    result = check_value({"orders": orders}, contract(schema))
    assert codes(result) == [
        ("rule_failed", "/orders/0/lines"),
        ("rule_failed", "/orders/2/lines/1/open"),
    ]
    first = result.errors[0]
    assert (
        first.message == "rule broken: a closed order has no open lines"
    )  # named through the $ref
    assert first.actual.count("was expected") == 5 and first.actual.endswith(
        "; and 3 more failures"
    )


def test_tuple_limits_say_which_item_and_how_many() -> None:
    draft7 = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"t": {"items": [{"type": "integer"}], "additionalItems": False}},
    }
    result = check_value({"t": [1, 2, 3]}, contract(draft7))
    assert [(e.code, e.path, e.message) for e in result.errors] == [
        ("invalid_value", "/t", "[1,2,3] has more than 1 item (no more are allowed)")
    ]
    closed = {"type": "object", "properties": {"t": {"prefixItems": [{}], "items": False}}}
    result = check_value({"t": [1, "two"]}, contract(closed))
    assert [(e.code, e.path, e.message) for e in result.errors] == [
        ("invalid_value", "/t/1", "item 1 is not allowed here (the array allows no more items)")
    ]
