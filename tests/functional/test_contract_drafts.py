"""Contracts of every draft (#21 items 1, 5, 6, 8): each draft's own semantics chosen by
``$schema``,
the assumed draft and its warning, meta-schema problems in each draft's terms with hints, the
validator's own regex dialect, object roots only, and the cache of checked contract texts.

The schemas in tests/contract_schemas are shaped like real ones: a JSON Schema Store draft-04
file, a draft-07 schema with definitions, ``$id`` anchors and tuple ``items``, and a
SARIF-like draft-07 log schema made of references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate_tui.contracts import meta_check
from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import LoadOptions, check_contract_file, contract_from_schema

SCHEMAS = Path(__file__).resolve().parents[1] / "contract_schemas"


def load(path: Path, **options):
    contract, problems = check_contract_file(path, LoadOptions(**options))
    assert contract is not None, "\n".join(map(str, problems))
    return contract


def problems_of(schema: dict, tmp_path: Path, name: str = "c.json", **options) -> list[str]:
    path = tmp_path / name
    path.write_text(json.dumps(schema, indent=2))
    contract, problems = check_contract_file(path, LoadOptions(**options))
    assert contract is None
    return [str(problem) for problem in problems]


def valid(contract, value) -> bool:
    return check_contract(json.dumps(value), contract).ok


# --- each draft, its own semantics ------------------------------------------------------


def test_a_schema_store_draft_04_schema_loads_with_draft_04_semantics() -> None:
    contract = load(SCHEMAS / "schemastore_draft04.json")
    assert contract.draft == 4 and contract.warnings == ()
    good = {"version": "1.0", "tasks": {"build": {"command": "make", "timeout": 60}}}
    assert valid(contract, good)
    # draft-04's boolean exclusiveMaximum: 3600 is the maximum, excluded
    assert not valid(
        contract, {"version": "1.0", "tasks": {"build": {"command": "make", "timeout": 3600}}}
    )
    assert not valid(
        contract, {"version": "1.0", "tasks": {"build": {"command": "make", "shell": True}}}
    )


def test_a_draft_07_schema_keeps_tuples_anchors_and_ignores_siblings_of_ref() -> None:
    contract = load(SCHEMAS / "draft07_definitions.json")
    assert contract.draft == 7
    assert valid(contract, {"name": "home", "start": [52.5, 13.4], "stops": [[48.1, 11.6]]})
    assert not valid(contract, {"name": "home", "start": [52.5, 213.4]})  # the tuple's second place
    assert not valid(contract, {"name": "home", "start": [52.5, 13.4, 0]})  # additionalItems: false
    # "$ref" with a sibling "type": integer — draft-07 ignores the sibling, so a string name passes
    assert valid(contract, {"name": "x" * 40, "start": [0, 0]})
    assert not valid(contract, {"name": "x" * 41, "start": [0, 0]})


def test_the_same_schema_without_schema_line_is_2020_12_and_says_so(tmp_path) -> None:
    schema = json.loads((SCHEMAS / "draft07_definitions.json").read_text())
    del schema["$schema"]
    found = problems_of(schema, tmp_path)
    text = "\n".join(found)
    assert (
        "/definitions/point/items:" in text and '"prefixItems"' in text
    )  # the hint where 07 meets 2020-12
    assert '"$anchor": "point"' in text
    assert (
        "read as JSON Schema 2020-12" in text
        and "items as an array" in text
        and "--draft 7" in text
    )
    # said the other way, it loads as draft-07: by --draft, or by the contract's own block
    assert load(tmp_path / "c.json", draft=7).draft == 7
    schema["x-gate-tui"] = {"draft": 7}
    (tmp_path / "b.json").write_text(json.dumps(schema))
    assert load(tmp_path / "b.json").draft == 7


def test_a_2020_12_reading_applies_siblings_of_ref_and_warns_once(tmp_path) -> None:
    schema = {
        "type": "object",
        "$defs": {"short": {"type": "string", "maxLength": 5}},
        "properties": {"code": {"$ref": "#/$defs/short", "pattern": "^[A-Z]+$"}},
    }
    (tmp_path / "c.json").write_text(json.dumps(schema))
    contract = load(tmp_path / "c.json")
    assert contract.draft == 20 and len(contract.warnings) == 1
    assert "$ref with sibling keywords at /properties/code/$ref" in contract.warnings[0]
    assert valid(contract, {"code": "ABC"}) and not valid(contract, {"code": "abc"})
    assert load(tmp_path / "c.json", draft=7).warnings == ()  # a draft was given: nothing assumed
    assert valid(
        load(tmp_path / "c.json", draft=7), {"code": "abc"}
    )  # draft-07 ignores the sibling


def test_a_draft_given_for_a_contract_that_declares_one_is_ignored_with_a_warning() -> None:
    contract = load(SCHEMAS / "schemastore_draft04.json", draft=7)
    assert contract.draft == 4 and contract.warnings == (
        "--draft draft-07 is ignored: the contract's $schema says draft-04",
    )


def test_draft_06_and_2019_09_are_read_in_their_own_terms(tmp_path) -> None:
    six = {
        "$schema": "http://json-schema.org/draft-06/schema#",
        "type": "object",
        "properties": {"n": {"exclusiveMaximum": 10}},
    }
    (tmp_path / "six.json").write_text(json.dumps(six))
    contract = load(tmp_path / "six.json")
    assert contract.draft == 6 and valid(contract, {"n": 9}) and not valid(contract, {"n": 10})
    nineteen = {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "type": "object",
        "properties": {"pair": {"items": [{"type": "string"}, {"type": "integer"}]}},
        "dependentRequired": {"a": ["b"]},
    }
    (tmp_path / "nineteen.json").write_text(json.dumps(nineteen))
    contract = load(tmp_path / "nineteen.json")
    assert contract.draft == 19
    assert valid(contract, {"pair": ["x", 1]}) and not valid(contract, {"pair": [1, "x"]})
    assert not valid(contract, {"a": 1})


@pytest.mark.parametrize(
    ("declared", "draft"),
    [
        ("http://json-schema.org/draft-04/schema#", 4),
        ("http://json-schema.org/draft-07/schema", 7),
        ("https://json-schema.org/draft-07/schema#", 7),
        ("https://json-schema.org/draft/2020-12/schema", 20),
    ],
)
def test_schema_lines_as_written_in_the_wild(declared, draft) -> None:
    contract, problems = contract_from_schema({"$schema": declared, "type": "object"})
    assert contract is not None and contract.draft == draft, problems


def test_meta_schema_problems_speak_each_drafts_terms(tmp_path) -> None:
    found = "\n".join(
        problems_of(
            {"type": "object", "properties": {"n": {"maximum": 5, "exclusiveMaximum": True}}},
            tmp_path,
        )
    )
    assert "since draft-06 it is a number" in found and "/properties/n/exclusiveMaximum" in found
    four = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {"n": {"exclusiveMinimum": 3}},
    }
    assert "in draft-04" in "\n".join(problems_of(four, tmp_path))
    typo = "\n".join(problems_of({"type": "objekt"}, tmp_path))
    assert "is not a JSON Schema type" in typo and "anyOf" not in typo
    seven = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": ["object", "object"],
        "items": 5,
        "dependencies": {"a": "b"},
    }
    found = "\n".join(problems_of(seven, tmp_path))
    assert (
        "lists a type twice" in found and '"items" must be a schema or a list of schemas' in found
    )
    assert (
        'each entry of "dependencies" is a schema or a list of property names' in found
        and "anyOf" not in found
    )


def test_every_meta_problem_is_listed_once_with_its_path(tmp_path) -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"items": [{"type": "string"}]},
            "b": {"minLength": -1},
            "c": {"type": "strin"},
        },
    }
    found = problems_of(schema, tmp_path)
    located = [line for line in found if ": /properties/" in line]
    assert len(located) == 3, (
        found
    )  # 2020-12's $dynamicRef routes reach the items array 8 times: listed once


@pytest.mark.parametrize(
    "declared",
    [
        42,
        None,
        ["http://json-schema.org/draft-07/schema#"],
        "http://json-schema.org/draft-03/schema#",
        "urn:nope",
    ],
)
def test_a_schema_line_that_names_no_known_draft_is_one_clear_problem(tmp_path, declared) -> None:
    found = problems_of({"$schema": declared, "type": "object"}, tmp_path)
    assert any("/$schema:" in line and ("draft" in line) for line in found), found
    assert not any("Error" in line for line in found)


# --- the validator's own regex dialect (#21 item 6) ------------------------------------


def test_patterns_are_checked_with_the_validators_regex_engine(tmp_path) -> None:
    ok = {
        "type": "object",
        "properties": {"word": {"pattern": r"^\p{Letter}+$"}, "ctl": {"pattern": r"\cC"}},
        "patternProperties": {r"^\p{Lu}": {}},
    }
    (tmp_path / "ok.json").write_text(json.dumps(ok))
    contract = load(tmp_path / "ok.json")
    assert valid(contract, {"word": "Ünïcode"}) and not valid(contract, {"word": "abc1"})
    found = "\n".join(
        problems_of(
            {
                "type": "object",
                "properties": {"a": {"pattern": "(unclosed"}},
                "patternProperties": {"[": {}},
            },
            tmp_path,
        )
    )
    assert (
        "/properties/a/pattern:" in found
        and '"(unclosed" is not a regular expression the validator can run' in found
    )
    assert 'the key "[" is not a regular expression' in found


def test_the_meta_regex_check_agrees_with_the_compiler() -> None:
    import jsonschema_rs

    for pattern in [
        r"\p{Letter}",
        r"\cC",
        r"(?<=a)b",
        "[",
        "a{2,1}",
        r"\Z",
        "(?P<x>a)",
        "[^]",
        r"\1(a)",
        "(?i)a",
    ]:
        try:
            jsonschema_rs.validator_for({"pattern": pattern})
            compiles = True
        except Exception:
            compiles = False
        assert meta_check.engine_accepts(pattern) == compiles, pattern
        assert (
            contract_from_schema({"type": "object", "properties": {"a": {"pattern": pattern}}})[0]
            is not None
        ) == compiles, pattern


# --- roots of any type load (#31 item 3; #21 refused them); a root admitting nothing does not


@pytest.mark.parametrize(
    ("schema", "want", "reply", "value"),
    [
        (
            {"type": "array", "items": {"type": "object"}},
            "array",
            'Here:\n```json\n[{"a": 1},]\n```',
            [{"a": 1}],
        ),
        ({"type": "string"}, "any", '"hello"', "hello"),
        ({"type": ["number", "integer"]}, "any", "42", 42),
        (
            {"$ref": "#/$defs/list", "$defs": {"list": {"type": "array"}}},
            "any",
            "Sure: [1, 2, 3]",
            [1, 2, 3],
        ),
    ],
)
def test_a_root_of_any_type_loads_and_reads_its_replies(schema, want, reply, value) -> None:
    from gate_tui.contracts.checking import check_contract

    contract, problems = contract_from_schema(schema)
    assert contract is not None, problems
    assert contract.want == want
    result = check_contract(reply, contract)
    assert result.ok and result.value == value, result


@pytest.mark.parametrize("schema", [{"not": {}}, {"enum": []}])
def test_a_root_no_reply_can_satisfy_is_refused_in_one_line(tmp_path, schema) -> None:
    found = problems_of(schema, tmp_path)
    assert len(found) == 1 and "admits nothing" in found[0]


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object"},
        {"type": ["object", "null"]},
        {"oneOf": [{"type": "object"}]},
        {"properties": {}},
    ],
)
def test_object_roots_load(schema) -> None:
    assert contract_from_schema(schema)[0] is not None


# --- the SARIF-like, $ref-heavy schema ------------------------------------------------------


def test_a_sarif_like_reference_heavy_schema_loads_and_checks_deep_values() -> None:
    contract = load(SCHEMAS / "sarif_like.json")
    log = {
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "lint",
                        "rules": [{"id": "R1", "shortDescription": {"text": "t"}}],
                    }
                },
                "results": [
                    {
                        "ruleId": "R1",
                        "message": {"text": "m"},
                        "locations": [
                            {
                                "physicalLocation": {
                                    "artifactLocation": {"uri": "a.py"},
                                    "region": {"startLine": 3},
                                }
                            }
                        ],
                    }
                ],
            }
        ],
    }
    assert valid(contract, log)
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = 0
    result = check_contract(json.dumps(log), contract)
    assert not result.ok and any(
        error.path.endswith("/region/startLine") for error in result.errors
    )


# --- formats: enforced, and said once per contract -----------------------------------------


def test_formats_are_enforced_and_validate_contract_says_so_once_per_contract(tmp_path) -> None:
    from tests.helpers.cli import gate_tui_in_root as gate_tui

    contract = load(SCHEMAS / "schemastore_draft04.json")
    assert not valid(contract, {"version": "1.0", "tasks": {}, "homepage": "not a uri"})
    done = gate_tui(
        "validate-contract",
        str(SCHEMAS / "schemastore_draft04.json"),
        str(SCHEMAS / "sarif_like.json"),
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("formats are enforced") == 2
    assert "JSON Schema draft-04" in done.stdout and "(this contract uses: uri)" in done.stdout


# --- the cache (#21 item 8) -------------------------------------------------------------


def test_a_contract_loaded_again_unchanged_comes_from_the_cache(tmp_path, monkeypatch) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("type: object\nproperties:\n  n: {type: integer}\n")
    first = load(path)
    calls = []
    original = meta_check.meta_problems
    monkeypatch.setattr(
        meta_check, "meta_problems", lambda *args: calls.append(args) or original(*args)
    )
    again = load(path)
    assert (
        calls == []
        and again.schema == first.schema
        and valid(again, {"n": 1})
        and not valid(again, {"n": "1"})
    )
    path.write_text("type: object\nproperties:\n  n: {type: string}\n")
    changed = load(path)
    assert len(calls) == 1 and valid(changed, {"n": "1"})
    load(path, draft=7)  # another --draft is another entry
    assert len(calls) == 2


def test_batch_workers_read_the_contract_as_the_same_draft_with_its_folder(tmp_path) -> None:
    from tests.helpers.cli import gate_tui_in_root as gate_tui

    (tmp_path / "common.json").write_text(
        json.dumps({"$defs": {"code": {"type": "string", "maxLength": 3}}})
    )
    (tmp_path / "c.json").write_text(
        json.dumps(
            {
                "type": "object",
                "properties": {"p": {"items": [{"$ref": "common.json#/$defs/code"}]}},
            }
        )
    )
    lines = [
        json.dumps({"id": n, "reply": json.dumps({"p": ["abcd" if n % 2 else "ab"]})})
        for n in range(8)
    ]
    (tmp_path / "in.jsonl").write_text("\n".join(lines) + "\n")
    done = gate_tui(
        "check",
        "--contract",
        str(tmp_path / "c.json"),
        "--draft",
        "7",
        "--jsonl",
        str(tmp_path / "in.jsonl"),
        "-j",
        "2",
        "-q",
    )
    assert done.returncode == 2, done.stderr
    assert [json.loads(line)["ok"] for line in done.stdout.splitlines()] == [
        n % 2 == 0 for n in range(8)
    ]
