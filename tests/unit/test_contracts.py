"""Contract mode's library: every sample reply with its exact errors, every error collected,
the guardian's if/then rule, unknown keys at depth, non-JSON values, the envelope's shape,
contract files that are not valid schemas, and check_contract never raising."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.loading import (
    ContractLoadError,
    check_contract_file,
    contract_from_schema,
    load_contract,
    looks_like_contract,
)
from gate_tui.contracts.results import ContractResult, pointer, pointer_parts

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "sample_configs" / "contracts"
NAMES = ("analyst_plan", "architect_spec", "guardian_report", "llm_result_v1")


@pytest.fixture(scope="module")
def contracts() -> dict:
    return {name: load_contract(CONTRACTS / f"{name}.yaml") for name in NAMES}


def sample(contract, kind: str) -> str:
    return contract.sample_path(kind).read_text(encoding="utf-8")


def codes(result: ContractResult) -> list[tuple[str, str]]:
    return [(error.code, error.path) for error in result.errors]


EXPECTED = {
    ("analyst_plan", "lying"): [
        ("invalid_value", "/intent"),
        ("invalid_value", "/missing_info_questions"),
    ],
    ("analyst_plan", "broken"): [("invalid_json", "")],
    ("architect_spec", "lying"): [("invalid_value", "/response_format"), ("extra_key", "/notes")],
    ("architect_spec", "broken"): [("invalid_json", "")],
    ("guardian_report", "lying"): [("rule_failed", "/required_actions")],
    ("guardian_report", "broken"): [("invalid_json", "")],
    ("llm_result_v1", "lying"): [
        ("missing_key", "/emotion"),
        ("invalid_value", "/choices/0/id"),
        ("extra_key", "/choices/1/hint"),
        ("invalid_value", "/npcResponses/0/emotion"),
        ("invalid_value", "/relationshipDeltas/mira"),
        ("invalid_type", "/debug/tokenCount"),
    ],
    ("llm_result_v1", "broken"): [("invalid_json", "")],
}


@pytest.mark.parametrize("name", NAMES)
def test_good_replies_are_valid_without_repairs(contracts, name) -> None:
    result = check_contract(sample(contracts[name], "good"), contracts[name])
    assert (result.ok, result.errors, result.repairs, result.source) == (True, [], [], "fence")


@pytest.mark.parametrize("name", NAMES)
def test_repairable_replies_are_valid_and_say_what_was_repaired(contracts, name) -> None:
    text = sample(contracts[name], "repairable")
    result = check_contract(text, contracts[name])
    assert result.ok and result.errors == []
    assert result.repairs and {r.code for r in result.repairs} == {"trailing_comma"}
    lines = text.splitlines()
    for repair in result.repairs:  # each repair points at a comma that really is in the reply
        assert lines[repair.line - 1][repair.column - 1] == ","


@pytest.mark.parametrize(("name", "kind"), sorted(EXPECTED))
def test_lying_and_broken_replies_give_their_exact_errors(contracts, name, kind) -> None:
    result = check_contract(sample(contracts[name], kind), contracts[name])
    assert not result.ok
    assert codes(result) == EXPECTED[(name, kind)]


def test_every_error_is_collected_six_problems_six_errors(contracts) -> None:
    result = check_contract(sample(contracts["llm_result_v1"], "lying"), contracts["llm_result_v1"])
    assert len(result.errors) == 6
    first = result.errors[0]
    assert (first.code, first.path, first.expected) == ("missing_key", "/emotion", "emotion")


def test_broken_reply_reasons(contracts) -> None:
    array = check_contract(
        sample(contracts["architect_spec"], "broken"), contracts["architect_spec"]
    )
    assert "top-level array" in array.errors[0].message
    prose = check_contract(
        sample(contracts["guardian_report"], "broken"), contracts["guardian_report"]
    )
    assert prose.errors[0].message == "No JSON object found in text"
    cut = check_contract(sample(contracts["llm_result_v1"], "broken"), contracts["llm_result_v1"])
    assert cut.errors[0].message == "the reply is cut off at 3:122, inside narrative"
    spot = check_contract(sample(contracts["analyst_plan"], "broken"), contracts["analyst_plan"])
    assert (
        spot.errors[0].message == "JSON object at 3:1 could not be repaired: unexpected ',' at 3:83"
    )


def test_guardian_pass_with_actions_is_one_rule_failure_named_by_its_description(contracts) -> None:
    guardian = contracts["guardian_report"]
    base = {
        "verdict": "PASS",
        "reasons": [],
        "required_actions": ["ADD_EVIDENCE"],
        "risk_level": "low",
    }
    result = check_contract(base, guardian)
    assert codes(result) == [("rule_failed", "/required_actions")]
    assert "a PASS verdict must have no required_actions" in result.errors[0].message
    assert check_contract({**base, "required_actions": []}, guardian).ok
    assert check_contract({**base, "verdict": "FAIL"}, guardian).ok  # the rule applies to PASS only
    # the rule and an ordinary error are reported side by side, not merged
    both = check_contract({**base, "risk_level": "extreme"}, guardian)
    assert sorted(codes(both)) == [
        ("invalid_value", "/risk_level"),
        ("rule_failed", "/required_actions"),
    ]


def test_unknown_keys_are_named_at_every_depth(contracts) -> None:
    game = contracts["llm_result_v1"]
    value = json.loads(
        json.dumps(
            {
                "narrative": "n",
                "emotion": "sad",
                "mood": 1,
                "choices": [
                    {
                        "id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b",
                        "label": "x",
                        "weight": 2,
                        "colour": "red",
                    }
                ],
                "debug": {"tokenCount": 3, "model/name": "m"},
            }
        )
    )
    result = check_contract(value, game)
    assert sorted(codes(result)) == [
        ("extra_key", "/choices/0/colour"),
        ("extra_key", "/choices/0/weight"),
        ("extra_key", "/debug/model~1name"),
        ("extra_key", "/mood"),
    ]
    assert {e.actual for e in result.errors} == {"colour", "weight", "model/name", "mood"}


def test_missing_keys_are_each_named(contracts) -> None:
    result = check_contract({}, contracts["guardian_report"])
    assert codes(result) == [
        ("missing_key", f"/{k}") for k in ("verdict", "reasons", "required_actions", "risk_level")
    ]


def test_formats_and_limits_are_checked(contracts) -> None:
    game = contracts["llm_result_v1"]
    choice = {"id": "not-a-uuid", "label": "x" * 101}
    result = check_contract({"narrative": "", "emotion": "sad", "choices": [choice] * 11}, game)
    paths = codes(result)
    assert ("invalid_value", "/narrative") in paths
    assert ("invalid_value", "/choices") in paths  # 11 > 10 items
    assert ("invalid_value", "/choices/10/id") in paths
    assert ("invalid_value", "/choices/10/label") in paths
    assert all(code == "invalid_value" for code, _ in paths)


@pytest.mark.parametrize(
    "text",
    [
        '{"narrative": NaN, "emotion": "sad", "choices": []}',
        '{"narrative": "x", "emotion": "sad", "choices": [], '
        '"relationshipDeltas": {"a": Infinity}}',
    ],
)
def test_nan_and_infinity_are_invalid_values_with_a_path(contracts, text) -> None:
    result = check_contract(text, contracts["llm_result_v1"])
    # In text, the extraction refuses the literal where it stands (line:column); nothing else is
    # judged.
    bad = [e for e in result.errors if "not a number JSON allows" in e.message]
    assert len(bad) == 1 and bad[0].code == "invalid_value" and not result.ok
    assert bad[0].message.endswith(("(at 1:15)", "(at 1:81)"))
    json.loads(result.model_dump_json())  # the result itself stays valid JSON


def test_lone_surrogates_are_invalid_values_in_text_and_dicts(contracts) -> None:
    game = contracts["llm_result_v1"]
    escaped = check_contract('{"narrative": "a\\ud800b", "emotion": "sad", "choices": []}', game)
    given_dict = check_contract({"narrative": "a\ud800b", "emotion": "sad", "choices": []}, game)
    for result in (escaped, given_dict):
        surrogate = [e for e in result.errors if "surrogate" in e.message]
        assert [(e.code, e.path) for e in surrogate] == [("invalid_value", "/narrative")]
        result.model_dump_json().encode("utf-8")  # serialisable: the value holds null there


def test_envelope_shapes(contracts) -> None:
    game = contracts["llm_result_v1"]
    text = sample(game, "lying")
    envelope = check_contract(text, game).envelope()
    assert envelope["ok"] is False
    error = envelope["error"]
    assert error["code"] == "VALIDATION_FAILED" and set(error) == {"code", "message", "details"}
    assert error["details"]["raw"] == text and "parseError" not in error["details"]
    issues = error["details"]["issues"]
    assert len(issues) == 6 and set(issues[0]) == {"path", "message"}
    assert ["choices", 0, "id"] in [issue["path"] for issue in issues]
    assert ["relationshipDeltas", "mira"] in [issue["path"] for issue in issues]
    broken = check_contract("no json here", game).envelope()
    assert (
        set(broken["error"]["details"]) == {"raw", "parseError"}
        and broken["error"]["details"]["raw"] == "no json here"
    )
    good = check_contract(sample(game, "good"), game)
    assert good.envelope() == {"ok": True, "data": good.value}
    json.dumps(envelope)


def test_pointer_round_trip_keeps_object_keys_that_look_like_numbers() -> None:
    value = {"a/b": [{"7": 1}]}
    assert pointer(["a/b", 0, "7"]) == "/a~1b/0/7"
    assert pointer_parts("/a~1b/0/7", value) == ["a/b", 0, "7"]


def test_the_result_round_trips_as_json(contracts) -> None:
    result = check_contract(
        sample(contracts["llm_result_v1"], "repairable"), contracts["llm_result_v1"]
    )
    again = ContractResult.model_validate_json(result.model_dump_json())
    assert again.model_dump() == result.model_dump()


def test_check_contract_does_not_mutate_a_dict_and_is_deterministic(contracts) -> None:
    value = {
        "verdict": "PASS",
        "reasons": [],
        "required_actions": ["X"],
        "risk_level": "low",
        "extra": float("nan"),
    }
    before = repr(value)
    first = check_contract(value, contracts["guardian_report"]).model_dump_json()
    assert repr(value) == before
    assert check_contract(value, contracts["guardian_report"]).model_dump_json() == first


# --- contract files -------------------------------------------------------------------


BAD_SCHEMA = """\
$schema: https://json-schema.org/draft/2020-12/schema
type: objekt
required: name
properties:
  a:
    minLength: -1
    pattern: "("
x-gate-tui:
  verdict_field: verdict
"""


def test_an_invalid_schema_lists_every_problem_with_its_location(tmp_path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD_SCHEMA)
    contract, problems = check_contract_file(path)
    assert contract is None
    found = {(p.location, p.line) for p in problems}
    assert found == {
        ("/type", 2),
        ("/required", 3),
        ("/properties/a/minLength", 6),
        ("/properties/a/pattern", 7),
        ("/x-gate-tui/verdict_field", 9),
    }
    with pytest.raises(ContractLoadError) as raised:
        load_contract(path)
    assert len(raised.value.problems) == 5


@pytest.mark.parametrize(
    ("content", "name", "words"),
    [
        ("{not json", "c.json", "invalid JSON"),
        ("a: [", "c.yaml", "invalid YAML"),
        ("- 1\n- 2\n", "c.yaml", "this file holds a list"),
        ("a: &x [1, 2]\nb: [*x, *x]\n", "c.yaml", "YAML aliases (*x) are not allowed"),
        (
            '{"$schema": "http://json-schema.org/draft-03/schema#"}',
            "c.json",
            "is not a draft gate-tui knows",
        ),
    ],
)
def test_unreadable_contract_files_are_problems_not_tracebacks(
    tmp_path, content, name, words
) -> None:
    path = tmp_path / name
    path.write_text(content)
    contract, problems = check_contract_file(path)
    assert contract is None and words in str(problems[0])


def test_missing_and_oversized_contract_files(tmp_path) -> None:
    assert "file not found" in str(check_contract_file(tmp_path / "none.yaml")[1][0])
    big = tmp_path / "big.json"
    big.write_text('{"description": "' + "x" * (1024 * 1024) + '"}')
    assert "too large for a contract file" in str(check_contract_file(big)[1][0])


def test_contract_files_are_recognised_by_their_schema_key(tmp_path) -> None:
    assert looks_like_contract(CONTRACTS / "guardian_report.yaml")
    assert not looks_like_contract(ROOT / "sample_configs" / "ml_project_intake.yaml")
    assert not looks_like_contract(tmp_path / "missing.yaml")


def test_a_contract_from_a_dict() -> None:
    contract, problems = contract_from_schema(
        {"type": "object", "properties": {"n": {"type": "integer"}}}
    )
    assert problems == [] and contract is not None
    assert codes(check_contract('{"n": "1"}', contract)) == [("invalid_type", "/n")]


# --- never raises ---------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_check_contract_never_raises_for_any_text(text) -> None:
    contract = load_contract(CONTRACTS / "llm_result_v1.yaml")
    result = check_contract(text, contract)
    assert result.ok == (not result.errors)
    result.model_dump_json()


json_values = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["narrative", "emotion", "choices", "debug", "x"]), json_values, max_size=5
    )
)
def test_check_contract_never_raises_for_any_object(value) -> None:
    contract = load_contract(CONTRACTS / "llm_result_v1.yaml")
    result = check_contract(value, contract)
    assert result.ok == (not result.errors)
    assert all(error.path == "" or error.path.startswith("/") for error in result.errors)
    result.model_dump_json()


def test_the_docs_contract_example_prints_what_it_says(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    section = (ROOT / "docs" / "contracts.md").read_text(encoding="utf-8").split("## Library", 1)[1]
    block = section.split("```py\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    checked = 0
    for row in block.splitlines():
        code, _, expected = row.partition("  # ")
        code, expected = code.strip(), expected.strip()
        if not code:
            continue
        if expected.startswith(("(", "'")):
            assert repr(eval(code, namespace)) == expected, code  # noqa: S307 - our own docs
            checked += 1
        else:
            exec(code, namespace)  # noqa: S102 - our own docs
    assert checked == 2
