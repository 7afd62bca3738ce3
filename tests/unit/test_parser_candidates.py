"""Choosing among several objects (issue 20): every candidate listed with its position and
whether it would validate, ``candidate=K`` reads another one, the default stays the first
gate-like object, and a reply holding different states says so in plain words.
"""

from __future__ import annotations

import json

import pytest

from gate_tui import GateConfig, extract_json, parse
from gate_tui.contracts.extract import extract_reply

DRAFT = {
    "summary": "Churn model for the retail team",
    "gates": {
        "1_data_availability": {
            "raw": "Two years of orders in the warehouse",
            "classified": "available",
        },
        "2_use_case": {"raw": "Predict churn per store", "classified": None},
        "3_success_metric": {"raw": "Recall at 10% above 0.6", "classified": None},
        "4_data_privacy": {"raw": "Not reviewed yet", "classified": "pending_review"},
        "5_stakeholder": {"raw": "Retail analytics lead", "classified": None},
    },
    "status": {
        "pass": False,
        "next_gate": "4_data_privacy",
        "next_query": "Has privacy approved the data use?",
    },
}
CORRECTED = json.loads(json.dumps(DRAFT))
CORRECTED["gates"]["4_data_privacy"] = {
    "raw": "Approved by privacy on 3 March",
    "classified": "approved",
}
CORRECTED["status"] = {"pass": True, "next_gate": None, "next_query": None}

SELF_CORRECTING = (
    "Here is the updated gate state:\n"
    "```json\n" + json.dumps(DRAFT, indent=2) + "\n```\n\n"
    "Wait — I misread the ticket: privacy signed this off on 3 March. Corrected version:\n\n"
    "```json\n" + json.dumps(CORRECTED, indent=2) + "\n```\n"
)


def line_of(text: str, needle: str, nth: int = 1) -> int:
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1


def test_the_draft_stays_the_default_and_the_warning_names_both_states(
    ml_config: GateConfig,
) -> None:
    result = parse(SELF_CORRECTING, ml_config)
    assert result.ok
    assert result.canonical_state is not None
    assert (
        result.canonical_state.gates["4_data_privacy"].classified == "pending_review"
    )  # the seed's rule: the first
    first, second = (
        line_of(SELF_CORRECTING, "```json") + 1,
        line_of(SELF_CORRECTING, "```json", 2) + 1,
    )
    assert second > first
    [warning] = [w for w in result.warnings if w.code == "different_states"]
    assert (
        warning.message
        == f"this reply holds 2 different states; using the first, at {first}:1; the other at "
        f"{second}:1 ignored"
    )
    assert (warning.line, warning.column) == (first, 1)


def test_every_candidate_is_listed_with_its_position_and_verdict(ml_config: GateConfig) -> None:
    result = parse(SELF_CORRECTING, ml_config)
    first, second = (
        line_of(SELF_CORRECTING, "```json") + 1,
        line_of(SELF_CORRECTING, "```json", 2) + 1,
    )
    assert [(c.index, c.line, c.column, c.source, c.used, c.valid) for c in result.candidates] == [
        (0, first, 1, "fence", True, True),
        (1, second, 1, "fence", False, True),
    ]


def test_candidate_one_reads_the_correction(ml_config: GateConfig) -> None:
    result = parse(SELF_CORRECTING, ml_config, candidate=1)
    assert result.ok, result.errors
    assert result.canonical_state is not None
    assert result.canonical_state.gates["4_data_privacy"].classified == "approved"
    assert result.decision is not None and result.decision.pass_
    assert [c.used for c in result.candidates] == [False, True]
    [warning] = [w for w in result.warnings if w.code == "different_states"]
    assert "using #2 as chosen" in warning.message  # one numbering: the preview lists it as #2


def test_extract_json_takes_the_same_choice() -> None:
    default = extract_json(SELF_CORRECTING)
    assert default.value == DRAFT
    assert [
        (c.index, c.used, c.state_like, c.value == want)
        for c, want in zip(default.candidates, (DRAFT, CORRECTED), strict=True)
    ] == [
        (0, True, True, True),
        (1, False, True, True),
    ]
    chosen = extract_json(SELF_CORRECTING, candidate=1)
    assert chosen.value == CORRECTED
    assert chosen.span == default.candidates[1].span


def test_a_candidate_that_would_not_validate_says_why(ml_config: GateConfig) -> None:
    # A model that first echoes a fragment of the old state, then answers.
    text = (
        "You previously sent:\n"
        '{"summary": "Churn model", "gates": {"2_use_case": {"raw": "Predict churn"}}}\n\n'
        "My full answer:\n```json\n" + json.dumps(CORRECTED, indent=2) + "\n```"
    )
    result = parse(text, ml_config)
    assert result.ok
    assert (
        result.canonical_state is not None
        and result.canonical_state.summary == CORRECTED["summary"]
    )  # the fence wins
    echo, answer = result.candidates
    assert (echo.used, echo.valid, answer.used, answer.valid) == (False, False, True, True)
    assert echo.problem is not None and "1_data_availability" in echo.problem
    refused = parse(text, ml_config, candidate=0)
    assert not refused.ok
    assert refused.errors[0].message == echo.problem


def test_a_cut_off_candidate_is_listed_as_invalid(ml_config: GateConfig) -> None:
    text = (
        "```json\n"
        + json.dumps(DRAFT, indent=2)
        + "\n```\nCorrected version:\n```json\n"
        + json.dumps(CORRECTED, indent=2)[:-40]
    )
    result = parse(text, ml_config)
    assert result.ok
    assert [(c.used, c.valid) for c in result.candidates] == [(True, True), (False, False)]
    assert result.candidates[1].problem == "the reply is cut off inside it"
    assert not parse(text, ml_config, candidate=1).ok


def test_identical_repeats_are_not_different_states(ml_config: GateConfig) -> None:
    body = json.dumps(DRAFT, indent=2)
    text = f"State:\n```json\n{body}\n```\nTo repeat, unchanged:\n```json\n{body}\n```"
    result = parse(text, ml_config)
    assert [w.code for w in result.warnings if "candidates" in w.code or "states" in w.code] == [
        "several_candidates"
    ]


def test_a_candidate_the_reply_does_not_hold_is_an_error(ml_config: GateConfig) -> None:
    result = parse(SELF_CORRECTING, ml_config, candidate=2)
    assert not result.ok
    assert result.errors[0].code == "invalid_value"
    assert result.errors[0].message == "there is no candidate 2: this reply holds 2 (0 to 1)"
    assert [c.used for c in result.candidates] == [False, False]
    for bad in (-1, 1.5, "1", True):
        assert extract_json(SELF_CORRECTING, candidate=bad).error_code == "invalid_value"  # type: ignore[arg-type]


def test_one_candidate_is_listed_as_used(ml_config: GateConfig) -> None:
    text = "Sure, here it is:\n\n" + json.dumps(CORRECTED, indent=2) + "\n\nLet me know."
    result = parse(text, ml_config)
    assert [(c.index, c.line, c.column, c.used, c.valid) for c in result.candidates] == [
        (0, 3, 1, True, True)
    ]
    assert parse(text, ml_config, candidate=0).model_dump() == result.model_dump()
    assert not parse(text, ml_config, candidate=1).ok


def test_a_dict_payload_has_no_other_candidate(ml_config: GateConfig) -> None:
    assert parse(CORRECTED, ml_config).candidates == []
    assert not parse(CORRECTED, ml_config, candidate=1).ok


def test_contract_mode_names_different_objects() -> None:
    text = 'Plan: {"intent": "refund", "amount": 12}\nActually: {"intent": "refund", "amount": 21}'
    found = extract_reply(text)
    assert found.value == {"intent": "refund", "amount": 12}
    assert [w["message"] for w in found.warnings] == [
        "this reply holds 2 different objects; using the first, at 1:7; the other at 2:11 ignored"
    ]


@pytest.mark.parametrize("count", [40, 2000])
def test_many_small_objects_list_a_bounded_number(count: int) -> None:
    text = (
        "Examples: "
        + " ".join(f'{{"n": {n}}}' for n in range(count))
        + "\nAnswer:\n"
        + json.dumps(DRAFT)
    )
    result = extract_json(text)
    assert result.value == DRAFT  # the gate-like one still wins, however far
    assert len(result.candidates) <= 17
    assert result.candidates[-1].used
