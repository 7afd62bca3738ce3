"""Inner quotes fixed in the error-driven rounds (issue 20, speed) read a reply exactly as
the tokenizer does, whenever the rounds read it at all: same value, end and repairs — on
objects whose strings hold quoted words, mixed with the other common defects (a property),
and on a real-looking reply."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui import extract_json
from gate_tui.parsing.repair.quick import quick_repair_parts
from tests.test_repair_onepass import damaged, tokenizer
from tests.test_repair_properties import KEYS

OTHERS = st.lists(st.sampled_from(["trailing comma", "bare key", "line break", "missing comma"]), max_size=6)


WORDS = st.lists(st.sampled_from(["the", "gold", "table", "x1", "é", ",", ":", "}", "]", "{", "'", "\\", "\n"]), min_size=2, max_size=6).map(" ".join)
VALUES = st.recursive(WORDS | st.integers(-9, 9) | st.none(), lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4), max_leaves=10)
STATES = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"(:?)')  # group 1: a key's colon


def with_inner_quotes(text: str, count: int, seed: int) -> str:
    """``count`` words inside string values wrapped in raw double quotes."""
    spots = []
    for string in _STRING.finditer(text):
        if string.group(1):
            continue
        spots += [string.start() + m.start() for m in re.finditer(r"(?<= )[a-z1]+", string.group())]
    for at in sorted({spots[(seed + number * 5) % len(spots)] for number in range(count)} if spots else (), reverse=True):
        end = re.match(r"[a-z1]+", text[at:]).end() + at
        text = text[:at] + '"' + text[at:end] + '"' + text[end:]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(STATES, OTHERS, st.integers(1, 8), st.integers(0, 1000))
def test_the_rounds_read_inner_quotes_as_the_tokenizer_does(value: dict[str, Any], kinds: list[str], count: int, seed: int) -> None:
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
            "1_data": {"raw": "We use the gold table (crm.accounts_gold), refreshed nightly", "classified": "available"},
            "2_use_case": {"raw": "Flag accounts likely to churn so the retention desk calls them first", "classified": None},
            "3_metric": {"raw": "Recall at the top 10% of scores, measured monthly", "classified": None},
        },
        "status": {"pass": False, "next_gate": "4_privacy", "next_query": "Who approved the use of the notes field?"},
    }
    inner = json.dumps(state, indent=2)
    inner = inner.replace("the gold table", 'the "gold" table').replace("the retention desk", 'the "retention desk"')
    inner = inner.replace("the top 10%", 'the "top 10%"')
    reply = f"Here is the updated state:\n```json\n{inner}\n```\nTell me if the metric changed."
    found = extract_json(reply)
    expected = json.loads(json.dumps(state).replace("the gold table", 'the \\"gold\\" table').replace("the retention desk", 'the \\"retention desk\\"').replace("the top 10%", 'the \\"top 10%\\"'))
    assert found.value == expected
    assert [(r["code"], r["certainty"], r["line"]) for r in found.repair_records] == [("inner_quote", "guess", 7), ("inner_quote", "guess", 11), ("inner_quote", "guess", 15)]
    start = reply.index("{")
    assert quick_repair_parts(reply, start) is not None  # the rounds read it, not the tokenizer
