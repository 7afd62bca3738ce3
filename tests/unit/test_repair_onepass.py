"""The one-pass repair (issue 20) reads a reply exactly as the tokenizer does, whenever it
reads it at all: same value, same end, same repairs with the same positions — on objects
damaged with many defects of the common kinds at once (a property, with hypothesis), and
on a real-looking reply with a dozen defects of each kind.
"""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gate_tui import extract_json
from gate_tui.parsing.repair.onepass import one_pass
from tests.helpers.json_strategies import OBJECTS, damaged, tokenizer

DAMAGE = st.lists(
    st.sampled_from(["trailing comma", "bare key", "line break", "missing comma"]),
    min_size=1,
    max_size=30,
)


FIRST_KINDS = st.sampled_from(["", "trailing", "missing", "keys", "controls", "inner"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OBJECTS, DAMAGE, st.integers(0, 1000), FIRST_KINDS)
def test_one_pass_reads_what_the_tokenizer_reads(
    value: dict[str, Any], kinds: list[str], seed: int, first: str
) -> None:
    # Whatever kind the caller says came first (right or wrong: it only orders the work,
    # and a decode after that kind alone may end the pass), the reading is the tokenizer's.
    text = damaged(value, kinds, seed) + "\nThat is all."
    done = one_pass(text, 0, first=first)
    if done is None:
        return  # left to the other paths: nothing to compare
    ours_value, ours_end, ours_fixes = done
    assert (ours_value, ours_end, sorted(ours_fixes)) == tokenizer(text)


def test_the_first_kind_decoded_alone_when_it_is_the_only_one() -> None:
    # Mixed kinds: the decode after the first kind fails and the others are found; one kind
    # only: the others' scans are skipped. Both read what the tokenizer reads.
    body = json.dumps(
        {
            "summary": "s",
            "gates": {f"g{n}": {"raw": f"r{n}", "classified": None} for n in range(6)},
        },
        indent=2,
    )
    only_commas = re.sub(r"(null|\})(?=\n *\})", r"\1,", body)
    mixed = re.sub(r'"(g[0-5])":', r"\1:", only_commas)
    for text in (only_commas, mixed):
        for first in ("", "trailing", "keys", "missing"):
            done = one_pass(text, 0, first=first)
            assert done is not None, (first, text)
            assert (done[0], done[1], sorted(done[2])) == tokenizer(text), first
    codes = {fix.code for fix in one_pass(mixed, 0, first="trailing")[2]}
    assert codes == {"trailing_comma", "unquoted_key"}


def test_a_dozen_of_each_defect_in_a_real_looking_reply() -> None:
    gates = {
        f"{n}_question": {
            "raw": f"Answer {n}:\nsee the plan, step {n}",
            "classified": None,
            "done": n % 2 == 0,
        }
        for n in range(1, 13)
    }
    body = json.dumps(
        {
            "summary": "Quarterly review of the routing model",
            "gates": gates,
            "status": {"pass": False},
        },
        indent=2,
    )
    body = body.replace("\\n", "\n")  # 12 raw line breaks
    body = re.sub(r'"(\d+_question)":', r"\1:", body)  # 12 bare keys
    body = re.sub(r"(false|true)\n", r"\1,\n", body)  # 13 trailing commas (12 gates and the status)
    body = re.sub(r'("classified": null),\n', r"\1\n", body)  # 12 missing commas
    reply = (
        f"Thanks! Here is the updated state:\n\n```json\n{body}\n```\n\nLet me know if "
        f"anything changed."
    )
    found = extract_json(reply)
    assert found.value is not None and found.value["gates"]["12_question"] == {
        "raw": "Answer 12:\nsee the plan, step 12",
        "classified": None,
        "done": True,
    }
    counts: dict[str, int] = {}
    for record in found.repair_records:
        counts[record["code"]] = counts.get(record["code"], 0) + 1
    assert counts == {
        "control_character": 12,
        "unquoted_key": 1,
        "trailing_comma": 13,
        "missing_comma": 12,
    }
    [keys] = [record for record in found.repair_records if record["code"] == "unquoted_key"]
    assert keys["message"].startswith("12 keys without quotes → quoted")
    start = reply.index("{")
    assert one_pass(reply, start) is not None  # the path that read it: no decode per defect


def test_control_characters_other_than_line_breaks_are_recorded_where_the_tokenizer_records_them() -> (  # noqa: E501 - the test's name
    None
):
    # Line breaks are escaped at C speed; a tab, a carriage return or a rarer control
    # character sends the pass round again, careful: the record is at each string's first.
    for body in (
        "a\x0bb\nc",
        "a\nb\x01c",
        "tab\there\nand more",
        "line\r\nend",
        "only\x0bvertical",
    ):
        text = '{"k": "' + body + '", "n": [1, 2,], "m": "plain\nbreak"}\nThat is all.'
        for controls in (True, False):
            done = one_pass(text, 0, controls)
            assert done is not None, body
            assert (done[0], done[1], sorted(done[2])) == tokenizer(text), body


def test_defects_after_the_value_are_not_its_fixes_and_do_not_move_its_end() -> None:
    for text in (
        '{"a": 1,}\n[1,]',
        '{"a": 1, b: 2},]',
        '{"a": 1,}\nthen {x: 1}',
        '{"a": [1,]}\n{"k": "v"\n"m": 2}',
    ):
        done = one_pass(text, 0)
        assert done is not None, text
        assert (done[0], done[1], sorted(done[2])) == tokenizer(text), text


def test_missing_commas_before_crlf_or_a_trailing_space() -> None:
    for end in ("\r\n", " \n", "\n"):
        text = (
            "{"
            + end
            + f'  "a": "x"{end}  "b": 1{end}  "c": [true]{end}  "d": null,{end}'
            + "}"
            + end
            + "Done."
        )
        done = one_pass(text, 0)
        assert done is not None, repr(end)
        assert (done[0], done[1], sorted(done[2])) == tokenizer(text), repr(end)
        assert [fix.code for fix in sorted(done[2])].count("missing_comma") == 3
