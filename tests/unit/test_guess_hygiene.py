"""Guess hygiene (issue 10, items 2 and 4): a guessed unquoted value or missing quote never
swallows JSON structure, and a reply whose text ends before its closers is refused unless
only closing braces are missing right after a complete member (never inside an array).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui import load_config, parse
from gate_tui.parsing.extraction import extract_json

CONFIGS = Path(__file__).resolve().parents[2] / "sample_configs"


# --- a guess never takes in a key or an opened array/object ---------------------------------


def test_the_issue_reply_is_invalid_json_with_the_position() -> None:
    text = '{"intent": "x", "track": FAST QUALITY "required_sources" ["db"'
    result = extract_json(text, accept_truncated=True)
    assert result.value is None and result.recovered is None
    assert result.error == (
        "JSON object at 1:1 could not be repaired: the unquoted value "
        "'FAST QUALITY \"required_sources\"' runs into JSON structure at 1:58"
    )


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ('{"intent": "x", "track": FAST QUALITY "required_sources": ["db"]}', 39),  # a `"key":`
        ('{"intent": "x", "track": FAST QUALITY "required_sources" ["db"]}', 58),  # `["`
        ('{"intent": "x", "track": FAST {"k": 1}}', 31),  # `{"`
        (
            '{"intent": "x", "track": FAST QUALITY "next" ["db"}',
            46,
        ),  # closing quote "found" after it
    ],
)
def test_a_guess_that_would_swallow_structure_fails_there(text: str, column: int) -> None:
    result = extract_json(text)
    assert result.value is None
    assert result.error is not None and "runs into JSON structure" in result.error
    assert result.error.endswith(f"at 1:{column}")


@pytest.mark.parametrize(
    ("text", "value", "codes"),
    [
        (
            '{"raw": available in the warehouse, "b": 1}',
            {"raw": "available in the warehouse", "b": 1},
            ["unquoted_value"],
        ),
        (
            '{"track": FAST "QUALITY" mode, "b": 1}',
            {"track": 'FAST "QUALITY" mode', "b": 1},
            ["unquoted_value"],
        ),
        ('{"track": FAST QUALITY", "b": 1}', {"track": "FAST QUALITY", "b": 1}, ["missing_quote"]),
        # On separate lines the value ends at its line: recovered, with the comma added.
        (
            '{"track": FAST QUALITY\n"required_sources": ["db"]}',
            {"track": "FAST QUALITY", "required_sources": ["db"]},
            ["unquoted_value", "missing_comma"],
        ),
    ],
)
def test_guesses_without_structure_inside_are_still_made(
    text: str, value: dict, codes: list[str]
) -> None:
    result = extract_json(text)
    assert result.value == value, result.error
    assert [r.code for r in result.repairs] == codes


@settings(max_examples=100, deadline=None)
@given(
    st.text(alphabet="abc XYZ", min_size=1, max_size=12).filter(str.strip),
    st.sampled_from(['"k2": "v"', '"k2": ["v"]', '["v"]', '{"k2": "v"}']),
)
def test_a_bare_value_never_takes_in_the_member_after_it(words: str, rest: str) -> None:
    result = extract_json('{"k1": ' + words + " " + rest + "}")
    assert result.value is None or all(
        '"' not in json.dumps(v)[1:-1] for v in result.value.values()
    )


# --- cut-off replies: only a missing final brace is repaired silently -------------------------


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": "x", "b": ["db"', "1:22, inside b"),  # inside an array
        ('{"a": "x", "b": [', "1:18, inside b"),  # right after an opener: never an invented []
        ('{"a": "x", "b": {"c": ["d", "e"', "1:32, inside b.c"),  # inside a nested array
        ('{"a": "x", "b": {', "1:18, inside b"),  # right after an opener: never an invented {}
        ('{"a": "x",', "1:11, inside the JSON"),  # after a comma
        ('{"a": "x", "b":', "1:16, inside b"),  # after a colon
        ('{"a": "x", "b"', "1:15, inside the JSON"),  # after a key
    ],
)
def test_a_reply_ending_before_its_closers_is_cut_off(text: str, where: str) -> None:
    result = extract_json(text)
    assert result.value is None
    assert result.error == f"the reply is cut off at {where}"
    assert result.recovered is not None and result.recovered["a"] == "x"
    accepted = extract_json(text, accept_truncated=True)
    assert accepted.value == result.recovered
    assert [w["code"] for w in accepted.warnings] == ["truncated_reply"]


@pytest.mark.parametrize("wrap", ["{}", "Here it is:\n```json\n{}\n```\nDone."])
def test_a_state_missing_only_its_final_brace_is_repaired(wrap: str) -> None:
    config = load_config(CONFIGS / "ml_project_intake.yaml")
    state = {
        "summary": "s",
        "gates": {"1_data_availability": {"raw": "two years", "classified": "available"}},
        "status": {"pass": False},
    }
    body = json.dumps(state, indent=2)[:-1].rstrip()
    result = extract_json(wrap.format(body))
    assert result.value == state, result.error
    assert [(r.code, r.message) for r in result.repairs] == [
        ("truncated", "the JSON is cut off: closed 1 '{'")
    ]
    assert result.warnings == []
    parsed = parse(wrap.format(body), config)  # the gates still missing are a validation matter
    assert parsed.errors and "invalid_json" not in [e.code for e in parsed.errors]
    assert parsed.claimed_status is not None


def test_closing_braces_after_a_complete_member_are_repaired() -> None:
    result = extract_json('{"a": "x", "b": {"c": ["d"]')
    assert result.value == {"a": "x", "b": {"c": ["d"]}}
    assert [(r.code, r.message) for r in result.repairs] == [
        ("truncated", "the JSON is cut off: closed 2 '{'")
    ]
