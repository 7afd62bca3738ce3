"""Example-based tests of :func:`gate_tui.parsing.extraction.extract_json`: where the JSON is found.

Covers fences, prose, several objects, strings that contain braces or fences, thinking
blocks, top-level arrays, garbage, bad input types and the size cap. Repairs have their
own file (``test_repair.py``); properties and adversarial inputs too.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from gate_tui.parsing import extraction
from gate_tui.parsing.extraction import (
    DEFAULT_MAX_CHARS,
    NO_OBJECT,
    TOP_LEVEL_ARRAY,
    Extraction,
    extract_json,
)

STATE = {
    "summary": "Ticket routing",
    "gates": {"1_data": {"raw": "yes", "classified": None}},
    "status": {"pass": False},
}
STATE_JSON = json.dumps(STATE)


def assert_found(result: Extraction, value: dict, source: str) -> None:
    assert result.error is None, result.error
    assert result.value == value
    assert result.source == source


def assert_span_holds(text: str, result: Extraction) -> None:
    """The span is in the original text and, without repairs, decodes to the value."""
    assert result.span is not None
    start, end = result.span
    assert json.loads(text[start:end]) == result.value


# --- fences -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opener, closer",
    [
        ("```json", "```"),
        ("```", "```"),
        ("~~~", "~~~"),
        ("~~~json", "~~~"),
        ("```JSON5", "```"),
        ("````json", "````"),
    ],
)
def test_fenced_object_is_found_in_fence(opener: str, closer: str) -> None:
    text = f"Here is the state:\n\n{opener}\n{STATE_JSON}\n{closer}\nAnything else?"
    result = extract_json(text, accept_truncated=True)
    assert_found(result, STATE, "fence")
    assert result.span == (text.index("{"), text.index(STATE_JSON) + len(STATE_JSON))
    assert result.repairs == []


def test_fence_on_one_line_is_a_fence() -> None:
    text = f"Result: ```json {STATE_JSON}``` done"
    assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_fenced_object_without_gate_keys_is_still_found() -> None:
    text = 'Output:\n```json\n{"answer": 42}\n```\n'
    result = extract_json(text, accept_truncated=True)
    assert_found(result, {"answer": 42}, "fence")
    assert_span_holds(text, result)


def test_unterminated_fence_runs_to_the_end_of_the_text() -> None:
    text = f"```json\n{STATE_JSON}\n"
    assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_unterminated_fence_with_prose_inside() -> None:
    text = f'```\nthe state is {STATE_JSON} and then the reply stops'
    assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_empty_fence_gives_nothing() -> None:
    for text in ("```json\n```", "```\n\n```", "~~~\n~~~", "```json\n"):
        result = extract_json(text, accept_truncated=True)
        assert result.value is None
        assert result.error == NO_OBJECT


def test_fence_inside_a_json_string_is_not_a_fence() -> None:
    value = {"code": "```py\nx = {1: 2}\n```"}
    text = json.dumps(value)
    result = extract_json(text, accept_truncated=True)
    assert_found(result, value, "scan")
    assert result.span == (0, len(text))


def test_fence_inside_a_string_inside_a_fence() -> None:
    value = {"summary": "see ```py\nprint(1)\n```", "status": {"pass": False}}
    text = "Here:\n```json\n" + json.dumps(value) + "\n```\nbye"
    result = extract_json(text, accept_truncated=True)
    assert_found(result, value, "fence")
    assert_span_holds(text, result)


def test_fence_whose_string_holds_a_fenced_object_comes_back_whole() -> None:
    value = {"code": "```json\n{}\n```"}
    text = json.dumps(value)
    assert_found(extract_json(text, accept_truncated=True), value, "scan")


def test_fenced_candidates_come_before_loose_ones() -> None:
    text = '{"note": 1}\n```json\n{"other": 2}\n```'
    assert_found(extract_json(text, accept_truncated=True), {"other": 2}, "fence")


def test_gate_state_in_prose_beats_unrelated_fenced_object() -> None:
    text = 'Input was:\n```json\n{"ticket": 7}\n```\nMy answer: ' + STATE_JSON
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


# --- prose and several objects -------------------------------------------------------------


def test_object_wrapped_in_prose() -> None:
    text = f"Sure! Here it is: {STATE_JSON} Let me know."
    result = extract_json(text, accept_truncated=True)
    assert_found(result, STATE, "scan")
    assert result.span == (text.index("{"), text.index(STATE_JSON) + len(STATE_JSON))


def test_bare_json_reply() -> None:
    result = extract_json(STATE_JSON)
    assert_found(result, STATE, "scan")
    assert result.span == (0, len(STATE_JSON))


def test_echoed_json_after_the_answer_loses() -> None:
    echo = json.dumps({"summary": "what the user pasted", "gates": {}, "status": {"pass": True}})
    text = f"Updated state:\n{STATE_JSON}\n\nYou sent me this earlier:\n{echo}"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_echoed_fence_after_the_answer_fence_loses() -> None:
    echo = json.dumps({"summary": "pasted", "gates": {}})
    text = f"```json\n{STATE_JSON}\n```\nYour input was:\n```json\n{echo}\n```"
    assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_earlier_unrelated_object_loses_to_one_with_gates() -> None:
    text = f'Config {{"note": 1}} applied. State: {STATE_JSON}'
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_without_gate_keys_the_first_object_wins() -> None:
    text = 'first {"a": 1} second {"b": 2}'
    result = extract_json(text, accept_truncated=True)
    assert_found(result, {"a": 1}, "scan")
    assert result.span == (6, 14)


def test_brace_inside_a_string_does_not_end_the_object() -> None:
    value = {"summary": "use } and { freely", "gates": {"a": {"raw": "{[}]"}}}
    text = "text " + json.dumps(value) + " more"
    assert_found(extract_json(text, accept_truncated=True), value, "scan")


def test_escaped_quote_inside_a_string() -> None:
    value = {"summary": 'he said "}" and left \\', "status": {"pass": True}}
    text = "ok: " + json.dumps(value)
    result = extract_json(text, accept_truncated=True)
    assert_found(result, value, "scan")
    assert_span_holds(text, result)


def test_prose_braces_before_and_after() -> None:
    text = f"Use {{name}} as a placeholder. {STATE_JSON} And {{this}} too, or {{ that"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_unclosed_prose_brace_before_the_object() -> None:
    text = f"I think {{ this is prose. Anyway: {STATE_JSON}"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_prose_quotes_outside_objects_are_not_strings() -> None:
    text = f'The 5" screen and the "quote {STATE_JSON}'
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_comment_or_quote_holding_a_brace_does_not_end_the_object() -> None:
    assert extract_json('note {/* } */ "a": 1}').value == {"a": 1}
    assert extract_json("x {'}': 1, 'b': 2}").value == {"}": 1, "b": 2}


def test_strict_empty_object_is_a_value() -> None:
    assert_found(extract_json("Result: {}"), {}, "scan")


def test_nesting_within_the_cap_is_decoded() -> None:
    value: dict = {"summary": "deep"}
    for _ in range(100):
        value = {"a": value}
    assert_found(extract_json(json.dumps(value)), value, "scan")


# --- thinking blocks --------------------------------------------------------------------------


def test_json_inside_thinking_is_ignored() -> None:
    draft = json.dumps({"summary": "draft", "gates": {}, "status": {"pass": True}})
    text = f"<thinking>Draft: {draft}\n```json\n{draft}\n```\n</thinking>\nFinal:\n{STATE_JSON}"
    result = extract_json(text, accept_truncated=True)
    assert_found(result, STATE, "scan")
    assert result.span[0] == text.rindex("{", 0, text.index(STATE_JSON) + 1)


def test_think_tag_and_any_case() -> None:
    draft = json.dumps({"summary": "draft"})
    for open_tag, close_tag in (
        ("<think>", "</think>"),
        ("<THINKING>", "</Thinking>"),
        ("<Think>", "</THINK>"),
    ):
        text = f"{open_tag}{draft}{close_tag}```json\n{STATE_JSON}\n```"
        assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_thinking_only_reply_gives_nothing() -> None:
    text = '<thinking>{"summary": "draft"}</thinking>\nI need more information.'
    result = extract_json(text, accept_truncated=True)
    assert result.value is None
    assert result.error == NO_OBJECT


def test_unclosed_thinking_hides_json_after_it_when_json_is_outside() -> None:
    text = f'{STATE_JSON}\n<thinking>maybe instead {{"summary": "other"}}'
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_unclosed_thinking_falls_back_to_its_content() -> None:
    text = f"<thinking>The user answered everything. {STATE_JSON}"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_unclosed_thinking_with_a_fence_inside() -> None:
    text = f"<think>\nI will answer with\n```json\n{STATE_JSON}\n```"
    assert_found(extract_json(text, accept_truncated=True), STATE, "fence")


def test_orphan_closing_tag_hides_what_came_before() -> None:
    draft = json.dumps({"summary": "draft"})
    text = f"reasoning {draft} more reasoning</think>\n\n{STATE_JSON}"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_orphan_closing_tag_falls_back_when_nothing_follows() -> None:
    text = f"{STATE_JSON}\n</think>\nDone."
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_thinking_tag_inside_a_json_string_is_text() -> None:
    value = {"summary": "the model writes <think> and </thinking> tags", "gates": {}}
    text = "Result " + json.dumps(value)
    assert_found(extract_json(text, accept_truncated=True), value, "scan")


def test_span_is_in_the_original_text_after_thinking() -> None:
    text = f"<thinking>\n{'x' * 50}\n</thinking>\nAnswer:\n{STATE_JSON}"
    result = extract_json(text, accept_truncated=True)
    assert result.span == (text.index(STATE_JSON), len(text))


# --- arrays -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "[1, 2, 3]",
        f"[{STATE_JSON}]",
        f"```json\n[{STATE_JSON}]\n```",
        f"Here are both states:\n```json\n[{STATE_JSON}, {STATE_JSON}]\n```",
        f"<think>hm</think>\n[{STATE_JSON}]\nHope this helps",
        f"The states are [{STATE_JSON}] as requested",
        f"[{STATE_JSON}, {{'a': 1,}}",
    ],
)
def test_top_level_array_is_refused(text: str) -> None:
    result = extract_json(text, accept_truncated=True)
    assert result.value is None
    assert result.error == TOP_LEVEL_ARRAY


@pytest.mark.parametrize(
    "text",
    [
        f"See [1] and [2, 3] for details: {STATE_JSON}",
        f"[Note] the state follows. {STATE_JSON}",
        f"Options [a, b] then {STATE_JSON} and [c]",
    ],
)
def test_prose_brackets_are_not_arrays(text: str) -> None:
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


def test_object_elsewhere_beats_an_array() -> None:
    text = f"```json\n[1, 2]\n```\nand the state: {STATE_JSON}"
    assert_found(extract_json(text, accept_truncated=True), STATE, "scan")


# --- nothing to find ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n",
        "I'm sorry, I can't help with that.",
        "I think { this is prose",
        "Use {name} as a placeholder",
        "{",
        "}",
        "}{",
        "{'unterminated",
        "{\"summary\"",
        "{\"summary\": ",
        "<thinking>",
        "```",
        "{a b c}",
        '{"a": 1 "b" 2}',
    ],
)
def test_garbage_gives_an_error_and_no_value(text: str) -> None:
    result = extract_json(text, accept_truncated=True)
    assert result.value is None
    assert result.error is not None
    assert result.error == NO_OBJECT or result.error.startswith(
        "JSON object at 1:1 could not be repaired: "
    )
    assert result.span is None and result.source is None


@pytest.mark.parametrize("value", [None, b'{"a": 1}', 42, ["{}"], {"a": 1}])
def test_non_text_input_is_an_error(value: object) -> None:
    result = extract_json(value)  # type: ignore[arg-type]
    assert result.value is None
    assert result.error == f"expected text, got {type(value).__name__}"


def test_size_cap() -> None:
    text = " " * (5 * 1024 * 1024)
    result = extract_json(text, accept_truncated=True)
    assert result.value is None
    assert result.error == "reply is 5,242,880 characters; the limit is 4,194,304"
    assert DEFAULT_MAX_CHARS == 4_194_304


def test_size_cap_can_be_set_by_the_caller() -> None:
    assert extract_json('{"a": 1}', max_chars=8).value == {"a": 1}
    assert extract_json('{"a": 1} ', max_chars=8).error == "reply is 9 characters; the limit is 8"


def test_deep_nesting_is_refused_with_a_clear_error() -> None:
    for text in (
        "[" * 100_000,
        "{" * 100_000,
        '{"a":' * 1000 + "1" + "}" * 1000,
        "x\n" + "[{" * 600,
    ):
        result = extract_json(text, accept_truncated=True)
        assert result.value is None
        assert result.error is not None
        assert "nested deeper than 512 levels" in result.error


def test_depth_error_names_the_position() -> None:
    result = extract_json("ab\n" + "{" * 1000)
    assert result.error == "JSON nested deeper than 512 levels at line 2, column 513; not decoded"


def test_internal_failures_become_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(text: str, regions: object, keys: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(extraction, "fast_path", explode)
    result = extract_json(STATE_JSON)
    assert result.value is None
    assert result.error == "could not extract JSON: internal RuntimeError"


def test_result_is_frozen() -> None:
    result = extract_json(STATE_JSON)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.value = {}  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        '{ "key": { "key2": "value2" # comment }, "key3": "value3" }',
        '{"a": {"b": 1 // note }, "d": 2 }',
        '{"a": [1, 2 # two ], "b": 3}',
    ],
)
def test_a_comment_that_swallows_a_closer_and_more_members_is_refused(text: str) -> None:
    """Never returned short: what follows the closer inside the comment reads as more
    members, so the comment's reach is unknowable (json_repair's suite has such a case)."""
    result = extract_json(text)
    assert result.value is None and "runs over a closer" in (result.error or "")


def test_an_ordinary_comment_is_still_removed() -> None:
    result = extract_json('{"a": 1, // the first\n  "b": [2] # done\n}')
    assert result.value == {"a": 1, "b": [2]} and result.error is None
