"""A row of a list of lists whose opening ``[`` was forgotten (issue 20, item 2's last sentence).

``{"matrix": [[1, 2], 3, 4], [5, 6]]}``: the ``]`` after ``4`` seems to close the list, but
``, [`` follows where the object wants a key, so it closed a row whose ``[`` was forgotten.
The row is opened right after the row before (``missing_opener``, a guess).
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui.parsing.extraction import extract_json
from tests.helpers.json_strategies import KEYS, OBJECTS, SCALARS, tokens

REPLY = (
    "Here is the comparison table as JSON, one row per model:\n\n"
    "```json\n"
    "{\n"
    '  "title": "Latency by model",\n'
    '  "columns": ["model", "p50_ms", "p95_ms"],\n'
    '  "rows": [\n'
    '    ["gpt-4o", 310, 720],\n'
    '    "llama-3.1-70b", 280, 910],\n'
    '    ["mistral-7b", 95, 240]\n'
    "  ],\n"
    '  "source": "load test, 2 000 requests each"\n'
    "}\n"
    "```\n"
    "Let me know if you want the p99 column too."
)
INTENDED = {
    "title": "Latency by model",
    "columns": ["model", "p50_ms", "p95_ms"],
    "rows": [["gpt-4o", 310, 720], ["llama-3.1-70b", 280, 910], ["mistral-7b", 95, 240]],
    "source": "load test, 2 000 requests each",
}


def test_a_table_row_missing_its_opener_is_opened_after_the_row_before() -> None:
    found = extract_json(REPLY, prefer_keys=())
    assert found.value == INTENDED, found.error
    [repair] = found.repair_records
    assert (repair["code"], repair["certainty"], repair["line"], repair["column"]) == (
        "missing_opener",
        "guess",
        9,
        5,
    )
    refused = extract_json(REPLY, prefer_keys=(), allow_guesses=False)
    assert refused.value is None and "guessed repairs are not allowed" in (refused.error or "")


def test_only_a_row_of_scalars_after_a_complete_row_is_opened() -> None:
    # No row before it, a container in the row, or a list in a list: never guessed, refused as
    # before.
    for text in (
        '{"a": [1, 2], [3, 4]}',
        '{"m": [[1, 2], {"k": 1}, 4], [5, 6]]}',
        '{"m": [[1, 2], 3, 4,], [5, 6]]}',
    ):
        assert extract_json(text).value is None, text
    # A list of lists of lists: `, [` continues the outer list, so nothing is forgotten there.
    assert extract_json('{"m": [[[1], 2], [3]]}').value == {"m": [[[1], 2], [3]]}


def test_a_cut_off_reply_with_a_forgotten_row_never_decides() -> None:
    found = extract_json('Table:\n{"rows": [["a", 1], "b", 2], ["c", 3')
    assert found.value is None and found.error is not None and "cut off" in found.error


def test_a_forgotten_row_does_not_hide_the_rest_of_the_reply() -> None:
    # The object after the table is still the outer object's member, never a candidate of its own.
    text = 'Result: {"data": [{"grid": [[1, 2], 3, 4], [5, 6]]}, {"k": 2}], "ok": true}'
    found = extract_json(text, prefer_keys=())
    assert found.value == {"data": [{"grid": [[1, 2], [3, 4], [5, 6]]}, {"k": 2}], "ok": True}
    assert [r["code"] for r in found.repair_records] == ["missing_opener"]


ROWS = st.lists(st.lists(SCALARS, min_size=1, max_size=4), min_size=3, max_size=6)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    OBJECTS,
    KEYS,
    ROWS,
    st.integers(0, 50),
    st.integers(0, 5),
    st.sampled_from(["", "Here you go:\n", "```json\n"]),
)
def test_a_row_missing_its_opener_is_repaired_to_the_original(
    value: dict, key: str, rows: list, pick: int, at: int, before: str
) -> None:
    # A valid object holding a list of rows (a row after the first and before the last loses its
    # `[`).
    items = list(value.items())
    items.insert(at % (len(items) + 1), ("table_" + key, rows))
    original = dict(items)
    toks = tokens(original)
    start = toks.index(json.dumps("table_" + key)) + 2  # the rows' `[`: key, `:`, then it
    openers, depth = [], 0
    for i in range(start, len(toks)):
        if toks[i] == "[":
            depth += 1
            if depth == 2:
                openers.append(i)
        elif toks[i] == "]":
            depth -= 1
            if depth == 0:
                break
    i = openers[1 + pick % (len(rows) - 2)]
    damaged = toks[:i] + toks[i + 1 :]
    found = extract_json(before + " ".join(damaged), prefer_keys=())
    assert found.value == original, (damaged, found.error)
    assert [r["code"] for r in found.repair_records] == ["missing_opener"]


LAST_ROW_REPLY = REPLY.replace(
    '    "llama-3.1-70b", 280, 910],\n    ["mistral-7b", 95, 240]\n  ],',
    '    ["llama-3.1-70b", 280, 910],\n    "mistral-7b", 95, 240]\n  ],',
)


def test_the_last_row_missing_its_opener_keeps_the_members_after_the_list() -> None:
    # `…, "mistral-7b", 95, 240]\n  ],` — read as a mistyped `}` the second `]` would end the
    # object there and drop "source"; it closes the list after the last row instead.
    found = extract_json(LAST_ROW_REPLY)
    assert found.value == INTENDED, found.error
    [record] = found.repair_records
    assert (record["code"], record["certainty"]) == ("missing_opener", "guess")
    row_line = LAST_ROW_REPLY[: LAST_ROW_REPLY.index('"mistral-7b"')].count("\n") + 1
    assert (record["line"], record["column"]) == (row_line, 5)


def test_a_stray_closer_before_more_members_is_refused_not_cut() -> None:
    # One `]` too many where the object goes on: no reading keeps every member, so the reply is
    # refused with the spot — never `{"tags": ["a", "b"]}` with "owner" silently dropped.
    reply = 'Here you go: {"tags": ["a", "b"]], "owner": "data-platform"}'
    found = extract_json(reply)
    assert found.value is None
    assert "stray ']'" in (found.error or "") and "1:33" in (found.error or "")


def test_a_closer_mistyped_inside_a_nested_object_is_still_read_as_mistyped() -> None:
    # The second `]` is followed by the outer object's next member: a mistyped `}` fits.
    found = extract_json('{"model": {"layers": [[1, 2], null]], "name": "m"}')
    assert found.value == {"model": {"layers": [[1, 2], None]}, "name": "m"}
    assert [r["code"] for r in found.repair_records] == ["mismatched_closer"]


def test_a_closer_mistyped_after_a_list_whose_closers_end_the_value_is_read_as_mistyped() -> None:
    # `…, 224]]\n}` where `…, 224]}\n}` was due: read as the last row's forgotten `[`, the object
    # around the list would never close; read as a mistyped `}`, the closers after it end the
    # whole value with only prose after it. And when the outer object goes on after those
    # closers (`], "name": …`), the same.
    for tail, value in (
        ("]]\n}\nDone.", {"config": {"shape": [[3, 224], 224]}}),
        (']]\n, "name": "vit"}', {"config": {"shape": [[3, 224], 224]}, "name": "vit"}),
    ):
        found = extract_json('Here you go:\n{"config": {"shape": [[3, 224], 224' + tail)
        assert found.value == value, (tail, found.error)
        assert [r["code"] for r in found.repair_records] == ["mismatched_closer"], tail


def test_a_stray_closer_inside_a_nested_object_before_more_members_is_refused() -> None:
    # `"tags": ["a", "b"]]` one level down. Read as a mistyped `}`, "owner" moves to the outer
    # object, which then closes while "status" follows; left out, "owner" stays in "team" but
    # the reader cannot know the closer was the typo. Either way: refused with a spot, never
    # an object with a member moved or dropped.
    for reply, spot in (
        (
            'Here you go:\n{"team": {"tags": ["a", "b"]], "owner": "data-platform"}, "status": '
            '"ok"}',
            "2:56",
        ),
        ('Here you go:\n{"team": {"tags": ["a", "b"]]}, "owner": "data-platform"}', "2:29"),
    ):
        found = extract_json(reply)
        assert found.value is None, reply
        assert spot in (found.error or ""), (reply, found.error)


def test_an_object_that_closes_while_its_members_go_on_is_refused() -> None:
    # One `}` too many after a nested object: the decoder stops at the second `}` and the
    # members after it would be dropped without a word. Refused, the object kept as recovered.
    reply = (
        "Updated state:\n```json\n"
        '{"summary": "Churn model", "gates": {"1_data_availability": {"raw": "orders", '
        '"classified": "available"}}},\n'
        ' "status": {"pass": false, "next_gate": "2_use_case"}}\n```'
    )
    found = extract_json(reply)
    assert found.value is None
    assert (
        found.error is not None
        and "closes at 3:106 while more of its members follow" in found.error
    )
    assert found.recovered == {
        "summary": "Churn model",
        "gates": {"1_data_availability": {"raw": "orders", "classified": "available"}},
    }
