"""Every contract file goes through the bounded reader (#17 item 5): size cap, depth limit,
duplicate
keys naming both lines (YAML and JSON), FIFOs and devices refused without blocking, a non-text
``$schema`` and YAML-only values (dates, ``.inf``) refused with a clear line — and nothing in a
contract makes any command exit 70 (internal error)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui.contracts.loading import check_contract_file, contract_from_schema
from tests.helpers.cli import gate_tui_in_root as gate_tui


def first_problem(path) -> str:
    contract, problems = check_contract_file(path)
    assert contract is None and problems
    return str(problems[0])


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", "[" * 25_000 + "]" * 25_000),
        ("deep.yaml", "[" * 25_000 + "]" * 25_000),
        ("deep2.json", '{"a":' * 200 + "{}" + "}" * 200),
    ],
    ids=["json-lists", "yaml-lists", "json-objects"],
)
def test_deep_nesting_is_refused_at_once(tmp_path, name, text) -> None:
    path = tmp_path / name
    path.write_text(text)
    message = first_problem(path)
    assert "nested" in message and "Recursion" not in message


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        (
            "d.yaml",
            "type: object\nproperties:\n  verdict: {enum: [NO_PASS]}\n  verdict: {type: string}\n",
            "duplicate key 'verdict' on lines 3 and 4",
        ),
        (
            "d.json",
            '{\n  "type": "object",\n  "properties": {\n    "verdict": {"enum": ["NO_PASS"]},\n   '
            ' "verdict": {"type": "string"}\n  }\n}\n',
            "duplicate key 'verdict' on lines 4 and 5",
        ),
        (
            "date.yaml",
            "type: object\nproperties:\n  day:\n    const: 2024-01-02\n",
            ":4: '2024-01-02' is a YAML timestamp",
        ),
        (
            "inf.yaml",
            "type: object\nproperties:\n  n:\n    maximum: .inf\n",
            ":4: .inf is not a JSON number",
        ),
        ("big.yaml", "type: object\nproperties:\n  n:\n    maximum: 1.0e+999\n", "out of range"),
        ("big.json", '{"type": "object", "maximum": 1e999}', "out of range"),
        (
            "key.yaml",
            "type: object\nproperties:\n  1: {type: string}\n",
            ":3: the key '1' is not text",
        ),
        ("bin.yaml", "type: object\ndescription: !!binary aGVsbG8=\n", "YAML binary"),
        ("nan.json", '{"type": "object", "maximum": NaN}', "NaN is out of range"),
        ("empty.yaml", "", "empty"),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 12 else None,
)
def test_values_json_has_not_are_refused_with_their_line(tmp_path, name, text, words) -> None:
    path = tmp_path / name
    path.write_text(text)
    assert words in first_problem(path)


@pytest.mark.timeout(30)
def test_fifos_and_devices_are_refused_without_blocking(tmp_path) -> None:
    fifo = tmp_path / "contract.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in first_problem(fifo)
    assert "not a regular file" in first_problem("/dev/zero")
    done = gate_tui("validate-contract", str(fifo), "/dev/null")
    assert done.returncode == 3 and done.stdout.count("not a regular file") == 2


def test_a_contract_over_the_size_cap_is_refused_before_reading(tmp_path) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"description": "' + "x" * (1024 * 1024) + '"}')
    assert "too large for a contract file" in first_problem(path)


@pytest.mark.parametrize(
    "content",
    ['{"$schema": 42}', '{"$schema": {"a": 1}, "type": "object"}', "$schema: [1]\ntype: object\n"],
)
def test_a_non_text_schema_line_is_a_clear_error_not_exit_70(tmp_path, content) -> None:
    path = tmp_path / ("c.yaml" if content.startswith("$") else "c.json")
    path.write_text(content)
    for args in (
        ("validate-contract", str(path)),
        ("check", "--contract", str(path), "-"),
        ("prompt", "--contract", str(path)),
    ):
        done = gate_tui(*args, stdin="{}")
        assert done.returncode == 3, (args, done.stdout, done.stderr)
        assert "$schema must be the text of a draft's meta-schema URI" in done.stdout + done.stderr
        assert "internal error" not in done.stdout + done.stderr


json_leaf = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
keywords = st.sampled_from(
    [
        "type",
        "$ref",
        "$schema",
        "$id",
        "id",
        "items",
        "properties",
        "required",
        "pattern",
        "enum",
        "allOf",
        "oneOf",
        "not",
        "if",
        "$defs",
        "definitions",
        "format",
        "x-gate-tui",
        "additionalProperties",
        "const",
    ]
)
schemas = st.recursive(
    json_leaf,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(keywords | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keywords, schemas, max_size=5))
def test_loading_any_json_value_as_a_contract_never_raises(schema) -> None:
    contract, problems = contract_from_schema(json.loads(json.dumps(schema)))
    assert (contract is None) == bool(problems)
    assert all("Error" not in problem.message for problem in problems), problems


def test_problems_are_capped_and_counted(tmp_path) -> None:
    path = tmp_path / "many.json"
    path.write_text(
        json.dumps(
            {"type": "object", "properties": {f"p{n}": {"type": "strin"} for n in range(500)}}
        )
    )
    contract, problems = check_contract_file(path)
    assert (
        contract is None
        and len(problems) == 201
        and problems[-1].message == "… and 300 more problems"
    )


def test_a_long_reference_cycle_is_one_short_line(tmp_path) -> None:
    chain = {f"d{n}": {"$ref": f"#/$defs/d{(n + 1) % 1000}"} for n in range(1000)}
    path = tmp_path / "chain.json"
    path.write_text(
        json.dumps({"type": "object", "$defs": chain, "properties": {"x": {"$ref": "#/$defs/d0"}}})
    )
    contract, problems = check_contract_file(path)
    assert contract is None and len(problems) == 1
    assert "(1000 steps)" in problems[0].message and len(problems[0].message) < 400
