"""Adversarial inputs for :func:`gate_tui.parsing.extraction.extract_json`: no hang, no crash.

Each input is about 1 MB (the 5 MB one hits the size cap) and must come back with an
error or a value well within a generous time bound. These guard against quadratic or
exponential behaviour (ReDoS, ``raw_decode`` retried at every brace, recursion); they
are not benchmarks — ``bench/bench_parse.py`` measures speed and growth.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from gate_tui.parsing.extraction import NO_OBJECT, TOP_LEVEL_ARRAY, Extraction, extract_json

SIZE = 1_000_000
BOUND_SECONDS = 5.0

STATE = '{"summary": "s", "gates": {}, "status": {"pass": false}}'


def expect_error(fragment: str) -> Callable[[Extraction], None]:
    def check(result: Extraction) -> None:
        assert result.value is None
        assert result.error is not None and fragment in result.error

    return check


def expect_value(value: dict, source: str) -> Callable[[Extraction], None]:
    def check(result: Extraction) -> None:
        assert result.error is None, result.error
        assert result.value == value
        assert result.source == source

    return check


def expect_summary_prefix(prefix: str) -> Callable[[Extraction], None]:
    def check(result: Extraction) -> None:
        assert result.value is not None, result.error
        assert result.value["summary"].startswith(prefix)
        assert [r.code for r in result.repairs] == ["truncated"]

    return check


CASES: dict[str, tuple[str, Callable[[Extraction], None]]] = {
    "a million {": ("{" * SIZE, expect_error("nested deeper than 512 levels")),
    "100k [": ("[" * 100_000, expect_error("nested deeper than 512 levels")),
    "deep [ nesting, 1 MB": ("[" * SIZE, expect_error("nested deeper than 512 levels")),
    "deep object nesting": ('{"a":' * 200_000, expect_error("nested deeper than 512 levels")),
    "alternating {[": ("{[" * (SIZE // 2), expect_error("nested deeper than 512 levels")),
    "unclosed <thinking> repeated": ("<thinking>" * (SIZE // 10), expect_error(NO_OBJECT)),
    "unclosed <think> then prose": ("<think>" + "x" * SIZE, expect_error(NO_OBJECT)),
    "orphan </think> repeated": (
        "</think>{" * (SIZE // 9),
        expect_error("nested deeper than 512 levels"),
    ),
    "unclosed fences repeated": ("```json\n{" * (SIZE // 9), expect_error(NO_OBJECT)),
    "fence markers only": ("```" * (SIZE // 3), expect_error(NO_OBJECT)),
    "unclosed string": ('{"summary": "' + "x" * SIZE, expect_summary_prefix("xxx")),
    "unclosed string of backslashes": (
        '{"summary": "a' + "\\\\" * (SIZE // 2),
        expect_summary_prefix("a\\"),
    ),
    "100k small objects in prose": ("say " + '{"a":1} ' * 125_000, expect_value({"a": 1}, "scan")),
    "100k objects then the state": (
        '{"a":1} ' * 125_000 + STATE,
        expect_value({"summary": "s", "gates": {}, "status": {"pass": False}}, "scan"),
    ),
    "100k arrays holding objects": ('[{"a":1}] ' * 100_000, expect_error(TOP_LEVEL_ARRAY)),
    "many repairable objects": ("{'a': 1,} " * (SIZE // 10), expect_value({"a": 1}, "scan")),
    # Every quote but the first is followed by `{`, which cannot follow a value: read as the
    # repair pass reads strings, the rest of the text is one string the end cuts off.
    "quotes after a stray brace": ('{ "' * (SIZE // 3), expect_error(NO_OBJECT)),
    "prose braces and quotes": (
        'I said "{" and "}" and {x} ' * (SIZE // 28),
        expect_error(NO_OBJECT),
    ),
    "many fenced objects": (
        '```json\n{"a": 1}\n```\n' * (SIZE // 22),
        expect_value({"a": 1}, "fence"),
    ),
    "comment openers": ("{/*" * (SIZE // 3), expect_error("nested deeper than 512 levels")),
    "unterminated fence and object": (
        "```json\n" + '{"summary": "' + "y" * SIZE,
        expect_summary_prefix("yyy"),
    ),
    "no structure at all": ("lorem ipsum " * (SIZE // 12), expect_error(NO_OBJECT)),
    # Near the 4 MiB cap: each thinking block hides a candidate start, and a search that
    # went back to the end of the text for each of them would take many seconds.
    "thinking blocks hiding [": ("<think>[</think>" * 250_000, expect_error(NO_OBJECT)),
    "thinking blocks hiding ~~~": ("<think>~~~</think>" * 230_000, expect_error(NO_OBJECT)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_adversarial_input_returns_quickly(name: str) -> None:
    text, check = CASES[name]
    started = time.perf_counter()
    result = extract_json(text, accept_truncated=True)  # the cut is what is measured here
    elapsed = time.perf_counter() - started
    assert elapsed < BOUND_SECONDS, f"{name}: {elapsed:.2f} s"
    check(result)


def test_five_megabytes_hit_the_cap_at_once() -> None:
    text = "{" * (5 * 1024 * 1024)
    started = time.perf_counter()
    result = extract_json(text)
    assert time.perf_counter() - started < 0.5
    assert result.value is None
    assert result.error == "reply is 5,242,880 characters; the limit is 4,194,304"


def test_recursion_never_escapes() -> None:
    # Within the size cap and far beyond any recursion limit, in every container mix.
    for text in (
        "[" * 300_000 + "]" * 300_000,
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        "[{" * 150_000,
    ):
        result = extract_json(text)
        assert result.value is None and result.error is not None
