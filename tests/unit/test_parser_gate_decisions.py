"""The eight acceptance tests the parser was specified with, one test each."""

from __future__ import annotations

import json

from gate_tui import GateConfig, parse
from tests.conftest import reply
from tests.helpers.states import full_state


def test_complete_assistant_reply_passes(ml_config: GateConfig) -> None:
    result = parse(reply("ml_good.md"), ml_config)
    assert result.ok, result.errors
    assert result.decision is not None and result.decision.pass_ is True
    assert result.decision.reason == "all_required_complete"
    assert result.canonical_state is not None
    assert result.canonical_state.status.pass_ is True
    assert result.canonical_state.status.next_gate is None


def test_missing_required_value_gives_no_pass_with_next_question(ml_config: GateConfig) -> None:
    payload = full_state(**{"2_use_case": {"raw": None, "classified": None}})
    payload["status"] = {"pass": False, "next_gate": "2_use_case", "next_query": "?"}
    result = parse(json.dumps(payload), ml_config)
    assert result.ok
    assert result.decision is not None
    assert (result.decision.pass_, result.decision.reason, result.decision.next_gate) == (
        False,
        "required_missing",
        "2_use_case",
    )
    assert result.decision.next_question == ml_config.gates["2_use_case"].question
    assert result.canonical_state is not None
    assert result.canonical_state.status.next_query == ml_config.gates["2_use_case"].question


def test_model_claiming_pass_is_overruled(ml_config: GateConfig) -> None:
    result = parse(reply("ml_lying_pass.md"), ml_config)
    assert result.ok
    assert result.decision is not None and result.decision.pass_ is False
    assert result.canonical_state is not None and result.canonical_state.status.pass_ is False
    assert result.claimed_status is not None and result.claimed_status.pass_ is True
    messages = [w.message for w in result.warnings if w.code == "claimed_status_overruled"]
    assert messages == ["assistant claimed pass=true; system decided NO PASS: 2_use_case missing"]


def test_text_without_json_is_invalid_json(ml_config: GateConfig) -> None:
    result = parse(reply("ml_garbage.md"), ml_config)
    assert not result.ok
    assert result.canonical_state is None and result.decision is None and result.diff is None
    assert [(e.code, e.message) for e in result.errors] == [
        ("invalid_json", "No JSON object found in text")
    ]


def test_unknown_gate_key_is_rejected(ml_config: GateConfig) -> None:
    payload = full_state(**{"9_budget": {"raw": "10k", "classified": None}})
    result = parse(payload, ml_config)
    assert not result.ok
    assert [(e.code, e.field_path) for e in result.errors] == [("invalid_key", "gates.9_budget")]


def test_category_outside_expected_categories_is_rejected(ml_config: GateConfig) -> None:
    payload = full_state(**{"1_data_availability": {"raw": "some", "classified": "plenty"}})
    result = parse(payload, ml_config)
    assert not result.ok
    error = result.errors[0]
    assert (error.code, error.field_path) == (
        "invalid_category",
        "gates.1_data_availability.classified",
    )
    assert error.expected == "one of available, partial, unavailable"
    assert error.actual == '"plenty"'


def test_user_can_clear_the_summary(ml_config: GateConfig) -> None:
    previous = parse(reply("ml_good.md"), ml_config).canonical_state
    result = parse({"summary": ""}, ml_config, previous_state=previous, actor="user")
    assert result.ok, result.errors
    assert result.canonical_state is not None and result.canonical_state.summary == ""
    assert result.diff is not None and result.diff.summary_changed
    assert result.canonical_state.gates == previous.gates


def test_user_can_clear_gate_values(ml_config: GateConfig) -> None:
    previous = parse(reply("ml_good.md"), ml_config).canonical_state
    patch = {"gates": {"1_data_availability": {"raw": None, "classified": None}}}
    result = parse(patch, ml_config, previous_state=previous, actor="user")
    assert result.ok, result.errors
    assert result.canonical_state is not None
    cleared = result.canonical_state.gates["1_data_availability"]
    assert (cleared.raw, cleared.classified) == (None, None)
    assert result.decision is not None and result.decision.next_gate == "1_data_availability"
    assert result.diff is not None
    assert result.diff.gates_raw_changed == ["1_data_availability"]
    assert result.diff.gates_classified_changed == ["1_data_availability"]
