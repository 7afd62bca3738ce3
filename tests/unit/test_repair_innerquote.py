"""Inner quotes fixed in the one pass and in the error-driven rounds (issue 20, speed) read a
reply exactly as the tokenizer does, whenever the rounds read it at all: same value, end and
repairs — on
objects whose strings hold quoted words, mixed with the other common defects (a property),
and on a real-looking reply."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui import extract_json
from gate_tui.parsing.repair.onepass import one_pass
from gate_tui.parsing.repair.quick import quick_repair_parts
from gate_tui.parsing.repair.tail import decode_repaired
from gate_tui.parsing.repair.tokenizer import repair_json
from tests.helpers.json_strategies import KEYS, damaged, tokenizer

OTHERS = st.lists(
    st.sampled_from(["trailing comma", "bare key", "line break", "missing comma"]), max_size=6
)


WORDS = st.lists(
    st.sampled_from(["the", "gold", "table", "x1", "é", ",", ":", "}", "]", "{", "'", "\\", "\n"]),
    min_size=2,
    max_size=6,
).map(" ".join)
VALUES = st.recursive(
    WORDS | st.integers(-9, 9) | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=10,
)
STATES = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"(:?)')  # group 1: a key's colon


def with_inner_quotes(text: str, count: int, seed: int) -> str:
    """``count`` words inside string values wrapped in raw double quotes."""
    spots = []
    for string in _STRING.finditer(text):
        if string.group(1):
            continue
        spots += [string.start() + m.start() for m in re.finditer(r"(?<= )[a-z1]+", string.group())]
    for at in sorted(
        {spots[(seed + number * 5) % len(spots)] for number in range(count)} if spots else (),
        reverse=True,
    ):
        end = re.match(r"[a-z1]+", text[at:]).end() + at
        text = text[:at] + '"' + text[at:end] + '"' + text[end:]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STATES, OTHERS, st.integers(1, 8), st.integers(0, 1000))
def test_the_rounds_read_inner_quotes_as_the_tokenizer_does(
    value: dict[str, Any], kinds: list[str], count: int, seed: int
) -> None:
    text = with_inner_quotes(damaged(value, kinds, seed), count, seed) + "\nThat is all."
    done = quick_repair_parts(text, 0)
    if done is None:
        return  # left to the tokenizer: nothing to compare
    ours_value, ours_end, ours_fixes = done
    assert (ours_value, ours_end, sorted(ours_fixes)) == tokenizer(text)


def test_a_reply_with_quoted_words_in_its_answers() -> None:
    state = {
        "summary": "Churn model: the data team confirmed the source and the metric.",
        "gates": {
            "1_data": {
                "raw": "We use the gold table (crm.accounts_gold), refreshed nightly",
                "classified": "available",
            },
            "2_use_case": {
                "raw": "Flag accounts likely to churn so the retention desk calls them first",
                "classified": None,
            },
            "3_metric": {
                "raw": "Recall at the top 10% of scores, measured monthly",
                "classified": None,
            },
        },
        "status": {
            "pass": False,
            "next_gate": "4_privacy",
            "next_query": "Who approved the use of the notes field?",
        },
    }
    inner = json.dumps(state, indent=2)
    inner = inner.replace("the gold table", 'the "gold" table').replace(
        "the retention desk", 'the "retention desk"'
    )
    inner = inner.replace("the top 10%", 'the "top 10%"')
    reply = f"Here is the updated state:\n```json\n{inner}\n```\nTell me if the metric changed."
    found = extract_json(reply)
    expected = json.loads(
        json.dumps(state)
        .replace("the gold table", 'the \\"gold\\" table')
        .replace("the retention desk", 'the \\"retention desk\\"')
        .replace("the top 10%", 'the \\"top 10%\\"')
    )
    assert found.value == expected
    assert [(r["code"], r["certainty"], r["line"]) for r in found.repair_records] == [
        ("inner_quote", "guess", 7),
        ("inner_quote", "guess", 11),
        ("inner_quote", "guess", 15),
    ]
    start = reply.index("{")
    assert quick_repair_parts(reply, start) is not None  # the rounds read it, not the tokenizer


# --- the one pass (onepass.py) merges inner quotes itself: no decode per quoted word


def with_stray_quotes(text: str, count: int, seed: int) -> str:
    """``count`` lone double quotes put before words of string values (an odd number of
    inner quotes in a string, or one next to a delimiter: the readings that differ)."""
    spots = [m.start() for m in re.finditer(r"(?<= )[a-z1,:}\]]", text)]
    for at in sorted(
        {spots[(seed + number * 3) % len(spots)] for number in range(count)} if spots else (),
        reverse=True,
    ):
        text = text[:at] + '"' + text[at:]
    return text


# Without backslashes (escapes send a reply past the one pass's inner-quote merging) but with
# every delimiter a quote may stand next to.
PLAIN_WORDS = st.lists(
    st.sampled_from(["the", "gold", "table", "x1", "é", ",", ":", "}", "]", "{", "'"]),
    min_size=2,
    max_size=6,
).map(" ".join)
PLAIN_VALUES = st.recursive(
    PLAIN_WORDS | st.integers(-9, 9) | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=10,
)
PLAIN_STATES = st.dictionaries(KEYS, PLAIN_VALUES, min_size=1, max_size=5)


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    STATES | PLAIN_STATES,
    OTHERS,
    st.integers(1, 8),
    st.integers(0, 2),
    st.integers(0, 1000),
    st.booleans(),
    st.sampled_from(["", "inner", "trailing", "keys"]),
)
def test_the_one_pass_reads_inner_quotes_as_the_tokenizer_does(
    value: dict[str, Any],
    kinds: list[str],
    count: int,
    stray: int,
    seed: int,
    controls: bool,
    first: str,
) -> None:
    text = with_inner_quotes(damaged(value, kinds, seed), count, seed)
    text = with_stray_quotes(text, stray, seed) + "\nThat is all."
    # Without `controls` as the quick path calls it when the first defect is another; `first`
    # (right or wrong) is the kind decoded first: the reading stays the tokenizer's.
    done = one_pass(text, 0, controls, first=first)
    if done is None:
        return  # left to the rounds and the tokenizer: nothing to compare
    ours_value, ours_end, ours_fixes = done
    assert (ours_value, ours_end, sorted(ours_fixes)) == tokenizer(text)


def test_the_one_pass_takes_a_reply_with_quoted_words_and_other_defects() -> None:
    gates = {
        f"{n}_question": {
            "raw": f"the answer {n} uses the gold table v{n} daily",
            "classified": None,
        }
        for n in range(1, 9)
    }
    body = json.dumps(
        {"summary": "Routing model review", "gates": gates, "status": {"pass": False}}, indent=2
    )
    body = re.sub(
        r"the gold table (v\d)", r'the "gold" table "\1"', body
    )  # two quoted words a string
    body = re.sub(r'"(\d_question)":', r"\1:", body)  # bare keys
    body = body.replace("null\n", "null,\n")  # trailing commas
    reply = f"Here is the state:\n```json\n{body}\n```\nAsk me if the \"gold\" table moved."
    start = reply.index("{")
    done = one_pass(reply, start)
    assert done is not None  # read in one pass, not a decode per quoted word
    value, end, fixes = done
    assert value["gates"]["3_question"]["raw"] == 'the answer 3 uses the "gold" table "v3" daily'
    assert (value, end, sorted(fixes)) == tokenizer_at(reply, start)
    assert [fix.code for fix in sorted(fixes)].count("inner_quote") == 8
    quoted = [fix.offset for fix in fixes if fix.code == "inner_quote"]
    assert all(
        reply[at] == '"' and reply[at + 1 : at + 5] == "gold" for at in quoted
    )  # at the first inner quote
    found = extract_json(reply)
    assert found.value == value
    assert (
        sum(
            record["code"] == "inner_quote" and record["certainty"] == "guess"
            for record in found.repair_records
        )
        == 8
    )


def tokenizer_at(text: str, start: int) -> tuple[Any, int, list[Any]]:
    outcome = repair_json(text, start, len(text))
    assert outcome.json_text is not None
    return decode_repaired(outcome), outcome.end, sorted(outcome.fixes)


def test_the_one_pass_leaves_the_readings_it_is_not_sure_of() -> None:
    unsure = [
        '{"raw": "the "gold table", "b": 1}',  # one inner quote: the closing one is a guess
        '{"raw": "the "gold", "b": 1}',  # a quote before a delimiter inside the string
        '{"list": ["the "gold" table"], "b": 1}',  # an element, not a member's value
        '{"raw": "the "gold" ta\tble", "b": 1}',  # a control character inside
        '{"raw": "a \\"b\\" "c" d", "b": 1}',  # escapes
        '{"raw": "a "b"\n  "c": 1}',  # a line break after an inner quote
        '{"raw": "a "b" c\nd", "n": [1,]}',  # a line break inside: the tokenizer looks further
    ]
    for text in unsure:
        assert one_pass(text, 0) is None and one_pass(text, 0, False) is None, text
        found = extract_json(text)  # the other paths still read it
        assert found.value is not None or found.error, text


def test_a_quoted_word_in_the_prose_after_the_value_does_not_matter() -> None:
    reply = '{"raw": "the "gold" table", "n": 1,}\nThe "gold"table is new.'
    done = one_pass(reply, 0)
    assert done is not None
    assert done[0] == {"raw": 'the "gold" table', "n": 1} and (
        done[0],
        done[1],
        sorted(done[2]),
    ) == tokenizer(reply)


def test_strings_chained_by_quotes_are_read_once() -> None:
    # Every string after a `:` and followed by text, the chain unsure only at its end: each
    # is read up to where the first reading stopped, once (quadratic before: minutes at 256 KB).
    for count in (3, 4, 40_000):
        text = '{"k": "a' + '"x: "a' * count + '" "}'
        if text.count('"') % 2:
            text += '"'
        assert one_pass(text, 0) is None
    for tail in ('", "z": 1}', '" x", "z": 1}'):  # a chain that closes, with an even or odd count
        text = '{"k": "a' + '"x: "a' * 4 + tail
        done = one_pass(text, 0)
        assert done is None or (done[0], done[1], sorted(done[2])) == tokenizer(text), tail
