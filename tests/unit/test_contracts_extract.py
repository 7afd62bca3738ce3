"""Contract mode's extraction door: it must choose exactly what the gate parser's
``extract_json`` chooses whenever no object has a gate-state key, differ (first object
wins) when a later object has one, and stay robust on deep or huge input."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from gate_tui.contracts.checking import check_contract
from gate_tui.contracts.extract import extract_reply
from gate_tui.contracts.loading import contract_from_schema
from gate_tui.parsing.extraction import extract_json

keys = st.sampled_from(["a", "b", "name", "items", "x y", "k"])
leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.text(alphabet="ab {}[]\"`<>", max_size=6)
objects = st.recursive(
    leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=6,
).filter(lambda v: isinstance(v, dict))


def render(value: dict, style: int) -> str:
    text = json.dumps(value, indent=2 if style % 2 else None)
    if style == 2 and text.endswith("}") and len(text) > 2:
        text = text[:-1] + ",}"  # a trailing comma to repair
    if style == 3:
        text = text[: max(1, len(text) // 2)]  # cut off
    return text


pieces = st.one_of(
    st.sampled_from(
        [
            "Here is the JSON:",
            "I think { this is prose",
            "done.",
            '<thinking>plan {"a": 1}</thinking>',
            "<think>",
            "</think>",
            "```",
            "```json",
            "~~~",
            "\n",
            "[1, 2]",
        ]
    ),
    st.tuples(objects, st.integers(0, 3)).map(lambda pair: render(*pair)),
    st.tuples(objects, st.integers(0, 3)).map(lambda pair: "```json\n" + render(*pair) + "\n```"),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(pieces, min_size=1, max_size=6).map("\n".join))
@example(
    "```\n</think>\n{}"
)  # an orphan closing tag inside an unclosed fence (found by hypothesis)
def test_the_fast_path_agrees_with_extract_json(text) -> None:
    ours, theirs = extract_reply(text), extract_json(text)
    assert (ours.value, ours.source, ours.span) == (theirs.value, theirs.source, theirs.span)
    # the same error, or the same one followed by where the first object stops being JSON
    assert ours.error == theirs.error or (
        theirs.error is not None and ours.error.startswith(theirs.error + ": ")
    )
    assert [r.model_dump() for r in ours.repairs] == [r.model_dump() for r in theirs.repairs]


def test_a_later_gate_state_does_not_win_in_contract_mode() -> None:
    text = 'Plan: {"intent": "x"} and the echo {"summary": "s", "gates": {}}'
    assert extract_reply(text).value == {"intent": "x"}
    assert extract_json(text).value == {"summary": "s", "gates": {}}
    assert any(w["code"] == "several_candidates" for w in extract_reply(text).warnings)


def test_deep_and_huge_inputs_give_errors_not_crashes() -> None:
    contract, _ = contract_from_schema({"type": "object"})
    assert contract is not None
    deep_text = '{"a":' * 100_000 + "1" + "}" * 100_000
    result = check_contract(deep_text, contract)
    assert not result.ok and result.errors[0].code == "invalid_json"
    deep: dict = {}
    node = deep
    for _ in range(5_000):
        node["a"] = {}
        node = node["a"]
    result = check_contract(deep, contract)
    assert [(e.code, e.message) for e in result.errors] == [("invalid_value", "nested too deeply")]
    assert check_contract("x" * (5 * 1024 * 1024), contract).errors[0].code == "invalid_json"
