"""The bundled contracts are the seeds' contracts exactly (issue #12's role contracts and the
game protocol, issue #21's correction of the analyst's ``expected_output_schema``).

The role-contract seed's analyst plan names its output schema as a non-empty STRING
(``"answer_v1_markdown"``); its unit tests check three objects: a valid plan (valid), a
plan with two missing-info questions (invalid: at most one), and a guardian PASS that still
lists required actions (invalid). Each contract's own example must be valid, and every type,
enum, limit and format of the seeds is probed at its boundary here."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from gate_tui.contracts.checking import check_value
from gate_tui.contracts.loading import load_contract

CONTRACTS = Path(__file__).resolve().parents[2] / "sample_configs" / "contracts"
NAMES = ("analyst_plan", "architect_spec", "guardian_report", "llm_result_v1")

SEED_PLAN = {
    "intent": "Report last week's failed payment count by region",
    "request_type": "STATUS_METRIC",
    "track": "FAST",
    "required_sources": ["db"],
    "missing_info_questions": [],
    "expected_output_schema": "answer_v1_markdown",
}
REQUEST_TYPES = [
    "STATUS_METRIC",
    "STATUS_SUMMARY",
    "STATUS_LIST",
    "HOWTO_POLICY",
    "DESIGN_ARCH",
    "DATA_DEFINITION",
    "TROUBLESHOOTING",
    "KNOWLEDGE_QA",
    "CASUAL",
]
ACTIONS = [
    "ADD_EVIDENCE", "RETRIEVE_MORE", "DIVERSIFY_SOURCES", "RETRIEVE_DB", "RETRIEVE_NEO4J",
    "RETRIEVE_DOC", "RETRIEVE_POLICY", "REMOVE_DOC_EVIDENCE", "USE_DB_ONLY", "REFINE_QUERY",
    "ADD_REQUIRED_SECTIONS", "REGENERATE_DRAFT", "REMOVE_FORBIDDEN_CONTENT", "USE_DOMAIN_TERMS",
    "ASK_MINIMAL_QUESTION", "SAFE_REFUSAL",
]  # fmt: skip
EMOTIONS = ["neutral", "happy", "sad", "angry", "fearful", "surprised", "excited"]
UUID = "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b"


@pytest.fixture(scope="module")
def contracts() -> dict:
    return {name: load_contract(CONTRACTS / f"{name}.yaml") for name in NAMES}


def errors(contract, value) -> list[tuple[str, str]]:
    return [(error.code, error.path) for error in check_value(value, contract).errors]


def changed(value: dict, path: list, new) -> dict:
    out = copy.deepcopy(value)
    node = out
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = new
    return out


def test_the_seeds_unit_test_objects_get_the_seeds_verdicts(contracts) -> None:
    plan, guardian = contracts["analyst_plan"], contracts["guardian_report"]
    assert errors(plan, SEED_PLAN) == []  # the seed's valid plan
    two_questions = {**SEED_PLAN, "missing_info_questions": ["Which region?", "Which week?"]}
    assert errors(plan, two_questions) == [("invalid_value", "/missing_info_questions")]
    passing = {
        "verdict": "PASS",
        "reasons": ["Evidence is complete"],
        "required_actions": ["ADD_EVIDENCE"],
        "risk_level": "low",
    }
    assert errors(guardian, passing) == [("rule_failed", "/required_actions")]
    assert errors(guardian, {**passing, "required_actions": []}) == []


def test_expected_output_schema_is_a_non_empty_string(contracts) -> None:
    plan = contracts["analyst_plan"]
    assert plan.schema["properties"]["expected_output_schema"] == {
        "type": "string",
        "minLength": 1,
        "description": plan.schema["properties"]["expected_output_schema"]["description"],
    }
    assert errors(plan, {**SEED_PLAN, "expected_output_schema": ""}) == [
        ("invalid_value", "/expected_output_schema")
    ]
    assert errors(plan, {**SEED_PLAN, "expected_output_schema": {"region": "string"}}) == [
        ("invalid_type", "/expected_output_schema")
    ]


@pytest.mark.parametrize("name", NAMES)
def test_each_contracts_own_example_and_good_sample_are_valid(contracts, name) -> None:
    contract = contracts[name]
    assert errors(contract, contract.schema["examples"][0]) == []


def test_analyst_enums_limits_and_closed_keys(contracts) -> None:
    plan = contracts["analyst_plan"]
    properties = plan.schema["properties"]
    assert properties["request_type"]["enum"] == REQUEST_TYPES and properties["track"]["enum"] == [
        "FAST",
        "QUALITY",
    ]
    assert properties["required_sources"]["items"]["enum"] == ["db", "neo4j", "doc", "policy"]
    assert errors(plan, {**SEED_PLAN, "intent": "   "}) == [
        ("invalid_value", "/intent")
    ]  # blank is empty
    assert errors(plan, {**SEED_PLAN, "required_sources": ["web"]}) == [
        ("invalid_value", "/required_sources/0")
    ]
    assert errors(plan, {**SEED_PLAN, "notes": "x"}) == [("extra_key", "/notes")]
    assert sorted(plan.schema["required"]) == sorted(SEED_PLAN)


def test_architect_and_guardian_match_their_seeds(contracts) -> None:
    spec = contracts["architect_spec"].schema
    assert spec["properties"]["response_format"]["enum"] == ["markdown", "json", "hybrid"]
    for key in ("domain_terms", "forbidden_content", "required_sections"):
        assert spec["properties"][key] == {
            "type": "array",
            "items": {"type": "string"},
            "description": spec["properties"][key]["description"],
        }
    assert spec["additionalProperties"] is False and sorted(spec["required"]) == sorted(
        spec["properties"]
    )
    guardian = contracts["guardian_report"].schema
    assert guardian["properties"]["verdict"]["enum"] == ["PASS", "FAIL", "RETRY"]
    assert guardian["properties"]["required_actions"]["items"]["enum"] == ACTIONS
    assert guardian["properties"]["risk_level"]["enum"] == ["low", "med", "high"]
    assert guardian["additionalProperties"] is False


def test_the_game_protocol_limits_at_their_boundaries(contracts) -> None:
    game = contracts["llm_result_v1"]
    turn = {"narrative": "n", "emotion": "sad", "choices": [{"id": UUID, "label": "go"}]}
    npc = {"npcId": "mira", "response": "r", "emotion": "happy"}
    assert game.schema["$defs"]["emotion"]["enum"] == EMOTIONS
    cases = [
        (["narrative"], "x" * 10_000, []),
        (["narrative"], "x" * 10_001, [("invalid_value", "/narrative")]),
        (["narrative"], "", [("invalid_value", "/narrative")]),
        (["emotion"], "bored", [("invalid_value", "/emotion")]),
        (["choices"], [{"id": UUID, "label": "go"}] * 10, []),
        (["choices"], [{"id": UUID, "label": "go"}] * 11, [("invalid_value", "/choices")]),
        (["choices"], [], [("invalid_value", "/choices")]),
        (["choices", 0, "id"], "not-a-uuid", [("invalid_value", "/choices/0/id")]),
        (["choices", 0, "label"], "x" * 100, []),
        (["choices", 0, "label"], "x" * 101, [("invalid_value", "/choices/0/label")]),
        (["choices", 0, "description"], "x" * 500, []),
        (["choices", 0, "description"], "x" * 501, [("invalid_value", "/choices/0/description")]),
        (["choices", 0, "hint"], "x", [("extra_key", "/choices/0/hint")]),
        (["npcResponses"], [npc] * 20, []),
        (["npcResponses"], [npc] * 21, [("invalid_value", "/npcResponses")]),
        (
            ["npcResponses"],
            [{**npc, "response": "x" * 1001}],
            [("invalid_value", "/npcResponses/0/response")],
        ),
        (
            ["npcResponses"],
            [{**npc, "emotion": "meh"}],
            [("invalid_value", "/npcResponses/0/emotion")],
        ),
        (["relationshipDeltas"], {"mira": -100, "tom": 100, "ann": 0.5}, []),
        (["relationshipDeltas"], {"mira": -100.5}, [("invalid_value", "/relationshipDeltas/mira")]),
        (["factionDeltas"], {"guild": 101}, [("invalid_value", "/factionDeltas/guild")]),
        (["factionDeltas"], {"guild": "5"}, [("invalid_type", "/factionDeltas/guild")]),
        (["worldStateChanges"], {"anything": [1, {"goes": True}]}, []),
        (
            ["debug"],
            {
                "promptState": "s",
                "promptText": "t",
                "aiResponseRaw": "r",
                "processingTime": 1.5,
                "tokenCount": 3,
            },
            [],
        ),
        (["debug"], {"tokenCount": "3"}, [("invalid_type", "/debug/tokenCount")]),
        (["debug"], {"secret": 1}, [("extra_key", "/debug/secret")]),
        (["extra"], 1, [("extra_key", "/extra")]),
    ]
    for path, new, expected in cases:
        assert errors(game, changed(turn, path, new)) == expected, (path, new)
