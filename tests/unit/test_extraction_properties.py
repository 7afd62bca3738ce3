"""Property tests of :func:`gate_tui.parsing.extraction.extract_json` (hypothesis).

It never raises, whatever the text; any JSON object comes back unchanged and without
repairs, bare, in prose or in a fence; the result is deterministic; and every value it
reports points at a span of the original text.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui.parsing.extraction import extract_json
from gate_tui.parsing.repair.quick import quick_repair
from gate_tui.parsing.repair.tokenizer import repair_json

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(), json_values, max_size=6)
gate_states = st.fixed_dictionaries(
    {"summary": st.text(), "gates": st.dictionaries(st.text(), json_values, max_size=3)},
    optional={"status": st.dictionaries(st.text(), scalars, max_size=3)},
)
# Prose that cannot itself look like JSON, a fence or a thinking tag.
prose = st.text(
    alphabet=st.characters(blacklist_characters="{}[]`~<>\"'", blacklist_categories=("Cs",)),
    max_size=40,
)
# Text rich in the characters the scanners and the repair pass care about.
STRUCTURAL_PIECES = list("{}[]\"'\\:,/*` ~<>\n tTfFnN01-.e\u201c\u201d") + [
    "<think>",
    "</think>",
    "```",
    "True",
    '"a"',
]
structural_text = st.lists(st.sampled_from(STRUCTURAL_PIECES), max_size=60).map("".join)


def check_result(text: str, result: Any) -> None:
    assert (result.value is None) != (result.error is None)
    # extract_json turns any exception into an error; none may have happened inside it.
    assert result.error is None or "internal" not in result.error, result.error
    if result.value is not None:
        assert isinstance(result.value, dict)
        assert result.source in ("fence", "scan")
        start, end = result.span
        assert 0 <= start < end <= len(text)
        for repair in result.repairs:
            assert 1 <= repair.line <= text.count("\n") + 1
            assert repair.column >= 1


@SETTINGS
@given(st.text())
def test_never_raises_on_any_text(text: str) -> None:
    check_result(text, extract_json(text, accept_truncated=True))


@SETTINGS
@given(structural_text)
def test_never_raises_on_structural_noise(text: str) -> None:
    check_result(text, extract_json(text, accept_truncated=True))


@SETTINGS
@given(st.one_of(st.integers(), st.binary(), st.lists(st.text()), st.none()))
def test_never_raises_on_non_text(value: object) -> None:
    result = extract_json(value)  # type: ignore[arg-type]
    assert result.value is None and result.error is not None


@SETTINGS
@given(json_objects, st.booleans())
def test_any_object_comes_back_unchanged(value: dict, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    result = extract_json(text, accept_truncated=True)
    assert result.value == value
    assert result.repairs == []
    assert result.span == (0, len(text))


@SETTINGS
@given(json_objects, prose, prose, st.sampled_from([None, 2]))
def test_any_object_in_prose_comes_back_unchanged(
    value: dict, before: str, after: str, indent: int | None
) -> None:
    document = json.dumps(value, indent=indent)
    text = f"{before} {document} {after}"
    result = extract_json(text, accept_truncated=True)
    assert result.value == value
    assert result.repairs == []
    start = len(before) + 1
    assert result.span == (start, start + len(document))


@SETTINGS
@given(json_objects, prose, st.sampled_from(["```json", "```", "~~~", "~~~json", "````JSON"]))
def test_any_object_in_a_fence_comes_back_unchanged(value: dict, before: str, opener: str) -> None:
    closer = opener.rstrip("JSONjson")
    text = f"{before}\n{opener}\n{json.dumps(value)}\n{closer}\nthanks"
    result = extract_json(text, accept_truncated=True)
    assert result.value == value
    assert result.repairs == []
    assert result.source == "fence"


@SETTINGS
@given(gate_states, json_objects, prose)
def test_thinking_and_echoes_never_win(state: dict, other: dict, words: str) -> None:
    text = (
        f"<thinking>{json.dumps(other)} {json.dumps(state)}x</thinking>\n{words}\n"
        f"{json.dumps(state)}\n\nYou sent: {json.dumps(other)} "
        f"{json.dumps({'summary': 'echo', **other})}"
    )
    result = extract_json(text, accept_truncated=True)
    assert result.value == state
    assert result.span[0] == text.index("\n" + json.dumps(state)) + 1


@SETTINGS
@given(st.text() | structural_text)
def test_deterministic(text: str) -> None:
    assert extract_json(text, accept_truncated=True) == extract_json(text, accept_truncated=True)


@SETTINGS
@given(json_objects)
def test_span_of_a_strict_value_decodes_to_it(value: dict) -> None:
    text = f"Here:\n```json\n{json.dumps(value, indent=1)}\n```"
    result = extract_json(text, accept_truncated=True)
    start, end = result.span
    assert json.loads(text[start:end]) == value


def all_keys(value: Any) -> set[str]:
    keys: set[str] = set()
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            keys.update(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return keys


@SETTINGS
@given(json_objects)
def test_a_cut_off_object_never_invents_keys(value: dict) -> None:
    document = {"summary": "s", **value}
    text = json.dumps(document)
    for cut in range(1, len(text), max(1, len(text) // 7)):
        result = extract_json(text[:cut], accept_truncated=True)
        if result.value is not None:
            assert set(result.value) <= all_keys(document)


@SETTINGS
@given(structural_text)
def test_quick_repair_and_tokenizer_agree_when_both_succeed(noise: str) -> None:
    text = "{" + noise
    quick = quick_repair(text, 0)
    slow = repair_json(text, 0, len(text))
    if (
        quick is not None
        and slow.json_text is not None
        and not any(f.code == "truncated" for f in slow.fixes)
    ):
        assert json.loads(slow.json_text) == quick.value
        assert sorted(slow.fixes) == sorted(quick.fixes)
