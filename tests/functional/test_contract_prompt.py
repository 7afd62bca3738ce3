"""Prompts that fit: a referenced definition described once and named where used, required
keys held under ``allOf``/``$ref`` listed, ``patternProperties``/``additionalProperties``
maps described, the root's kind said (never "Its fields:" followed by nothing), the size
said and a warning past 8,000 characters naming the biggest parts; on real public schemas
(tests/data/schemas) the prompt stays within 2x the schema's own JSON size."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.contracts.loading import Contract
from gate_tui.contracts.prompting import PROMPT_WARN_AT, contract_prompt, prompt_report

ROOT = Path(__file__).resolve().parents[2]
REAL = sorted((Path(__file__).resolve().parents[1] / "data" / "schemas").glob("*.json"))
STEP = {
    "type": "object",
    "required": ["type", "name"],
    "properties": {
        "type": {"const": "step"},
        "name": {"type": "string"},
        "next": {"$ref": "#/$defs/Step"},
    },
}


def prompt(schema: dict) -> str:
    return contract_prompt(Contract(schema, "x.json"))


def test_a_definition_is_described_once_and_named_where_used() -> None:
    schema = {
        "$defs": {"Step": STEP},
        "type": "object",
        "required": ["first"],
        "properties": {
            "first": {"$ref": "#/$defs/Step"},
            "rest": {"type": "array", "items": {"$ref": "#/$defs/Step"}},
        },
    }
    text = prompt(schema)
    assert "- first (required): a Step, see below" in text
    assert "- rest (optional): array; each item a Step, see below" in text
    assert (
        text.count("\nStep: object") == 1 and text.count('- type (required): exactly "step"') == 1
    )
    assert "- next (optional): a Step, see below" in text  # the cycle is a name, not an expansion


def test_small_definitions_are_written_out_where_used() -> None:
    schema = {
        "$defs": {"mood": {"enum": ["calm", "angry"]}},
        "type": "object",
        "properties": {"mood": {"$ref": "#/$defs/mood"}},
    }
    text = prompt(schema)
    assert '- mood (optional): one of "calm", "angry"' in text and "Definitions" not in text


def test_required_keys_held_under_all_of_and_ref_are_listed() -> None:
    big = {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            **{f"k{i}": {"type": "integer"} for i in range(5)},
        },
    }
    schema = {
        "$defs": {"Base": big},
        "type": "object",
        "allOf": [
            {"$ref": "#/$defs/Base"},
            {"required": ["name"], "properties": {"name": {"type": "string", "minLength": 1}}},
        ],
    }
    text = prompt(schema)
    assert "- name (required): string; at least 1 characters" in text
    assert "- id (required): any value — as in a Base" in text
    assert "- every key of a Base, see below" in text and text.count("\nBase: object") == 1
    only_required = prompt({"type": "object", "required": ["a"], "allOf": [{"required": ["b"]}]})
    assert (
        "- a (required): any value" in only_required
        and "- b (required): any value" in only_required
    )


def test_maps_are_described_by_their_keys() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "additionalProperties": {"type": "number", "minimum": 0},
    }
    text = prompt(schema)
    assert "- any key matching `^x-`: string" in text and "- any other key: number; ≥ 0" in text
    scores = prompt(
        {
            "type": "object",
            "properties": {
                "scores": {"type": "object", "additionalProperties": {"type": "integer"}}
            },
        }
    )
    assert "- scores (optional): object\n  - any key: integer" in scores


@pytest.mark.parametrize(
    ("schema", "opening"),
    [
        (
            {"type": "array", "items": {"type": "string"}, "maxItems": 3},
            "Reply with exactly one JSON array (no other text is needed): array; each item "
            "string; at most 3 items.",
        ),
        (
            {"type": "string", "minLength": 2},
            "Reply with exactly one JSON string (no other text is needed): string; at least 2 "
            "characters.",
        ),
        (
            {
                "oneOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}},
                    {"type": "string"},
                ]
            },
            "Reply with exactly one JSON value (no other text is needed) of one of the shapes "
            "below.",
        ),
        (
            {"type": "object"},
            "Reply with exactly one JSON object (no other text is needed); it may have any keys.",
        ),
    ],
)
def test_the_opening_says_what_to_reply_and_never_lists_no_fields(
    schema: dict, opening: str
) -> None:
    text = prompt(schema)
    assert opening in text
    assert "Its fields:" not in text


def test_a_one_of_root_lists_its_shapes_with_their_fields() -> None:
    text = prompt(
        {
            "oneOf": [
                {"type": "object", "required": ["a"], "properties": {"a": {"type": "integer"}}},
                {"type": "string"},
            ]
        }
    )
    assert (
        "exactly one of these shapes:\n  - shape 1: object\n    - a (required): integer\n  - "
        "shape 2: string" in text
    )


def test_one_of_constants_is_written_as_one_list_with_each_meaning() -> None:
    schema = {
        "type": "object",
        "properties": {
            "eol": {
                "oneOf": [{"const": "lf", "description": "Line Feed"}, {"enum": ["crlf"]}],
                "description": "line ends",
            }
        },
    }
    text = prompt(schema)
    assert (
        '- eol (optional): one of "lf" (Line Feed), "crlf" — line ends\n' in text
        and "shape" not in text
    )


def test_the_report_says_the_size_and_warns_past_8000_naming_the_biggest_parts() -> None:
    small = prompt_report(
        Contract({"type": "object", "properties": {"a": {"type": "string"}}}, "x.json")
    )
    assert (
        small.size == len(small.text) and small.note == f"the prompt is {small.size:,} characters"
    )
    long_words = "word " * 400
    schema = {
        "$defs": {
            "Huge": {
                "type": "object",
                "description": long_words * 4,
                "properties": {"x": {"type": "string"}},
            }
        },
        "type": "object",
        "properties": {
            "big": {"type": "string", "description": long_words * 2},
            "small": {"type": "string"},
            "ref": {"$ref": "#/$defs/Huge"},
        },
    }
    report = prompt_report(Contract(schema, "x.json"))
    assert report.size > PROMPT_WARN_AT
    assert report.note.startswith(
        f"the prompt is {report.size:,} characters, over 8,000: the biggest parts are definition "
        f"Huge ("
    )
    assert "field big (" in report.note and "field small" not in report.note


@pytest.mark.parametrize("path", REAL, ids=lambda path: path.stem)
def test_real_schemas_fit_within_twice_their_size_and_list_every_root_requirement(
    path: Path,
) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    own = len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False))
    report = prompt_report(Contract(schema, str(path)))
    assert report.size <= 2 * own, (report.size, own)
    assert not re.search(r"Its fields:\n\n(\n|$)", report.text)
    root = (
        schema if "$ref" not in schema else schema["definitions"][schema["$ref"].rsplit("/", 1)[-1]]
    )
    for key in root.get("required", []):
        assert f"- {key} (required)" in report.text
    for name in re.findall(r"an? (\w[\w-]*), see below", report.text):
        assert report.text.count(f"\n{name}: ") == 1, (
            name
        )  # every named definition described exactly once


def test_prompt_command_prints_the_size_on_stderr() -> None:
    script = Path(sys.executable).with_name("gate-tui")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "gate_tui"]
    contract = ROOT / "sample_configs" / "contracts" / "llm_result_v1.yaml"
    done = subprocess.run(
        [*base, "prompt", "--contract", str(contract)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0
    assert done.stderr == f"gate-tui prompt: the prompt is {len(done.stdout):,} characters\n"
    assert (
        "- relationshipDeltas (optional): object — character id to a change between -100 and 100\n"
        "  - any key: number; ≥ -100; ≤ 100" in done.stdout
    )


_KEYS = st.sampled_from(
    [
        "type",
        "properties",
        "required",
        "items",
        "prefixItems",
        "allOf",
        "oneOf",
        "anyOf",
        "$ref",
        "enum",
        "const",
        "additionalProperties",
        "patternProperties",
        "description",
        "$defs",
        "minimum",
        "pattern",
        "a",
        "#",
    ]
)
_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=8),
    st.sampled_from(["#", "#/$defs/a", "#/$defs", "#/properties/a", "object", "#/allOf/0"]),
)
_SCHEMAS = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=5)),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_KEYS, _SCHEMAS, max_size=6))
def test_any_schema_shape_gives_a_prompt_and_never_raises(schema: dict) -> None:
    report = prompt_report(Contract(schema, "x.json"))
    assert report.size == len(report.text) and report.text.endswith("\n")
    assert not re.search(r"Its fields:\n\n(\n|$)", report.text)
