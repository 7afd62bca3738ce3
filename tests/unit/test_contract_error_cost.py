"""The errors of a big reply cost what is listed: a big array is checked item by item
(:mod:`gate_tui.contracts.splitting`) with the same errors, in the same order, as the whole
reply validated at once; past the 200 listed, the rest is counted."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import gate_tui.contracts.splitting as splitting
from gate_tui.contracts.checking import check_value
from gate_tui.contracts.loading import contract_from_schema
from gate_tui.contracts.results import MAX_REPORTED

TOOLS = json.loads(
    (
        Path(__file__).resolve().parents[2] / "sample_configs" / "contracts" / "tool_calls.json"
    ).read_text(encoding="utf-8")
)
RULES = {
    "type": "object",
    "required": ["n", "xs"],
    "additionalProperties": False,
    "properties": {
        "n": {"type": "integer"},
        "xs": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "minimum": 0},
                    "s": {"type": "string", "format": "email"},
                },
                "if": {"properties": {"a": {"const": 1}}},
                "then": {"required": ["s"]},
                "description": "a=1 needs s",
            },
        },
    },
}


def contract(schema: dict):
    loaded, problems = contract_from_schema(schema)
    assert loaded is not None, problems
    return loaded


def test_sixty_thousand_bad_tool_calls_give_at_most_201_records() -> None:
    reply = {"tool_calls": [{"name": "x", "arguments": {"q": 1}}] * 60_000}
    errors = check_value(reply, contract(TOOLS)).errors
    assert len(errors) == MAX_REPORTED + 1
    assert (errors[0].code, errors[0].path) == ("no_branch_matched", "/tool_calls/0")
    assert "branch 1 (get_weather)" in errors[0].message
    assert (
        errors[-1].path == ""
        and "more invalid items of /tool_calls not examined" in errors[-1].message
    )


def _calls(rng: random.Random, count: int) -> list:
    shapes = [
        {"name": "get_weather", "arguments": {"location": "Paris", "units": "celsius"}},
        {"name": "send_email", "arguments": {"to": "nobody", "subject": 1}},
        {"name": "x", "arguments": {"q": 1}},
        5,
        {"name": "get_weather", "arguments": {"location": 1, "units": "kelvin", "z": 2}},
    ]
    return [rng.choice(shapes) for _ in range(count)]


def _rows(rng: random.Random, count: int) -> list:
    return [
        rng.choice([{"a": 1}, {"a": -1, "s": "bad"}, {"a": 2}, {"a": 1, "s": "a@b.co"}, "text"])
        for _ in range(count)
    ]


@pytest.mark.parametrize("count", [3, 30, 120])
@pytest.mark.parametrize("case", ["tools", "tools+extra", "rules"])
def test_item_by_item_gives_the_errors_of_the_whole_reply(
    case: str, count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(count)
    if case == "rules":
        checked, reply = contract(RULES), {"n": "x", "xs": _rows(rng, count), "y": 1}
    else:
        checked, reply = (
            contract(TOOLS),
            {"tool_calls": _calls(rng, count), **({"extra": 1} if case == "tools+extra" else {})},
        )
    monkeypatch.setattr(splitting, "SPLIT_FROM", 10**9)
    whole = [error.model_dump() for error in check_value(reply, checked).errors]
    monkeypatch.setattr(splitting, "SPLIT_FROM", 2)
    assert splitting.find_split(checked, reply) is not None
    split = [error.model_dump() for error in check_value(reply, checked).errors]
    assert whole  # every case has errors
    if (
        case == "rules" or len(whole) <= MAX_REPORTED
    ):  # no combinator, or nothing past the bound: all the same
        assert split == whole
    else:  # the 200 listed are the same; the rest is counted by item
        assert (
            split[:MAX_REPORTED] == whole[:MAX_REPORTED] and "not examined" in split[-1]["message"]
        )
