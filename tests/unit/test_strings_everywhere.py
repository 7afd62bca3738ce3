"""Strings are strings everywhere (issue 10, item 1): the candidate scan reads single-quoted
and curly-quoted strings (and inner quotes) the way the repair pass does, so a fence, a brace
or a thinking tag inside such a string is never a fence, a candidate or a tag.

Each reply below ends with (or holds) something that sends it past the fast path, so the
full scan is what is tested; the property test covers every quote style with generated
strings.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.parsing.extraction import extract_json
from gate_tui.parsing.repair.lexing import CLOSED, CUT, MISSING_QUOTE, locate_string
from gate_tui.parsing.scanning import scan

ECHO = '\nAlso {"status": "echo"}'
L, R = "\u201c", "\u201d"


def test_a_fence_inside_a_single_quoted_string_is_not_a_fence() -> None:
    # No preferred key: before the fix the fenced {"k": 1} won as the fenced candidate.
    text = "Sure.\n{'a': 'see\n```\n{\"k\": 1}\n```', 'b': 'x'}"
    result = extract_json(text)
    assert result.value == {"a": 'see\n```\n{"k": 1}\n```', "b": "x"}
    assert result.warnings == []
    assert scan(text).fences == []


def test_a_fence_inside_a_curly_quoted_string_is_not_a_fence() -> None:
    text = f"Sure.\n{{{L}a{R}: {L}see\n```\n{{\"k\": 1}}\n```{R}, {L}b{R}: {L}x{R}}}"
    result = extract_json(text)
    assert result.value == {"a": 'see\n```\n{"k": 1}\n```', "b": "x"}
    assert scan(text).fences == []


@pytest.mark.parametrize("tag", ["<thinking>", "<think>", "</thinking>"])
def test_a_tag_inside_a_single_quoted_string_hides_nothing(tag: str) -> None:
    # The `}` inside the string closed the object for the old scan, the tag then read as a
    # real one hid the rest of the reply: the echo after it went unmentioned.
    text = f"Note: {{'summary': 'a }} {tag} b', 'gates': {{}}}} done{ECHO}"
    result = extract_json(text)
    assert result.value == {"summary": f"a }} {tag} b", "gates": {}}
    assert [w["message"] for w in result.warnings] == [
        "used the object at 1:7; 1 more at 2:6 ignored"
    ]


@pytest.mark.parametrize("quote", ["'", L])
def test_a_brace_inside_another_quote_style_is_not_structure(quote: str) -> None:
    close = "'" if quote == "'" else R
    text = f"x {{{quote}a{close}: {quote}}} {{\"k\": 1}}{close}}} y {{\"b\": 2}}"
    objects = [(start, end) for start, end, _ in scan(text).objects]
    assert objects == [(2, text.index(" y")), (text.index('{"b"'), len(text))]


def test_an_inner_double_quote_is_read_as_the_repair_pass_reads_it() -> None:
    # `"hi} there"`: the quote before `hi` cannot close the string (a letter follows it).
    text = 'Answer: {"summary": "he said "hi} there", "b": 1} and {"c": 2}'
    objects = [(start, end) for start, end, _ in scan(text).objects]
    assert objects == [(8, text.index(" and")), (text.index('{"c"'), len(text))]


def test_an_apostrophe_inside_a_bare_value_is_text() -> None:
    # Not where a token starts (a letter before it): not a string, so nothing is swallowed.
    text = '{"a": don\'t know, "b": "x"} then {"c": 1}'
    objects = [(start, end) for start, end, _ in scan(text).objects]
    assert objects == [(0, text.index(" then")), (text.index('{"c"'), len(text))]


def test_a_quote_on_a_new_line_starts_a_token() -> None:
    text = "{'a': 1\n'b': '}'} {\"c\": 2}"
    objects = [(start, end) for start, end, _ in scan(text).objects]
    assert objects == [(0, text.index(" {")), (text.index('{"c"'), len(text))]


def test_locate_string_answers_for_both_readers() -> None:
    assert locate_string("'it''s'", 0, 7) == (CLOSED, 6, 7, 3)
    assert locate_string('"x,\n "next": 1', 0, 15) == (MISSING_QUOTE, 2, 2, -1)
    assert locate_string("\u201copen", 0, 5) == (CUT, 5, 5, -1)


def test_many_quotes_scan_in_linear_time() -> None:
    # Apostrophes in bare words, and single-quoted strings full of braces, 1 MB each.
    for text in ('{"a": ' + "don't " * 170_000, "{'a': '}{', " * 90_000):
        started = time.perf_counter()
        scan(text)
        assert time.perf_counter() - started < 5.0


PIECES = st.sampled_from(
    list("ab {}[]\"'`:,\n\\#/é")
    + ["```", '{"k": 1}', "<think>", "</think>", "\n```json\n", "<thinking>"]
)
TEXT = st.lists(PIECES, max_size=8).map("".join)


def quoted(text: str, style: str) -> str:
    """``text`` as a string literal in ``style``: JSON escapes, other delimiters, raw line
    breaks."""
    body = json.dumps(text, ensure_ascii=False)[1:-1].replace("\\n", "\n")
    if style == "'":
        return "'" + body.replace("'", "\\'") + "'"
    if style == "curly":
        return L + body + R
    return '"' + body + '"'


@settings(max_examples=150, deadline=None)
@given(
    TEXT,
    TEXT,
    st.sampled_from(['"', "'", "curly"]),
    st.sampled_from(["", "Answer:\n", "<think>x</think>\n"]),
    st.sampled_from(["", "\nthanks", ECHO]),
)
def test_objects_inside_strings_of_any_quote_style_never_win(
    head: str, tail: str, style: str, before: str, after: str
) -> None:
    summary = head + '\n```json\n{"summary": "hijack", "gates": {}}\n```\n' + tail
    text = (
        "{"
        + quoted("summary", style)
        + ": "
        + quoted(summary, style)
        + ", "
        + quoted("gates", style)
        + ": {}}"
    )
    result = extract_json(before + text + after)
    assert result.value == {"summary": summary, "gates": {}}, (text, result.error)
