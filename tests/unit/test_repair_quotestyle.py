"""Mixed quote styles swapped at C speed (repair/quotestyle.py) read as the tokenizer reads them."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate_tui import extract_json
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair
from gate_tui.parsing.repair.quotestyle import requote_decoded
from gate_tui.parsing.repair.tokenizer import repair_json

# Text a model writes inside strings: apostrophes, double quotes (then only in double-quoted
# strings), commas, colons and braces that must stay text.
_WORDS = st.text(alphabet="ab '\",:{}[]é", max_size=8)


def _render(key: str, value: str, single_key: bool, single_value: bool) -> str:
    def one(text: str, single: bool) -> str:
        if single:
            return "'" + text.replace("'", "").replace('"', "") + "'"
        return json.dumps(text, ensure_ascii=False)

    return f"{one(key, single_key)}: {one(value, single_value)}"


@settings(
    max_examples=300, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    st.lists(
        st.tuples(_WORDS, _WORDS, st.booleans(), st.booleans()),
        min_size=1,
        max_size=6,
        unique_by=lambda item: item[0],
    ),
    st.sampled_from(["", " Let me know if that's all.", "\n\nThat's it, 'done'."]),
)
def test_the_split_swap_and_the_tokenizer_agree(
    members: list[tuple[str, str, bool, bool]], after: str
) -> None:
    rendered = [_render(*member) for member in members]
    assume(any(single for _k, _v, a, b in members for single in (a, b)))
    text = "{" + ", ".join(rendered) + "}" + after
    slow = repair_json(text, 0, len(text))
    quick = quick_repair(text, 0)
    assert slow.json_text is not None and quick is not None, text
    assert quick.value == json.loads(slow.json_text)
    assert quick.end == slow.end
    assert repair_records(text, quick.fixes) == repair_records(text, slow.fixes)


def test_a_reply_mixing_quote_styles_has_one_record_for_the_habit() -> None:
    reply = (
        "Sure — here's the state:\n```json\n"
        "{\n  \"summary\": \"Churn model, it's agreed\",\n  'gates': {\n    'data': {'raw': 'two "
        "years of tickets', \"classified\": 'available'}\n  },\n"
        '  "status": {"pass": false}\n}\n```\nThat\'s all.'
    )
    found = extract_json(reply)
    assert found.value is not None and found.value["gates"]["data"]["classified"] == "available"
    assert found.value["summary"] == "Churn model, it's agreed"
    [record] = found.repair_records
    assert record["code"] == "single_quotes" and record["certainty"] == "exact"
    assert record["message"].startswith("5 single-quoted strings")
    assert (record["line"], record["column"]) == (
        5,
        3,
    )  # 'gates' opens the habit, not the apostrophe in the summary


def test_what_the_swap_cannot_judge_goes_to_the_other_paths() -> None:
    assert (
        requote_decoded("{'a': 'it's'}", 0) is None
    )  # an apostrophe inside a single-quoted string
    assert requote_decoded("{'a': 'x\\'y'}", 0) is None  # an escape
    assert requote_decoded("{'a': 'x', // note\n 'b': 1}", 0) is None  # a comment
    assert requote_decoded("{'a': 'x', \"b\": \"open}", 0) is None  # an unclosed string
    assert requote_decoded("{'a': 1,}", 0) is None  # another defect: the rounds fix both



def test_an_empty_single_quoted_key_is_not_a_doubled_quote() -> None:
    # `''` before a colon is an empty key, not CSV-doubled quotes: once read as the latter,
    # the tokenizer unwrapped nothing and repaired the same text again, without end.
    for reply in ("{'k': 'v', '': 'x'}", "{'k': 'v', '': 'x',}", "{'k': 'v', '': 'x' /* note */}"):
        outcome = repair_json(reply, 0, len(reply))
        assert outcome.json_text is not None and json.loads(outcome.json_text) == {
            "k": "v",
            "": "x",
        }
        assert extract_json(reply).value == {"k": "v", "": "x"}
