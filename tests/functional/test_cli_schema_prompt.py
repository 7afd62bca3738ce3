"""``gate-tui schema`` and ``gate-tui prompt`` end to end: the schema (checked with the
``jsonschema`` package) accepts the good sample replies and every canonical state, and
rejects the bad replies; the prompt names every gate, question and category."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from gate_tui import empty_state, extract_json, load_config, parse
from tests.conftest import CONFIGS, REPLIES

SCRIPT = Path(sys.executable).with_name("gate-tui")
CONFIG_FILES = sorted(CONFIGS.glob("*.yaml"))
ML = CONFIGS / "ml_project_intake.yaml"
VENDOR = CONFIGS / "vendor_security_review.yaml"
RELEASE = CONFIGS / "release_go_no_go.yaml"


def gate_tui(*args: str) -> subprocess.CompletedProcess[str]:
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=60)


_SCHEMAS: dict[tuple[Path, bool], Draft202012Validator] = {}


def validator(config: Path, decision_rules: bool = False) -> Draft202012Validator:
    """The schema the CLI prints for ``config`` (cached: one subprocess per variant)."""
    key = (config, decision_rules)
    if key not in _SCHEMAS:
        done = gate_tui(
            "schema", "--config", str(config), *(["--decision-rules"] if decision_rules else [])
        )
        assert done.returncode == 0, done.stderr
        schema = json.loads(done.stdout)
        Draft202012Validator.check_schema(schema)
        _SCHEMAS[key] = Draft202012Validator(schema)
    return _SCHEMAS[key]


def reply_json(name: str) -> dict[str, Any]:
    found = extract_json((REPLIES / name).read_text(encoding="utf-8"))
    assert found.value is not None, found.error
    return found.value


def errors(config: Path, value: Any, decision_rules: bool = False) -> list[str]:
    return sorted(error.message for error in validator(config, decision_rules).iter_errors(value))


@pytest.mark.parametrize("decision_rules", [False, True])
@pytest.mark.parametrize(("config", "reply"), [(ML, "ml_good.md"), (VENDOR, "vendor_good.md")])
def test_schema_accepts_the_good_sample_replies(
    config: Path, reply: str, decision_rules: bool
) -> None:
    assert errors(config, reply_json(reply), decision_rules) == []


@pytest.mark.parametrize(
    ("config", "reply", "why"),
    [
        (ML, "ml_lying_pass.md", "'5_stakeholder' is a required property"),
        (RELEASE, "release_lying.md", "'5_known_issues' is a required property"),
        (VENDOR, "vendor_missing_gate.md", "'4_data_residency' is a required property"),
        (VENDOR, "vendor_missing_gate.md", "'OIDC' is not one of ['saml', 'oidc', 'none', None]"),
    ],
)
def test_schema_rejects_the_bad_sample_replies(config: Path, reply: str, why: str) -> None:
    assert why in errors(config, reply_json(reply))


def test_schema_rejects_wrong_category_extra_keys_long_summary_and_wrong_types() -> None:
    good = reply_json("ml_good.md")
    cases: list[tuple[Any, str]] = []
    wrong_category = copy.deepcopy(good)
    wrong_category["gates"]["1_data_availability"]["classified"] = "maybe"
    cases.append(
        (wrong_category, "'maybe' is not one of ['available', 'partial', 'unavailable', None]")
    )
    free_text_category = copy.deepcopy(good)
    free_text_category["gates"]["2_use_case"]["classified"] = ["ranking"]
    cases.append((free_text_category, "['ranking'] is not of type 'string', 'null'"))
    extra_gate = copy.deepcopy(good)
    extra_gate["gates"]["6_budget"] = {"raw": "1M", "classified": None}
    cases.append((extra_gate, "Additional properties are not allowed ('6_budget' was unexpected)"))
    extra_top = dict(good, verdict="go")
    cases.append((extra_top, "Additional properties are not allowed ('verdict' was unexpected)"))
    long_summary = dict(good, summary="x" * 201)
    cases.append((long_summary, f"'{'x' * 201}' is too long"))
    bad_pass = copy.deepcopy(good)
    bad_pass["status"]["pass"] = "yes"
    cases.append((bad_pass, "'yes' is not of type 'boolean'"))
    bad_next = copy.deepcopy(good)
    bad_next["status"]["next_gate"] = "9_unknown"
    cases.append(
        (
            bad_next,
            "'9_unknown' is not one of ['1_data_availability', '2_use_case', '3_success_metric', "
            "'4_data_privacy', '5_stakeholder', None]",
        )
    )
    for value, why in cases:
        assert why in errors(ML, value), why


@pytest.mark.parametrize("decision_rules", [False, True])
@pytest.mark.parametrize("config", CONFIG_FILES, ids=lambda p: p.stem)
def test_schema_accepts_every_canonical_state_parse_produces(
    config: Path, decision_rules: bool
) -> None:
    loaded = load_config(config)
    states = []
    for reply in sorted(REPLIES.glob("*.md")):
        result = parse(reply.read_text(encoding="utf-8"), loaded)
        if result.canonical_state is not None:
            states.append(result.canonical_state)
    states.append(empty_state(loaded))
    for state in states:
        assert errors(config, state.model_dump(mode="json"), decision_rules) == []


def test_decision_rules_reject_a_state_that_lies_about_pass() -> None:
    lying = reply_json("ml_lying_pass.md")
    lying["gates"]["5_stakeholder"] = {"raw": None, "classified": None}
    assert errors(ML, lying) == []  # well-formed: the default profile leaves status to the system
    assert errors(ML, lying, decision_rules=True) != []
    honest = copy.deepcopy(lying)
    question = load_config(ML).gates["2_use_case"].question
    honest["status"] = {"pass": False, "next_gate": "2_use_case", "next_query": question}
    assert errors(ML, honest, decision_rules=True) == []
    wrong_next = copy.deepcopy(honest)
    wrong_next["status"]["next_gate"] = "3_success_metric"
    assert errors(ML, wrong_next, decision_rules=True) != []
    blank = copy.deepcopy(honest)
    blank["gates"]["2_use_case"]["raw"] = "   "
    assert errors(ML, blank, decision_rules=True) == []


@pytest.mark.parametrize("config", CONFIG_FILES, ids=lambda p: p.stem)
def test_default_schema_fits_structured_output_modes(config: Path) -> None:
    schema = validator(config).schema

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            assert not {"allOf", "anyOf", "oneOf", "if", "then", "not", "$ref"} & node.keys()
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert sorted(node["required"]) == sorted(node["properties"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    loaded = load_config(config)
    assert list(schema["properties"]["gates"]["properties"]) == loaded.gate_order
    assert schema["properties"]["summary"]["maxLength"] == 200


@pytest.mark.parametrize("config", CONFIG_FILES, ids=lambda p: p.stem)
def test_prompt_mentions_every_gate_question_and_category(config: Path) -> None:
    done = gate_tui("prompt", "--config", str(config))
    assert done.returncode == 0, done.stderr
    text = done.stdout
    loaded = load_config(config)
    for key, gate in loaded.gates.items():
        assert key in text and gate.question in text
        for category in gate.expected_categories:
            assert category in text
    assert "The system decides PASS" in text
    assert "\x1b[" not in text


@pytest.mark.parametrize("config", CONFIG_FILES, ids=lambda p: p.stem)
def test_prompt_example_is_a_state_the_parser_and_schema_accept(config: Path) -> None:
    text = gate_tui("prompt", "--config", str(config)).stdout
    loaded = load_config(config)
    result = parse(text, loaded)
    assert result.ok, result.errors
    assert result.decision is not None and result.decision.pass_ is False
    example = extract_json(text).value
    assert errors(config, example, decision_rules=True) == []


@pytest.mark.parametrize("command", ["schema", "prompt"])
def test_schema_and_prompt_with_a_bad_config_exit_3(command: str, tmp_path: Path) -> None:
    done = gate_tui(command, "--config", str(tmp_path / "none.yaml"))
    assert done.returncode == 3
    assert done.stderr == f"gate-tui {command}: {tmp_path / 'none.yaml'}: file not found\n"


def test_decision_rules_reject_a_pass_claim_with_a_blocked_gate() -> None:
    from gate_tui.config.schema_export import state_schema

    config = load_config(ML)
    schema = state_schema(config, True)
    blocked = copy.deepcopy(reply_json("ml_good.md"))
    blocked["gates"]["1_data_availability"]["classified"] = "unavailable"
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors(blocked)), "a PASS claim with a blocked gate must fail"
    result = parse(blocked, config)
    assert result.ok and result.decision.reason == "required_blocked"
    assert not list(validator.iter_errors(result.canonical_state.model_dump(mode="json")))
