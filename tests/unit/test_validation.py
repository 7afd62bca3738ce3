"""Validation rules per actor: every error collected with its path and code."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui import GateConfig, GateState, Policy, parse
from gate_tui.config.loading import load_config
from gate_tui.parsing.assistant_check import _plain_assistant_state, check_assistant_fully
from tests.conftest import CONFIGS, reply
from tests.helpers.states import full_state


def codes(result) -> list[tuple[str, str]]:
    return [(e.code, e.field_path) for e in result.errors]


def with_policy(config: GateConfig, **changes: bool) -> GateConfig:
    return config.model_copy(update={"policy": Policy(**{**config.policy.model_dump(), **changes})})


# --- assistant: the full-state contract -------------------------------------------------


def test_every_error_is_collected_not_only_the_first(ml_config: GateConfig) -> None:
    payload = {
        "summary": 42,
        "gates": {
            "1_data_availability": {"raw": 7, "classified": "lots", "note": "x"},
            "bogus": {},
        },
        "status": {"pass": "yes", "next_gate": "nowhere", "next_query": 3},
        "extra": True,
    }
    result = parse(payload, ml_config)
    assert not result.ok
    assert set(codes(result)) == {
        ("invalid_key", "extra"),
        ("invalid_type", "summary"),
        ("invalid_gate_key", "gates.1_data_availability.note"),
        ("invalid_type", "gates.1_data_availability.raw"),
        ("invalid_category", "gates.1_data_availability.classified"),
        ("invalid_key", "gates.bogus"),
        ("missing_required_gate", "gates.2_use_case"),
        ("missing_required_gate", "gates.3_success_metric"),
        ("missing_required_gate", "gates.4_data_privacy"),
        ("invalid_type", "status.pass"),
        ("invalid_gate_key", "status.next_gate"),
        ("invalid_type", "status.next_query"),
    }
    assert len(result.errors) == 12


@pytest.mark.parametrize("key", ["summary", "gates", "status"])
def test_assistant_must_send_every_top_level_key(ml_config: GateConfig, key: str) -> None:
    payload = full_state()
    del payload[key]
    result = parse(payload, ml_config)
    assert codes(result) == [("missing_key", key)]


def test_status_pass_is_required_and_boolean(ml_config: GateConfig) -> None:
    payload = full_state()
    payload["status"] = {"next_gate": None}
    assert codes(parse(payload, ml_config)) == [("missing_key", "status.pass")]
    payload["status"] = {"pass": 1}
    assert codes(parse(payload, ml_config)) == [("invalid_type", "status.pass")]


def test_summary_longer_than_200_characters_after_trimming(ml_config: GateConfig) -> None:
    payload = full_state()
    payload["summary"] = "  " + "x" * 200 + "  "
    assert parse(payload, ml_config).ok
    payload["summary"] = "x" * 201
    result = parse(payload, ml_config)
    assert codes(result) == [("invalid_value", "summary")]
    assert result.errors[0].actual == "201 characters"


def test_unknown_top_level_key_is_a_warning_when_policy_allows(ml_config: GateConfig) -> None:
    payload = {**full_state(), "confidence": 0.9}
    assert codes(parse(payload, ml_config)) == [("invalid_key", "confidence")]
    lenient = with_policy(ml_config, reject_unknown_top_level_keys=False)
    result = parse(payload, lenient)
    assert result.ok
    assert [w.code for w in result.warnings] == ["unknown_key_ignored"]


def test_schema_version_mismatch(ml_config: GateConfig) -> None:
    assert parse({**full_state(), "schema_version": "1.0"}, ml_config).ok
    result = parse({**full_state(), "schema_version": "2.0"}, ml_config)
    assert codes(result) == [("schema_version_mismatch", "schema_version")]
    assert result.errors[0].expected == "1.0"


def test_non_strict_category_is_cleared_with_a_warning(ml_config: GateConfig) -> None:
    lenient = with_policy(ml_config, strict_classified_validation=False)
    payload = full_state(**{"1_data_availability": {"raw": "some", "classified": "plenty"}})
    result = parse(payload, lenient)
    assert result.ok
    assert result.canonical_state.gates["1_data_availability"].classified is None
    assert [w.code for w in result.warnings if w.code != "claimed_status_overruled"] == [
        "category_cleared"
    ]
    assert result.decision.next_gate == "1_data_availability"


def test_category_is_matched_case_insensitively_to_its_spelling(ml_config: GateConfig) -> None:
    payload = full_state(**{"1_data_availability": {"raw": "x", "classified": " Available "}})
    result = parse(payload, ml_config)
    assert result.ok
    assert result.canonical_state.gates["1_data_availability"].classified == "available"
    assert "category_normalised" in [w.code for w in result.warnings]


def test_a_classified_value_on_a_free_text_gate_is_kept_and_does_not_complete_it(
    ml_config: GateConfig,
) -> None:
    # Seed rule: categories are checked only where a gate has them.
    payload = full_state(**{"2_use_case": {"raw": "x", "classified": "urgent"}})
    result = parse(payload, ml_config)
    assert result.ok, result.errors
    assert result.canonical_state.gates["2_use_case"].classified == "urgent"
    no_raw = parse(full_state(**{"2_use_case": {"raw": None, "classified": "urgent"}}), ml_config)
    assert (
        no_raw.ok and no_raw.decision.pass_ is False and no_raw.decision.next_gate == "2_use_case"
    )


def test_an_assistant_summary_must_be_a_string(ml_config: GateConfig) -> None:
    for summary in (None, 42, ["x"]):
        payload = full_state()
        payload["summary"] = summary
        result = parse(payload, ml_config)
        assert codes(result) == [("invalid_type", "summary")], summary


def test_a_user_may_still_clear_the_summary_with_null(ml_config: GateConfig) -> None:
    base = parse(full_state(), ml_config).canonical_state
    result = parse({"summary": None}, ml_config, previous_state=base, actor="user")
    assert result.ok and result.canonical_state.summary == ""


def test_a_next_gate_that_names_no_gate_is_invalid_gate_key(ml_config: GateConfig) -> None:
    payload = full_state()
    payload["status"]["next_gate"] = "9_nope"
    assert codes(parse(payload, ml_config)) == [("invalid_gate_key", "status.next_gate")]


def test_next_query_is_the_gate_question_trimmed() -> None:
    config = GateConfig.model_validate(
        {
            "gates": {"a": {"question": "  What is it?  \n"}, "b": {"question": "Why?"}},
            "gate_order": ["a", "b"],
        }
    )
    result = parse(
        {
            "summary": "",
            "gates": {"a": {"raw": None}, "b": {"raw": "x"}},
            "status": {"pass": False},
        },
        config,
    )
    assert result.ok and result.canonical_state.status.next_query == "What is it?"
    assert result.decision.next_question == "What is it?"


def test_optional_gate_may_be_absent(ml_config: GateConfig) -> None:
    payload = full_state()
    del payload["gates"]["5_stakeholder"]
    result = parse(payload, ml_config)
    assert result.ok
    assert list(result.canonical_state.gates) == ml_config.gate_order


@pytest.mark.parametrize("payload", [None, 42, 3.5, ["a"], b"{}", object()])
def test_payload_must_be_text_or_object(ml_config: GateConfig, payload) -> None:
    result = parse(payload, ml_config)
    assert [e.code for e in result.errors] == ["invalid_json"]


def test_top_level_array_reply_is_invalid_json(release_config: GateConfig) -> None:
    result = parse(reply("release_array.md"), release_config)
    assert [e.code for e in result.errors] == ["invalid_json"]
    assert "top-level array not allowed" in result.errors[0].message


# --- canonical state -------------------------------------------------------------------


def test_canonical_state_trims_and_orders(ml_config: GateConfig) -> None:
    payload = full_state(
        **{
            "2_use_case": {"raw": "  route tickets  ", "classified": None},
            "3_success_metric": {"raw": "   ", "classified": ""},
        }
    )
    payload["gates"] = dict(reversed(list(payload["gates"].items())))
    payload["summary"] = "  padded  "
    state = parse(payload, ml_config).canonical_state
    assert list(state.gates) == ml_config.gate_order
    assert state.summary == "padded"
    assert state.gates["2_use_case"].raw == "route tickets"
    assert (state.gates["3_success_metric"].raw, state.gates["3_success_metric"].classified) == (
        None,
        None,
    )


def test_parse_does_not_mutate_its_inputs(ml_config: GateConfig) -> None:
    payload = full_state()
    previous = parse(reply("ml_lying_pass.md"), ml_config).canonical_state
    frozen_payload, frozen_previous = copy.deepcopy(payload), previous.model_dump_json()
    frozen_config = ml_config.model_dump_json()
    parse(payload, ml_config, previous_state=previous, actor="user")
    parse(payload, ml_config, previous_state=previous)
    assert payload == frozen_payload
    assert previous.model_dump_json() == frozen_previous
    assert ml_config.model_dump_json() == frozen_config


def test_parse_is_deterministic(ml_config: GateConfig) -> None:
    text = reply("ml_repairable.md")
    outputs = {parse(text, ml_config).model_dump_json() for _ in range(5)}
    assert len(outputs) == 1


def test_previous_state_may_be_a_dict_and_a_bad_one_is_an_error(ml_config: GateConfig) -> None:
    previous = parse(reply("ml_good.md"), ml_config).canonical_state
    as_dict = json.loads(previous.model_dump_json())
    result = parse({"summary": "new"}, ml_config, previous_state=as_dict, actor="user")
    assert result.ok and result.canonical_state.gates == previous.gates
    bad = parse({"summary": "new"}, ml_config, previous_state={"gates": 5}, actor="user")
    assert codes(bad) == [("invalid_value", "previous_state")]


def test_unknown_actor_is_an_error_not_an_exception(ml_config: GateConfig) -> None:
    assert codes(parse({}, ml_config, actor="robot")) == [("invalid_value", "actor")]


# --- user: patch semantics ------------------------------------------------------------


@pytest.fixture
def good_state(ml_config: GateConfig) -> GateState:
    return parse(reply("ml_good.md"), ml_config).canonical_state


def test_absent_keys_keep_their_previous_value(
    ml_config: GateConfig, good_state: GateState
) -> None:
    result = parse(
        {"gates": {"2_use_case": {"raw": "Rank tickets"}}}, ml_config, good_state, "user"
    )
    assert result.ok
    state = result.canonical_state
    assert state.summary == good_state.summary
    assert state.gates["2_use_case"].raw == "Rank tickets"
    assert state.gates["1_data_availability"] == good_state.gates["1_data_availability"]
    assert [c["path"] for c in result.diff.changes] == ["gates.2_use_case.raw"]


def test_user_patch_over_no_previous_state_starts_from_empty(ml_config: GateConfig) -> None:
    result = parse({"gates": {"2_use_case": {"raw": "x"}}}, ml_config, actor="user")
    assert result.ok
    assert result.canonical_state.gates["2_use_case"].raw == "x"
    assert result.decision.next_gate == "1_data_availability"


def test_deleting_a_required_gate_is_not_allowed_by_default(
    ml_config: GateConfig, good_state: GateState
) -> None:
    result = parse({"gates": {"2_use_case": None}}, ml_config, good_state, "user")
    assert codes(result) == [("deletion_not_allowed", "gates.2_use_case")]
    allowed = with_policy(ml_config, allow_user_delete_gate_keys=True)
    result = parse({"gates": {"2_use_case": None}}, allowed, good_state, "user")
    assert result.ok and result.canonical_state.gates["2_use_case"].raw is None
    assert result.decision.next_gate == "2_use_case"


def test_optional_gate_may_be_deleted(ml_config: GateConfig, good_state: GateState) -> None:
    result = parse({"gates": {"5_stakeholder": None}}, ml_config, good_state, "user")
    assert result.ok


def test_clearing_values_can_be_forbidden(ml_config: GateConfig, good_state: GateState) -> None:
    strict = with_policy(ml_config, allow_user_clear_values=False)
    result = parse(
        {"summary": "", "gates": {"2_use_case": {"raw": ""}}}, strict, good_state, "user"
    )
    assert set(codes(result)) == {
        ("deletion_not_allowed", "summary"),
        ("deletion_not_allowed", "gates.2_use_case.raw"),
    }
    # Setting a value that is already empty to empty clears nothing, so it is allowed.
    assert parse({"gates": {"5_stakeholder": {"raw": ""}}}, strict, good_state, "user").ok


def test_user_status_is_ignored_with_a_warning(ml_config: GateConfig) -> None:
    result = parse({"status": {"pass": True}}, ml_config, actor="user")
    assert result.ok and result.decision.pass_ is False
    assert [w.code for w in result.warnings] == ["status_ignored"]


def test_user_override_only_when_policy_allows(release_config: GateConfig) -> None:
    result = parse({"status": {"pass": True}}, release_config, actor="user")
    assert result.ok
    assert (result.decision.pass_, result.decision.reason) == (True, "user_override")
    assert result.canonical_state.status.pass_ is True
    assert codes(parse({"status": {"pass": "yes"}}, release_config, actor="user")) == [
        ("invalid_type", "status.pass")
    ]


def test_user_unknown_gate_is_an_error_or_a_warning_by_policy(ml_config: GateConfig) -> None:
    assert codes(parse({"gates": {"x": {"raw": "1"}}}, ml_config, actor="user")) == [
        ("invalid_key", "gates.x")
    ]
    lenient = with_policy(ml_config, allow_user_extra_gate_keys=True)
    result = parse({"gates": {"x": {"raw": "1"}}}, lenient, actor="user")
    assert result.ok and "x" not in result.canonical_state.gates
    assert [w.code for w in result.warnings] == ["unknown_gate_ignored"]


def test_user_text_patch_is_extracted_too(ml_config: GateConfig) -> None:
    result = parse('set this: {"gates": {"2_use_case": {"raw": "x"}}}', ml_config, actor="user")
    assert result.ok and result.canonical_state.gates["2_use_case"].raw == "x"


def test_user_invalid_types_are_reported(ml_config: GateConfig) -> None:
    result = parse(
        {"gates": {"2_use_case": {"raw": ["a"]}, "3_success_metric": "text"}, "summary": 3},
        ml_config,
        actor="user",
    )
    assert set(codes(result)) == {
        ("invalid_type", "gates.2_use_case.raw"),
        ("invalid_type", "gates.3_success_metric"),
        ("invalid_type", "summary"),
    }
    assert result.errors[0].actual is not None


def test_non_string_keys_do_not_crash(ml_config: GateConfig) -> None:
    result = parse({1: "x", "gates": {2: {}}}, ml_config, actor="user")
    assert set(codes(result)) == {("invalid_key", "1"), ("invalid_key", "gates.2")}


# --- diff ------------------------------------------------------------------------------


def test_first_state_counts_everything_as_added(ml_config: GateConfig) -> None:
    result = parse(reply("ml_good.md"), ml_config)
    diff = result.diff
    assert diff.actor == "assistant" and diff.summary_changed
    assert diff.gates_added == ml_config.gate_order
    assert diff.gates_raw_changed == ml_config.gate_order
    assert len(diff.changes) == 1 + 2 * len(ml_config.gate_order) + 3
    assert all(change["before"] is None for change in diff.changes)


def test_diff_lists_before_and_after(ml_config: GateConfig, good_state: GateState) -> None:
    result = parse(
        {"gates": {"4_data_privacy": {"classified": "no_personal_data"}}},
        ml_config,
        good_state,
        "user",
    )
    assert result.diff.actor == "user"
    assert [(c["path"], c["before"], c["after"]) for c in result.diff.changes] == [
        ("gates.4_data_privacy.classified", "approved", "no_personal_data"),
    ]
    assert result.diff.gates_classified_changed == ["4_data_privacy"]


def test_decision_change_shows_in_diff(ml_config: GateConfig, good_state: GateState) -> None:
    result = parse({"gates": {"2_use_case": {"raw": None}}}, ml_config, good_state, "user")
    paths = [c["path"] for c in result.diff.changes]
    assert paths == ["gates.2_use_case.raw", "status.pass", "status.next_gate", "status.next_query"]


# --- the one-pass shortcut for plain model states ----------------------------------------

ML = load_config(CONFIGS / "ml_project_intake.yaml")
_texts = (
    st.none()
    | st.text(max_size=12)
    | st.sampled_from(["  padded  ", "", "   ", "available", "Available", "approved", "partial "])
)
_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
_odd_gate_value = st.fixed_dictionaries(
    {}, optional={"raw": _texts | _scalars, "classified": _texts, "extra": _scalars}
)


def _gate_value(key: str) -> st.SearchStrategy:
    """Mostly plain values for the gate (the shortcut's case), sometimes anything."""
    categories = ML.gates[key].expected_categories
    plain = st.fixed_dictionaries(
        {"raw": st.none() | st.text(max_size=12) | st.just("  padded  ")},
        optional={
            "classified": st.none() | st.sampled_from(categories) if categories else st.none()
        },
    )
    return plain | plain | _odd_gate_value


_near_plain_states = st.fixed_dictionaries(
    {
        "summary": st.text(max_size=8) | st.none() | st.just("x" * 205) | st.integers(),
        "gates": st.fixed_dictionaries(
            {key: _gate_value(key) for key in ML.gate_order[:4]},
            optional={
                ML.gate_order[4]: _gate_value(ML.gate_order[4]) | st.none(),
                "unknown_gate": _odd_gate_value,
            },
        ),
        "status": st.fixed_dictionaries(
            {"pass": st.booleans() | _scalars},
            optional={
                "next_gate": st.none() | st.sampled_from([*ML.gate_order, "nope"]) | st.integers(),
                "next_query": _scalars,
                "other": _scalars,
            },
        ),
    },
    optional={"schema_version": st.sampled_from(["1.0", "2.0", 1]), "extra": _scalars},
)


def test_a_plain_model_state_takes_the_shortcut() -> None:
    assert _plain_assistant_state(full_state(), ML) is not None
    assert _plain_assistant_state({**full_state(), "extra": 1}, ML) is None


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_near_plain_states)
def test_the_shortcut_agrees_with_the_full_check(data: dict) -> None:
    short = _plain_assistant_state(data, ML)
    if short is None:
        return  # the full check decides: nothing to compare
    full = check_assistant_fully(data, ML)
    assert short == full
    assert list(short.gates) == list(full.gates) == ML.gate_order
    assert not short.errors and not short.warnings
