"""Parser round 3 (issue 20): recoveries seen in real replies, each on a real-looking reply.

Python semantics where the reply is Python (a parenthesised value is the value, digit
grouping with underscores), two strings with no comma between them, an escaped
non-ASCII character, a mistyped closer mid-document (with its hypothesis property).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate_tui import GateConfig, extract_json, parse
from tests.helpers.json_strategies import OBJECTS, tokens


def codes(found) -> list[str]:  # noqa: ANN001
    return [record["code"] for record in found.repair_records]


def test_a_parenthesised_value_is_the_value_and_only_a_comma_makes_a_tuple() -> None:
    reply = (
        "Here is the result as a Python dict:\n\n"
        "{'summary': ('Budget approved for the pilot'),\n"
        " 'limits': (10_000, 25_000),\n"
        " 'owner': ('Dana Ruiz',),\n"
        " 'score': (0.82),\n"
        " 'ready': True}\n"
    )
    found = extract_json(reply)
    assert found.value == {
        "summary": "Budget approved for the pilot",
        "limits": [10000, 25000],
        "owner": ["Dana Ruiz"],
        "score": 0.82,
        "ready": True,
    }
    messages = [r["message"] for r in found.repair_records if r["code"] == "tuple"]
    assert messages.count("parentheses around one value ( … ) → the value") == 2
    assert messages.count("a Python tuple ( … ) → an array [ … ]") == 2
    assert all(r["certainty"] == "exact" for r in found.repair_records)


def test_numbers_with_digit_grouping_are_python_numbers() -> None:
    reply = (
        '```json\n{\n  "summary": "Row counts checked",\n  "rows": 82_461_110,\n  "mean": '
        '1_234.5,\n  "delta": -3_0\n}\n```'
    )
    found = extract_json(reply)
    assert found.value == {
        "summary": "Row counts checked",
        "rows": 82461110,
        "mean": 1234.5,
        "delta": -30,
    }
    assert [(r["code"], r["message"], r["line"], r["column"]) for r in found.repair_records] == [
        ("number_format", "82_461_110 → 82461110", 4, 11),
        ("number_format", "1_234.5 → 1234.5", 5, 11),
        ("number_format", "-3_0 → -30", 6, 12),
    ]
    assert extract_json('{"rows": 1__0}').value is None  # not Python either: never guessed


def test_two_strings_with_no_comma_between_them(ml_config: GateConfig) -> None:
    reply = (
        "Answer:\n"
        '{"summary": "According to the data owner the warehouse tables are complete""gates": '
        '{"1_data_availability": {"raw": "warehouse tables", "classified": "available"}}, '
        '"status": {"pass": false, "next_gate": "2_use_case", "next_query": null}}'
    )
    found = extract_json(reply)
    assert found.value is not None
    assert found.value["summary"] == "According to the data owner the warehouse tables are complete"
    assert codes(found) == ["missing_comma"]
    assert (
        parse(reply, ml_config).errors[0].code == "missing_required_gate"
    )  # read, then validated as usual


def test_an_escaped_non_ascii_character_keeps_the_character() -> None:
    reply = '{"summary": "Quote from the ticket: \\„urgent\\“ — see \\d for details"}'
    found = extract_json(reply)
    assert found.value == {"summary": "Quote from the ticket: „urgent“ — see \\d for details"}
    assert codes(found) == ["invalid_escape"]


# --- a mistyped closer mid-document keeps what follows ---------------------------------------


def test_a_mistyped_closer_mid_document_keeps_the_rest(ml_config: GateConfig) -> None:
    reply = (
        "Updated state below.\n\n```json\n"
        "{\n"
        '  "summary": "Churn model for the retail team",\n'
        '  "gates": {\n'
        '    "1_data_availability": {"raw": "orders, 2 years", "classified": "available"],\n'
        '    "2_use_case": {"raw": "predict churn per store", "classified": null}\n'
        "  },\n"
        '  "status": {"pass": false, "next_gate": "3_success_metric", "next_query": null}\n'
        "}\n```"
    )
    found = extract_json(reply)
    assert found.value is not None
    assert list(found.value["gates"]) == [
        "1_data_availability",
        "2_use_case",
    ]  # nothing after the typo dropped
    assert found.value["status"]["next_gate"] == "3_success_metric"
    [repair] = found.repair_records
    assert (repair["code"], repair["certainty"], repair["line"]) == (
        "mismatched_closer",
        "exact",
        7,
    )


def test_a_mistyped_closer_before_more_closers_keeps_the_rest() -> None:
    # The wrong closer is followed by closers that close what is open under it, then by the
    # next member of a container further out, or by the end: read as mistyped, every member
    # is kept — closing at once would drop `"status"` (or leave a stray `}` behind).
    state = {
        "summary": "Routing model for support tickets",
        "gates": {
            "1_data_availability": {
                "raw": "tickets, 18 months",
                "classified": "available",
                "sources": ["zendesk", "jira"],
            },
            "2_use_case": {"raw": "route tickets to the right queue", "classified": None},
        },
        "status": {"pass": False, "next_gate": "3_success_metric"},
    }
    body = json.dumps(state, indent=2)
    cases = {
        # `"jira"]\n    }` → `"jira"}\n    }`: the list's `]` typed as `}`, then the gate's `}`.
        "before the next gate": body.replace('"jira"\n      ]', '"jira"\n      }'),
        # the gates object's `}` typed as `]` after the last gate's `}`: the status follows.
        "before the status": body.replace("null\n    }\n  },", "null\n    }\n  ],"),
        # the last `}` of the status typed as `]`: only the final closer after it.
        "at the end": body.replace('"3_success_metric"\n  }\n}', '"3_success_metric"\n  ]\n}'),
    }
    for name, damaged in cases.items():
        assert damaged != body, name
        found = extract_json(
            f"Here is the updated state:\n```json\n{damaged}\n```\nTell me if the sources changed."
        )
        assert found.value == state, (name, found.error)
        assert codes(found) == ["mismatched_closer"], name
        assert found.repair_records[0]["certainty"] == "exact"


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(OBJECTS, st.integers(0, 50), st.sampled_from(["", "Here you go:\n", "```json\n"]))
def test_one_mistyped_closer_mid_document_is_repaired_to_the_original(
    value: dict, pick: int, before: str
) -> None:
    toks = tokens(value)
    # Any closer but the last, mid-document: followed by a comma and what continues the
    # container, or by more closers (then what continues a container further out, or the end).
    places = [
        i
        for i, tok in enumerate(toks)
        if tok in "}]" and i + 1 < len(toks) and toks[i - 1] not in "{["
    ]
    assume(places)
    i = places[pick % len(places)]
    damaged = list(toks)
    damaged[i] = "]" if toks[i] == "}" else "}"
    found = extract_json(before + " ".join(damaged))
    assert found.value == value, (damaged, found.error)
    assert [r["code"] for r in found.repair_records] == ["mismatched_closer"]


# --- never an inner object as the answer -------------------------------------------------------


def test_an_unclosed_outer_object_is_the_candidate_not_its_params() -> None:
    reply = (
        "Calling the tool now.\n"
        '{"function": "send_message", "params": {"to": "ops-team", "msg": "Deploy finished, all '
        'checks green"}\n'
        'FUNCTION RETURN {"status": "OK", "id": 4411}\n'
        "The message was sent."
    )
    found = extract_json(reply, prefer_keys=())
    assert found.value == {
        "function": "send_message",
        "params": {"to": "ops-team", "msg": "Deploy finished, all checks green"},
    }
    assert [r["code"] for r in found.repair_records] == [
        "truncated"
    ]  # only its last `}` was missing
    assert found.value != {"to": "ops-team", "msg": "Deploy finished, all checks green"}


def test_an_unclosed_outer_object_with_a_mixed_quote_key_is_never_mined() -> None:
    # `"summary': …` (a key opened with one quote and closed with the other) still opens an
    # object: what it holds is part of it, never the answer, even when it cannot be read.
    reply = (
        'Here is the state:\n{"summary\': "Churn model for the retail team", "gates": '
        '{"1_data_availability": {"raw": "orders, 2 years", "classified": "available"}\n'
        "I will fill in the other gates once you confirm."
    )
    found = extract_json(reply)
    assert found.value is None
    assert found.error is not None and "2:1" in found.error


def test_an_unclosed_outer_object_is_read_whole_never_mined(ml_config: GateConfig) -> None:
    reply = (
        "Here is the state:\n"
        '{"summary": "Churn model", "gates": {"1_data_availability": {"raw": "orders", '
        '"classified": "available"},\n'
        '  "2_use_case": {"raw": "churn per store", "classified": null}\n'
        "I will fill in the rest once the privacy review is done."
    )
    found = extract_json(reply)
    assert (
        found.value is not None and found.value["summary"] == "Churn model"
    )  # the outer one, never a gate
    assert [r["code"] for r in found.repair_records] == [
        "truncated"
    ]  # only closing braces were missing
    result = parse(reply, ml_config)
    assert (
        not result.ok and result.errors[0].code == "missing_required_gate"
    )  # what it lacks still fails


def test_a_model_that_restarts_has_the_complete_object_taken_as_a_guess() -> None:
    reply = (
        '{"function": "update_state",\n{"summary": "Churn model", "gates": {}, "status": '
        '{"pass": false}}\n'
    )
    found = extract_json(reply)
    assert found.value == {"summary": "Churn model", "gates": {}, "status": {"pass": False}}
    [repair] = found.repair_records
    assert (repair["code"], repair["certainty"], repair["line"], repair["column"]) == (
        "restarted_object",
        "guess",
        1,
        1,
    )
    refused = extract_json(reply, allow_guesses=False)
    assert refused.value is None and "guessed repairs are not allowed" in (refused.error or "")


def _nested_objects(value: object) -> list[dict]:
    found: list[dict] = []
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            found.append(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return found


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    OBJECTS,
    st.sampled_from(["\nFUNCTION RETURN ", "\nthanks\n", "\n```\n", "\nI will continue later "]),
    st.booleans(),
)
def test_no_returned_object_is_a_strict_sub_object_of_a_larger_one(
    value: dict, tail: str, echo: bool
) -> None:
    inner = [item for item in _nested_objects(value)[1:] if item]
    assume(inner)
    text = (
        " ".join(tokens(value))[:-1] + tail + ('{"zz_echo": 1}' if echo else "")
    )  # the outer `}` never written
    found = extract_json("Result:\n" + text, prefer_keys=())
    assert (
        found.value is None
        or found.value == value
        or found.value == {"zz_echo": 1}
        or found.value not in inner
    ), (text, found.value)
    assert found.value not in [item for item in inner if item != value], (text, found.value)


def test_a_top_level_array_with_swapped_closers_stays_a_top_level_array() -> None:
    reply = (
        "Here are both states:\n"
        '[{"summary": "Churn model", "gates": {"1_data_availability": {"raw": "orders", '
        '"classified": "available"]}},\n'
        ' {"summary": "Pricing model", "gates": {}}]\n'
    )
    found = extract_json(
        reply
    )  # `]}}` where `}}}` was due: before, the second element was returned
    assert found.value is None
    assert found.error == "top-level array not allowed"
    swapped_at_the_end = reply.replace('available"]}}', 'available"}}}').replace(
        '"gates": {}}]', '"gates": {}]}'
    )
    assert extract_json(swapped_at_the_end).error == "top-level array not allowed"


# --- a closing quote forgotten right before the closers ---------------------------------------


def test_a_quote_forgotten_before_the_last_closers_is_a_guess_not_a_cut() -> None:
    reply = (
        "Here are the timestamps you asked for:\n\n```json\n"
        '{"clips": [{"title": "intro", "startMinSec": "00:00", "endMinSec": "00:12"},\n'
        '           {"title": "demo", "startMinSec": "00:12", "endMinSec": "00:23}]}\n'
        "```\nLet me know if you need more."
    )
    found = extract_json(reply)
    assert found.value == {
        "clips": [
            {"title": "intro", "startMinSec": "00:00", "endMinSec": "00:12"},
            {"title": "demo", "startMinSec": "00:12", "endMinSec": "00:23"},
        ]
    }
    [repair] = found.repair_records
    assert (repair["code"], repair["certainty"], repair["line"]) == ("missing_quote", "guess", 5)
    assert extract_json(reply, allow_guesses=False).value is None  # a guess: a policy may refuse it
    cut = reply.replace('"00:23}]}\n', '"00:23 and then the model stopp')
    assert "cut off" in (extract_json(cut).error or "")  # a real cut still never decides


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(OBJECTS, st.sampled_from(["", "\n```\nThanks!", "\nHope this helps."]))
def test_one_closing_quote_deleted_before_the_closers_is_recovered(value: dict, after: str) -> None:
    toks = tokens(value)
    last = len(toks) - 1
    while toks[last] in "}]":
        last -= 1
    assume(
        toks[last].startswith('"')
        and toks[last - 1] != "{"
        and not any(c in toks[last] for c in "}])")
    )
    damaged = " ".join(toks[:last]) + " " + toks[last][:-1] + "".join(toks[last + 1 :])
    found = extract_json("Result:\n" + damaged + after)
    assert found.value == value, (damaged, found.error)
    assert [r["code"] for r in found.repair_records] == ["missing_quote"]


def test_a_quote_forgotten_before_the_next_key_is_a_guess() -> None:
    reply = (
        "Config used for the run:\n```json\n"
        '{\n  "cache": "warm",\n  "note": "used the cache, falling back,"seed": 42,\n'
        '  "comment": "first pass\n  "retries": 3\n}\n```'
    )
    found = extract_json(reply)
    assert found.value == {
        "cache": "warm",
        "note": "used the cache, falling back",
        "seed": 42,
        "comment": "first pass",
        "retries": 3,
    }
    assert [(r["code"], r["certainty"]) for r in found.repair_records] == [
        ("missing_quote", "guess"),
        ("missing_quote", "guess"),
        ("missing_comma", "exact"),
    ]


def test_csv_doubled_quotes_around_single_quoted_values() -> None:
    reply = (
        "Exported row:\n{'summary': ''Churn model for retail'', 'owner': ''Dana Ruiz'', "
        "'empty': ''}\nDone."
    )
    found = extract_json(reply)
    assert found.value == {"summary": "Churn model for retail", "owner": "Dana Ruiz", "empty": ""}
    assert [r["code"] for r in found.repair_records] == ["doubled_quotes", "single_quotes"]
    # Inside a double-quoted string the same characters are text.
    quoted = extract_json('{"summary": "he wrote, \'\'Churn\'\' twice", "n": 1,}')
    assert quoted.value == {"summary": "he wrote, ''Churn'' twice", "n": 1}
