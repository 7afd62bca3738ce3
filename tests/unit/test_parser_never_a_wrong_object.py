"""Parser round 4 (#31): never a wrong object, what a reader reads, arrays where asked, linear.

Properties (hypothesis): a valid document damaged the way each new rule describes comes
back as the document, or is refused — never as another value. Real-looking replies pin
the issue's cases. Growth is compared as a ratio between sizes in the same run.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gate_tui import extract_json
from tests.helpers.json_strategies import OBJECTS, tokens

WORDS = st.text(alphabet="abcdefgh ", min_size=1, max_size=8).filter(
    lambda word: word.strip() == word and word
)
KEYS = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)
FLAT = st.dictionaries(KEYS, st.integers(0, 99) | WORDS, min_size=1, max_size=5)
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)


def _same_or_refused(text: str, original: Any, *, want: str = "object") -> Any:
    result = extract_json(text, want=want)
    assert result.error is not None or result.value == original, (text, result.value)
    return result


# --- 1. never a wrong object ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "old man "}", "age": 14, "armor": "leather", "strength": 4}',
        '{"heading": "Get in Touch"}\n"items": [{"label": "mail"}]}',
        '{"heading": "Get in Touch"}\n"items": [{"label": "mail"}]',
        '{"a": {"b": 1}}, "c": 2}',
        '{"summary": "s", "list": [{"a": {"b": 1}}, {"c": [1, {"d": 2]]}}, "status": {"x": 1}}',
        '[{"a": {"b": [1, 2}], "c": {"d": 1}}]',
        'Here:\n[{"a": [{"b": {"c": 1]}}, "d": 2}, {"e": 3}]',
    ],
)
def test_an_object_that_closes_while_its_members_go_on_is_never_returned_short(text: str) -> None:
    result = extract_json(text)
    if result.error is None:  # read whole: every member is there, with a guess reported
        assert any(record["certainty"] == "guess" for record in result.repair_records)
        assert len(result.value) >= text.count('": ') - text.count('{"') + 1
    else:
        assert ":" in result.error or "array" in result.error  # a position, or the array refusal


def test_an_inner_quote_and_brace_is_read_whole_as_a_guess() -> None:
    result = extract_json('{"name": "old man "}", "age": 14, "strength": 4}')
    assert result.value == {"name": 'old man "}', "age": 14, "strength": 4}
    assert [(r["code"], r["certainty"]) for r in result.repair_records] == [
        ("inner_quote", "guess")
    ]
    refused = extract_json('{"name": "old man "}", "age": 14, "strength": 4}', allow_guesses=False)
    assert refused.value is None and refused.recovered is not None


@SETTINGS
@given(FLAT, st.integers(0, 20), st.sampled_from(['"}', '"}"', '"]', " // x", " # x", " /* x */"]))
def test_a_string_holding_closers_or_comment_markers_unescaped_is_the_string_or_refused(
    value: dict, pick: int, inner: str
) -> None:
    keys = [key for key, item in value.items() if isinstance(item, str)]
    assume(keys)
    key = keys[pick % len(keys)]
    original = {**value, key: value[key] + inner}
    text = json.dumps(original).replace(json.dumps(original[key]), '"' + original[key] + '"', 1)
    _same_or_refused(text, original)


@SETTINGS
@given(OBJECTS, st.integers(0, 200), st.integers(0, 200))
def test_swapped_closers_never_give_another_value(value: dict, first: int, second: int) -> None:
    text = json.dumps(value)
    closers = [i for i, c in enumerate(text) if c in "}]" and not _in_string(text, i)]
    assume(len(closers) >= 2)
    i, j = closers[first % len(closers)], closers[second % len(closers)]
    assume(text[i] != text[j])
    swapped = list(text)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    for shape in ("{}", "[{}]"):
        damaged = "".join(swapped) if shape == "{}" else "[" + "".join(swapped) + "]"
        result = extract_json(damaged)
        if shape == "{}":  # another value only as a reported guess (the reviewer is told)
            guessed = any(record["certainty"] == "guess" for record in result.repair_records)
            assert result.error is not None or result.value == value or guessed, (
                damaged,
                result.value,
            )
        else:
            assert result.value is None, (damaged, result.value)  # an element is never the answer


def _in_string(text: str, at: int) -> bool:
    inside = escaped = False
    for c in text[:at]:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == '"':
            inside = not inside
    return inside


# --- 2. what a reader reads -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "code"),
    [
        (
            '{"notes": "Sent a message to the "dictator", waiting on response."}',
            {"notes": 'Sent a message to the "dictator", waiting on response.'},
            "inner_quote",
        ),
        (
            '{"command":"git diff HEAD",description":"Check changes"}',
            {"command": "git diff HEAD", "description": "Check changes"},
            "missing_quote",
        ),
        (
            '{"command":"git diff HEAD","description:"Check changes"}',
            {"command": "git diff HEAD", "description": "Check changes"},
            "missing_quote",
        ),
        ('{"a": 1,\n"b: 2}', {"a": 1, "b": 2}, "missing_quote"),
        ('{"a": 1,\nb": 2}', {"a": 1, "b": 2}, "missing_quote"),
        (
            '{"path": "a.py", "view_range": \\n[2142, 2250]\\n\\n}',
            {"path": "a.py", "view_range": [2142, 2250]},
            "literal_escape",
        ),
        ('{"items": ["abc \\",\n"## MARKDOWN TEXT here", "next"]}', None, "missing_quote"),
    ],
)
def test_a_reader_reading(text: str, value: Any, code: str) -> None:
    result = extract_json(text)
    assert result.error is None, result.error
    if value is not None:
        assert result.value == value
    assert code in [record["code"] for record in result.repair_records]
    assert "comment" not in [record["code"] for record in result.repair_records]


@SETTINGS
@given(st.lists(WORDS, min_size=2, max_size=4), WORDS, st.integers(0, 3))
def test_inner_quotes_before_a_comma_in_prose_give_the_document_or_refuse(
    words: list[str], word: str, at: int
) -> None:
    assume(word.strip() and all(w.strip() for w in words))
    at = at % len(words)
    prose = " ".join(words[:at]) + f' "{word}", ' + " ".join(words[at:])
    original = {"notes": prose, "n": 1}
    text = '{"notes": "' + prose + '", "n": 1}'
    _same_or_refused(text, original)


@SETTINGS
@given(FLAT, st.integers(0, 20), st.sampled_from(["opening", "closing", "closing-newline"]))
def test_a_key_missing_one_quote_gives_the_document_or_refuses(
    value: dict, pick: int, side: str
) -> None:
    keys = list(value)
    key = keys[pick % len(keys)]
    text = json.dumps(value, separators=(",\n" if side == "closing-newline" else ", ", ": "))
    quoted = json.dumps(key) + ":"
    assume(text.count(quoted) == 1)
    broken = key + '":' if side == "opening" else '"' + key + ":"
    result = _same_or_refused(text.replace(quoted, broken), value)
    if result.error is None and len(text) != len(text.replace(quoted, broken)):
        assert "missing_quote" in [record["code"] for record in result.repair_records]


@SETTINGS
@given(OBJECTS, st.integers(0, 200), st.sampled_from(["\\n", "\\t", "\\r\\n", "\\n\\n"]))
def test_literal_escape_pairs_between_tokens_give_the_document(
    value: dict, pick: int, pair: str
) -> None:
    toks = tokens(value)
    at = 1 + pick % (len(toks) - 1)
    text = "".join(toks[:at]) + " " + pair + " " + "".join(toks[at:])
    result = _same_or_refused(text, value)
    assert result.error is None, (text, result.error)
    assert "literal_escape" in [record["code"] for record in result.repair_records]


# --- 3. arrays and scalars where asked --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want", "value"),
    [
        ("[1, 2]", "array", [1, 2]),
        ('Sure:\n```json\n[{"a": 1}, {"b": 2,}]\n```', "array", [{"a": 1}, {"b": 2}]),
        ("<think>[0]</think>\n['x', 'y']", "array", ["x", "y"]),
        ('"hello"', "any", "hello"),
        ("  42\n", "any", 42),
        ('{"a": [1]}', "any", {"a": [1]}),
        ('Result: [{"a": 1}]', "any", [{"a": 1}]),
    ],
)
def test_arrays_and_scalars_where_asked(text: str, want: str, value: Any) -> None:
    result = extract_json(text, want=want)
    assert result.error is None and result.value == value, result


def test_gate_mode_stays_object_only_and_a_bad_want_is_an_error() -> None:
    assert extract_json("[1, 2]").error == "top-level array not allowed"
    assert extract_json("[1, 2]", want="list").error_code == "invalid_value"
    assert extract_json("[1, 2", want="array").error is not None  # cut off: refused as for objects
    assert extract_json("[1, 2", want="array", accept_truncated=True).value == [1, 2]


@SETTINGS
@given(st.lists(OBJECTS, min_size=1, max_size=3), st.sampled_from(["", "Here:\n", "```json\n"]))
def test_an_array_reply_with_a_trailing_comma_is_the_array(items: list, before: str) -> None:
    text = json.dumps(items)
    damaged = text[:-1] + ",]"
    result = extract_json(before + damaged, want="array")
    assert result.value == items, (damaged, result.error)


# --- 4. linear on every shape ----------------------------------------------------------

SHAPES = [
    "let me think { about } it ",
    "{ a } ",
    "[{]}",
    '{"a": "b"} ',
    "{ {",
    '"',
    '{"a": [',
    "} ] ",
    "[[[[",  # deep nesting: refused at the depth cap, never a RecursionError
    '{"a":',  # an unclosed member after member
    '"unclosed ',  # one string that never ends
    "}",
    "] ",
    "{}",  # many candidates, each an empty object
    "\\n\\n",  # literal backslash-n pairs between tokens
    "\\",  # a run of backslashes
    '{"a":"\\n"} ',  # many small objects holding an escape
    "word ",  # long prose (an object follows it in the next test)
]


def _seconds(text: str) -> float:
    best = float("inf")
    for _ in range(3):  # the min of several runs: a loaded machine only ever adds time
        started = time.perf_counter()
        extract_json(text, max_chars=len(text) + 1)
        best = min(best, time.perf_counter() - started)
    return best


@pytest.mark.parametrize("unit", SHAPES)
def test_growth_per_doubling_is_linear(unit: str) -> None:
    """Time at 2n over time at n, at several sizes: a quadratic path shows ~4x; linear ~2x."""
    sizes = [40_000, 80_000, 160_000]
    times = [_seconds((unit * (size // len(unit) + 1))[:size]) for size in sizes]
    ratios = [later / max(earlier, 1e-4) for earlier, later in zip(times, times[1:], strict=False)]
    assert min(ratios) < 3.5, (unit, times, ratios)  # the smaller ratio: noise on a loaded machine
    assert times[-1] / max(times[0], 1e-4) < 3.5 * 3.5, (unit, times)


def test_long_prose_before_one_object_grows_linearly() -> None:
    """The one object at the end of growing prose: found each time, time ~2x per doubling."""
    times = []
    for size in [40_000, 80_000, 160_000]:
        text = ("word " * (size // 5)) + '{"a": 1}'
        assert extract_json(text, max_chars=len(text) + 1).value == {"a": 1}
        times.append(_seconds(text))
    ratios = [later / max(earlier, 1e-4) for earlier, later in zip(times, times[1:], strict=False)]
    assert min(ratios) < 3.5, (times, ratios)


# --- accept_truncated_replies: a cut before (or inside) status loses nothing the model owns ---


def _cut_replies() -> tuple[Any, Any, str, int]:
    from pathlib import Path

    from gate_tui import load_config

    root = Path(__file__).resolve().parents[2]
    strict = load_config(root / "sample_configs" / "ml_project_intake.yaml")
    lenient = strict.model_copy(
        update={"policy": strict.policy.model_copy(update={"accept_truncated_replies": True})}
    )
    text = (root / "sample_configs" / "replies" / "ml_good.md").read_text(encoding="utf-8")
    body = text[text.index("{") : text.rindex("}") + 1]
    return strict, lenient, body, body.index('"status"')


@pytest.mark.parametrize("extra", [0, 5, 12, 22])
def test_a_reply_cut_at_its_status_is_accepted_when_cut_replies_are(extra: int) -> None:
    from gate_tui import parse

    strict, lenient, body, at = _cut_replies()
    cut = body[: at + extra]
    accepted = parse(cut, lenient)
    assert accepted.ok, accepted.errors
    assert "truncated_reply" in [warning.code for warning in accepted.warnings]
    assert accepted.canonical_state.gates == parse(body, strict).canonical_state.gates
    assert not parse(cut, strict).ok  # without the policy a cut reply decides nothing


def test_a_reply_cut_inside_its_gates_is_still_refused() -> None:
    from gate_tui import parse

    _strict, lenient, body, at = _cut_replies()
    assert not parse(body[: at - 40], lenient).ok


@SETTINGS
@given(FLAT, WORDS, st.sampled_from([None, 2]), st.booleans())
def test_a_quote_missing_before_the_final_closers_gives_the_document_or_refuses(
    value: dict, last: str, indent: Any, nested: bool
) -> None:
    original: dict = {**value, "zz_last": last}
    if nested:
        original = {"outer": original}
    text = json.dumps(original, indent=indent)
    closing = text.rindex('"')
    damaged = text[:closing] + text[closing + 1 :]
    result = _same_or_refused(damaged, original)
    assert result.error is None, (damaged, result.error)  # read, not refused as cut off
    assert "missing_quote" in [record["code"] for record in result.repair_records]
