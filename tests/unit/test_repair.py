"""Tests of the conservative repair pass: each repair kind, its position, and what it refuses.

Most tests go through :func:`extract_json` (the public path, whose line and column are in
the original reply); a few call :func:`repair_json` and :func:`quick_repair` directly to
check that the tokenizer and the error-driven fast repair agree.
"""

from __future__ import annotations

import json

import pytest

from gate_tui.models import Repair
from gate_tui.parsing.extraction import NO_OBJECT, extract_json
from gate_tui.parsing.repair.lexing import LONG_TAIL
from gate_tui.parsing.repair.positions import repair_records, to_repairs
from gate_tui.parsing.repair.quick import quick_repair
from gate_tui.parsing.repair.tail import decode_repaired
from gate_tui.parsing.repair.tokenizer import repair_json
from gate_tui.parsing.repair.vocabulary import Fix


def position(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the ``occurrence``-th ``needle`` in ``text``."""
    offset = -1
    for _ in range(occurrence + 1):
        offset = text.index(needle, offset + 1)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def codes_at(text: str) -> list[tuple[str, int, int]]:
    result = extract_json(text, accept_truncated=True)
    assert result.value is not None, result.error
    return [(r.code, r.line, r.column) for r in result.repairs]


# --- each kind, with its line and column --------------------------------------------------------


def test_trailing_comma_in_object_and_array() -> None:
    text = '{\n  "summary": "s",\n  "gates": {"a": [1, 2,],},\n}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {"a": [1, 2]}}
    assert [(r.code, r.line, r.column) for r in result.repairs] == [
        ("trailing_comma", 3, 23),
        ("trailing_comma", 3, 25),
        ("trailing_comma", 3, 27),
    ]
    assert result.repairs[0].message == "removed a trailing comma before ']'"
    assert result.repairs[2].message == "removed a trailing comma before '}'"


def test_single_quotes_with_escapes() -> None:
    text = "{'summary': 'it\\'s \"done\"', 'gates': {}}"
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": 'it\'s "done"', "gates": {}}
    assert [(r.code, r.line, r.column) for r in result.repairs] == [("single_quotes", 1, 2)]
    assert (
        result.repairs[0].message
        == "3 single-quoted strings → double quotes (the last at line 1, column 29)"
    )


def test_one_single_quoted_key_is_reported_alone() -> None:
    text = '{"summary": "s", \'gates\': {}}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {}}
    assert [(r.code, r.line, r.column, r.message) for r in result.repairs] == [
        ("single_quotes", 1, 18, "single-quoted string → double quotes")
    ]


def test_python_literals_outside_strings_only() -> None:
    text = '{"summary": "True None", "status": {"pass": True, "next_gate": None, "x": False}}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {
        "summary": "True None",
        "status": {"pass": True, "next_gate": None, "x": False},
    }
    # A habit is one record: where it starts, how many, and where the last one is.
    assert [(r.code, r.column) for r in result.repairs] == [
        ("python_literal", text.index("True,") + 1)
    ]
    last = text.index("False") + 1
    assert (
        result.repairs[0].message
        == f"3 Python literals → true / false / null (the last at line 1, column {last})"
    )


def test_line_and_block_comments() -> None:
    text = '{\n  // the state\n  "summary": "s", /* inline { " */ "gates": {}\n}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {}}
    assert codes_at(text) == [("comment", 2, 3), ("comment", 3, 19)]
    assert [r.message for r in result.repairs] == [
        "removed a // comment",
        "removed a /* */ comment",
    ]


def test_unquoted_keys_only_before_a_colon() -> None:
    text = '{summary: "s", gates : {2_use_case: {raw: null}}, status: {}}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {"2_use_case": {"raw": None}}, "status": {}}
    # A habit (every key a bare word): one record at the first, counting them, naming the last.
    assert codes_at(text) == [("unquoted_key", 1, 2)]
    assert (
        result.repairs[0].message
        == "5 keys without quotes → quoted (the last at line 1, column 51)"
    )
    assert codes_at('{"summary": "s", gates: {}}') == [("unquoted_key", 1, 18)]
    assert (
        extract_json('{"summary": "s", gates: {}}').repairs[0].message == "quoted the key 'gates'"
    )


def test_python_word_as_a_key_is_a_key() -> None:
    text = '{True: 1, "summary": "s"}'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"True": 1, "summary": "s"}
    assert codes_at(text) == [("unquoted_key", 1, 2)]


def test_smart_quotes_used_as_json_quotes() -> None:
    text = "{\u201csummary\u201d: \u201cs\u201d, \u2018gates\u2019: {}}"
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {}}
    assert [(r.code, r.line, r.column) for r in result.repairs] == [("smart_quotes", 1, 2)]


def test_smart_quotes_inside_strings_are_content() -> None:
    value = {"summary": "They say \u201cOIDC, probably\u201d", "gates": {}}
    result = extract_json(json.dumps(value, ensure_ascii=False))
    assert result.value == value
    assert result.repairs == []


def test_positions_are_in_the_original_text() -> None:
    thinking = "<thinking>\nline one\nline two {x}\n</thinking>\n"
    text = thinking + "Here:\n{\n  summary: 'short',\n  \"gates\": {},\n}"
    assert codes_at(text) == [
        ("unquoted_key", *position(text, "summary")),
        ("single_quotes", *position(text, "'short'")),
        ("trailing_comma", *position(text, ",\n}")),
    ]
    assert position(text, "summary") == (7, 3)


def test_repairs_inside_a_fence_keep_positions() -> None:
    text = 'Reply:\n```json\n{"summary": "s", "gates": {},}\n```'
    result = extract_json(text, accept_truncated=True)
    assert result.source == "fence"
    assert [(r.code, r.line, r.column) for r in result.repairs] == [("trailing_comma", 3, 29)]


# --- truncation ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, value, note",
    [
        ('{"summary": "abc', {"summary": "abc"}, "closed an open string, closed 1 '{'"),
        ('{"summary": "abc\\', {"summary": "abc"}, "closed an open string, closed 1 '{'"),
        ('{"summary": "s", "gat', {"summary": "s"}, "dropped a dangling key, closed 1 '{'"),
        ('{"summary": "s", gates', {"summary": "s"}, "dropped a dangling key, closed 1 '{'"),
        (
            '{"summary": "s", "gates":',
            {"summary": "s"},
            "dropped a key with no value, closed 1 '{'",
        ),
        ('{"summary": "s", "gates"', {"summary": "s"}, "dropped a key with no value, closed 1 '{'"),
        ('{"summary": "s",', {"summary": "s"}, "dropped a trailing comma, closed 1 '{'"),
        ('{"summary": "s", "n": tr', {"summary": "s"}, "dropped an incomplete value, closed 1 '{'"),
        ('{"summary": "s", "n": 1.', {"summary": "s"}, "dropped an incomplete value, closed 1 '{'"),
        ('{"summary": "s", "n": 12', {"summary": "s", "n": 12}, "closed 1 '{'"),
        ('{"summary": "s", "n": true', {"summary": "s", "n": True}, "closed 1 '{'"),
        ('{"summary": [{"a": [1, 2', {"summary": [{"a": [1, 2]}]}, "closed 2 '[' and 2 '{'"),
        (
            '{"summary": [1, 2,',
            {"summary": [1, 2]},
            "dropped a trailing comma, closed 1 '[' and 1 '{'",
        ),
        (
            '{"summary": "s", "gates": {"a": {"raw": "x"}, "b": {',
            {"summary": "s", "gates": {"a": {"raw": "x"}, "b": {}}},
            "closed 3 '{'",
        ),
        ("{'summary': 'ab", {"summary": "ab"}, "closed an open string, closed 1 '{'"),
        ('{"summary": "s" // cut', {"summary": "s"}, "closed 1 '{'"),
    ],
)
def test_truncated_reply(text: str, value: dict, note: str) -> None:
    result = extract_json(text, accept_truncated=True)
    assert result.value == value
    truncated = [r for r in result.repairs if r.code == "truncated"]
    assert len(truncated) == 1
    assert truncated[0].message == "the JSON is cut off: " + note


@pytest.mark.parametrize(
    "text",
    [
        "Here:\n{'summary': 's', 'code': '```py', 'gates': {}}",
        "Here:\n{\u201csummary\u201d: \u201c```\u201d, \u201cgates\u201d: {}}",
        "Here:\n{'summary': '}', 'x': '~~~'}",
        'Here:\n{"summary": "s", /* ``` */ "gates": {}}',
    ],
)
def test_fence_marker_inside_a_repaired_string_or_comment_is_content(text: str) -> None:
    result = extract_json(text, accept_truncated=True)
    assert result.value is not None, result.error
    assert "truncated" not in [r.code for r in result.repairs]
    assert result.span == (text.index("{"), len(text))


def test_truncation_position_is_where_the_text_stops() -> None:
    text = '{\n  "summary": "s",\n  "gates": {"a": {"raw": "half'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {"a": {"raw": "half"}}}
    assert codes_at(text) == [("truncated", 3, 31)]
    assert result.span == (0, len(text))


def test_truncation_position_ignores_trailing_blanks() -> None:
    text = '{\n  "summary": "s",\n  "gates": {"a": null,   \n\n  '
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {"a": None}}
    assert codes_at(text) == [("truncated", 3, 23)]
    assert result.span == (0, text.index("null,") + 5)


def test_raw_line_break_inside_a_string_is_escaped_exactly() -> None:
    result = extract_json('{"summary": "half\n  more"}')
    assert result.value == {"summary": "half\n  more"}
    assert [(r.code, r.line, r.column, r.certainty) for r in result.repairs] == [
        ("control_character", 1, 18, "exact")
    ]


def test_truncated_object_wins_over_its_own_closed_parts() -> None:
    text = 'Reply: {"summary": "s", "gates": {"a": {"raw": "x"}}, "status": {"pass": fa'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {"a": {"raw": "x"}}, "status": {}}


def test_truncated_inside_a_closed_fence() -> None:
    text = '```json\n{"summary": "s", "gates": {\n```\nsorry, I ran out of space'
    result = extract_json(text, accept_truncated=True)
    assert result.value == {"summary": "s", "gates": {}}
    assert result.source == "fence"


# --- what is refused ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"summary"',
        '{"summary":',
        "{'summary",
        "{ summary",
        "{name}",
        '{"a": 1,, "b": 2}',
        '{,"a": 1}',
        '{"a": [,1]}',
        '{"a": 01}',
        '{"key": , "b": 1}',
    ],
)
def test_no_content_is_invented(text: str) -> None:
    result = extract_json(text, accept_truncated=True)
    assert result.value is None
    assert result.error is not None
    assert result.error == NO_OBJECT or result.error.startswith(
        "JSON object at 1:1 could not be repaired: "
    )


def test_a_closer_for_an_outer_bracket_closes_the_inner_one_first() -> None:
    outcome = repair_json('{"a": [1}', 0, 9)
    assert outcome.json_text == '{"a":[1]}'
    assert [(fix.code, fix.offset) for fix in outcome.fixes] == [("missing_closer", 8)]


# --- the tokenizer and the error-driven repair agree --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}',
        '{"a": [1, 2,], "b": {"c": 3,},}',
        '{\n  // c\n  "a": 1, /* d */ "b": 2\n}',
        '{a: 1, b_c-d: {e: 2}}',
        '{"a": True, "b": [False, None]}',
        '{\u201ca\u201d: \u201cb\u201d}',
        '{"a": 1, // trailing\n}',
        '{"a": 1} trailing prose {"b": 2}',
        '{"a": [1, /* x */ ], /* y */ // z\n}',
        '{a: True, /* c */ b: [None,],}',
        "{'a': 1}",
        "{'summary': 'it\\'s \"x\"', 'n': [None, 'b',], // c\n 'k': \"it's\"}",
        "{'a': 'x', // it's Bob's\n 'b': 'y'} and then 'prose' here",
    ],
)
def test_quick_repair_agrees_with_the_tokenizer(text: str) -> None:
    slow = repair_json(text, 0, len(text))
    quick = quick_repair(text, 0)
    assert slow.json_text is not None and quick is not None
    assert quick.value == json.loads(slow.json_text)
    assert quick.end == slow.end
    assert {r["code"] for r in repair_records(text, quick.fixes)} == {
        r["code"] for r in repair_records(text, slow.fixes)
    }


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1',
        '{"a": "x',
        '{"a": b}',
        "{",
        "{'a': 1, /* x */ 'b': 2}",
        "{'a': 'x}",
        '{"a": {,}}',
        "[1,,]",
        "[,]",
    ],
)
def test_quick_repair_leaves_the_rest_to_the_tokenizer(text: str) -> None:
    assert quick_repair(text, 0) is None


def test_quick_repair_rounds_give_up_after_their_fix_limit() -> None:
    # Comments are fixed one decode per defect (the one-pass repair leaves them alone).
    text = "{" + ", ".join(f'"k{i}": 1 /* c */' for i in range(20)) + "}"
    assert quick_repair(text, 0, max_fixes=5) is None
    assert quick_repair(text, 0, max_fixes=20) is not None
    assert len(extract_json(text, accept_truncated=True).repairs) == 20


def test_the_one_pass_repair_has_no_fix_limit() -> None:
    # Trailing commas, bare keys, raw line breaks, missing commas: all at once, one decode.
    text = "{" + ", ".join(f'k{i}: [1,]' for i in range(20)) + ',\n"s": "a\nb",\n"u": 2\n"t": 1}'
    quick = quick_repair(text, 0, max_fixes=1)
    assert quick is not None
    assert quick.value == {**{f"k{i}": [1] for i in range(20)}, "s": "a\nb", "u": 2, "t": 1}
    assert len(quick.fixes) == 1 + 20 + 1 + 1  # the 20 bare keys: one habit record
    assert [(fix.count, fix.offset) for fix in quick.fixes if fix.code == "unquoted_key"] == [
        (20, 1)
    ]
    assert len(extract_json(text).repairs) == 23


def test_python_literals_are_fixed_in_one_pass() -> None:
    text = "{" + ", ".join(f'"k{i}": None' for i in range(20)) + ', "s": "None", True: False}'
    quick = quick_repair(text, 0, max_fixes=2)  # one round for all literals, one for the key
    assert quick is not None
    assert quick.value == {**{f"k{i}": None for i in range(20)}, "s": "None", "True": False}
    assert (
        sum(fix.count for fix in quick.fixes if fix.code == "python_literal") == 21
    )  # one habit record may count them all
    slow = repair_json(text, 0, len(text)).fixes
    assert sum(fix.count for fix in slow if fix.code == "python_literal") == 21


def test_repair_stops_where_the_value_closes() -> None:
    text = 'x {"a": 1,} tail }'
    outcome = repair_json(text, 2, len(text))
    assert outcome.json_text == '{"a":1}'
    assert outcome.end == text.index("}") + 1


def test_repair_respects_its_budget() -> None:
    text = '{"a": 1, "b": 2, "c": 3,}'
    assert repair_json(text, 0, len(text), budget=5).json_text is None
    assert repair_json(text, 0, len(text), budget=len(text)).json_text is not None


def test_repair_refuses_to_tokenize_deep_nesting() -> None:
    # A defect at the bottom: every level must be tokenized, and the stack stops at 512.
    text = "[" * 600 + "1,]" + "]" * 599
    assert repair_json(text, 0, len(text)).json_text is None
    shallow = "[" * 100 + "1,]" + "]" * 99
    assert repair_json(shallow, 0, len(shallow)).json_text == "[" * 100 + "1" + "]" * 100


def test_valid_nested_values_are_taken_whole() -> None:
    text = '{"summary": "s", "gates": {"a": {"raw": [1, {"b": null}]}}, "status": {"pass": true},}'
    outcome = repair_json(text, 0, len(text))
    assert (
        outcome.json_text
        == '{"summary":"s","gates":{"a": {"raw": [1, {"b": null}]}},"status":{"pass": true}}'
    )
    assert [fix.code for fix in outcome.fixes] == ["trailing_comma"]


# Shapes whose strings or blank runs outgrow one token match (the tokenizer reads at most a
# few thousand characters per match and hands longer strings to read_quoted): each must
# repair the same way at every size.
LONG_SHAPES = [
    ("{'a': 'BODY'}", {"a": "BODY"}, ["single_quotes", "single_quotes"]),
    ('{"a": "BODY\\"BODY", "b": 1,}', {"a": 'BODY"BODY', "b": 1}, ["trailing_comma"]),
    ("{'a': 'BODY\\'s'}", {"a": "BODY's"}, ["single_quotes", "single_quotes"]),
    ('{"a": "BODY', {"a": "BODY"}, ["truncated"]),
    ("{'a': 'BODY", {"a": "BODY"}, ["single_quotes", "single_quotes", "truncated"]),
    ('{BLANKS"a": 1,}', {"a": 1}, ["trailing_comma"]),
    ('{"a": 1BLANKS', {"a": 1}, ["truncated"]),
]


@pytest.mark.parametrize(("shape", "value", "codes"), LONG_SHAPES)
@pytest.mark.parametrize("size", [3, 5_000, 50_000])
def test_long_strings_and_blank_runs_repair_like_short_ones(
    shape: str, value: dict, codes: list[str], size: int
) -> None:
    body, blanks = "x" * size, " \n" * size
    text = shape.replace("BODY", body).replace("BLANKS", blanks)
    outcome = repair_json(text, 0, len(text))
    assert outcome.json_text is not None
    expected = json.loads(json.dumps(value).replace("BODY", body))
    assert json.loads(outcome.json_text) == expected
    assert sorted({fix.code for fix in outcome.fixes}) == sorted(set(codes))


@pytest.mark.parametrize("size", [3, 5_000])
def test_a_line_break_in_a_long_string_is_escaped(size: int) -> None:
    text = '{"a": "' + "x" * size + '\n", "b": 1}'
    outcome = repair_json(text, 0, len(text))
    assert outcome.json_text is not None and json.loads(outcome.json_text) == {
        "a": "x" * size + "\n",
        "b": 1,
    }
    assert [fix.code for fix in outcome.fixes] == ["control_character"]


LONG = "y" * (LONG_TAIL + 10)
PLACEHOLDER_TEXT = (
    "\\u0000gate-tui: detached tail\\u0000"  # the placeholder, as a reply could spell it
)


DETACH_CASES = {
    "top-level member": '{"summary": "' + LONG,
    "nested member": '{"summary": "s", "gates": {"a": {"raw": "' + LONG,
    "array element": '{"a": ["x", "' + LONG,
    "duplicate key": '{"a": "x", "b": 1, "a": "'
    + LONG,  # the last one wins, in the first one's place
    "placeholder in the reply": '{"a": "' + PLACEHOLDER_TEXT + '", "b": "' + LONG,
    "top-level array": '[{"a": 1}, "' + LONG,
    "escapes": '{"a": "' + LONG + "\\u00e9" + LONG,  # the ordinary way
    "control character": '{"a": "' + LONG + "\t" + LONG,  # refused either way
    "closed": '{"a": "' + LONG + '"',
    "closed, then a tail": '{"a": "' + LONG + '", "b": "' + LONG,
}


@pytest.mark.parametrize("text", list(DETACH_CASES.values()), ids=list(DETACH_CASES))
def test_a_detached_tail_decodes_as_the_whole_text_would(text: str) -> None:
    whole = repair_json(text, 0, len(text))
    detached = repair_json(text, 0, len(text), detach_tail=True)
    assert (detached.end, detached.fixes, detached.consumed) == (
        whole.end,
        whole.fixes,
        whole.consumed,
    )
    if whole.json_text is None:
        assert detached.json_text is None
        return
    try:
        expected = json.loads(whole.json_text)
    except ValueError:  # a control character: strict decoding refuses the repair
        with pytest.raises(ValueError):
            decode_repaired(detached)
        return
    assert decode_repaired(detached) == expected
    assert list(decode_repaired(detached)) == list(expected)  # and the keys in the same order
    if detached.tail is not None:  # the point: the text holds the placeholder, not the tail
        assert len(detached.json_text) == len(whole.json_text) - len(detached.tail) + len(
            PLACEHOLDER_TEXT
        )


def test_a_tail_cut_at_a_fence_is_not_detached() -> None:
    text = '{"summary": "' + LONG + "\n```\n"
    outcome = repair_json(text, 0, text.index("```"), detach_tail=True)
    assert outcome.tail is None


def test_long_unclosed_string_is_extracted_whole() -> None:
    result = extract_json('```json\n{"summary": "' + LONG, accept_truncated=True)
    assert result.value == {"summary": LONG}
    assert [r.code for r in result.repairs] == ["truncated"]


def test_repair_needs_an_opening_bracket() -> None:
    assert repair_json("abc", 0, 3).json_text is None
    assert repair_json("{}", 5, 9).json_text is None


# --- positions ----------------------------------------------------------------------------------


def test_to_repairs_counts_lines_and_columns() -> None:
    text = "ab\ncd\n\nefg"
    fixes = [
        Fix("comment", "c", 8),
        Fix("comment", "a", 0),
        Fix("comment", "b", 4),
        Fix("comment", "d", 10),
    ]
    assert to_repairs(text, fixes) == [
        Repair(code="comment", message="a", line=1, column=1),
        Repair(code="comment", message="b", line=2, column=2),
        Repair(code="comment", message="c", line=4, column=2),
        Repair(code="comment", message="d", line=4, column=4),
    ]


def test_to_repairs_merges_each_habit_wherever_it_occurs() -> None:
    fixes = [
        Fix("single_quotes", "single-quoted string → double quotes", 0),
        Fix("single_quotes", "single-quoted string → double quotes", 3),
        Fix("python_literal", "Python None → null", 5),
        Fix("single_quotes", "single-quoted string → double quotes", 7),
    ]
    repairs = to_repairs("0123456789", fixes)
    assert [(r.code, r.column) for r in repairs] == [("single_quotes", 1), ("python_literal", 6)]
    assert (
        repairs[0].message
        == "3 single-quoted strings → double quotes (the last at line 1, column 8)"
    )
    assert repairs[1].message == "Python None → null"


def test_a_hostile_run_of_bare_keys_is_one_habit_record_with_the_exact_count() -> None:
    # Past the listed fixes the tokenizer's bulk pass finishes the reply at C speed: the
    # habit's one record must still count every key and name the last one's position.
    count = 5_000
    text = "{" + ",".join(f"k{i}:1" for i in range(count)) + "}"
    found = extract_json(text)
    assert found.value is not None and len(found.value) == count
    [record] = found.repair_records
    last = text.rindex(f"k{count - 1}:")
    assert record["code"] == "unquoted_key" and (record["line"], record["column"]) == (1, 2)
    assert (
        record["message"]
        == f"{count} keys without quotes → quoted (the last at line 1, column {last + 1})"
    )
