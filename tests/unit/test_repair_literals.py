"""Python literals rewritten in bulk by the rounds (a Python ``repr`` reply) read as the
tokenizer reads them: same value, end and repair records — also when literals follow the
value (they are not counted) or sit inside strings (they are text)."""

from __future__ import annotations

import pytest

from gate_tui import extract_json
from gate_tui.parsing.repair.positions import repair_records
from gate_tui.parsing.repair.quick import quick_repair_parts
from gate_tui.parsing.repair.tail import decode_repaired
from gate_tui.parsing.repair.tokenizer import repair_json

REPLIES = [
    "Here is the state:\n{'summary': 'Python habits', 'gates': {'g0': {'raw': 'True story, None "
    "left', 'classified': None, 'done': True}}, 'status': {'pass': False, 'next_gate': None}}",
    "{'a': True, 'b': [False, None], 'IsTrue': 'True x', 'c': None}\nSet done=True when finished, "
    "or None.",
    '{"k": None, "j": "None", "m": [True,False]}  None',
    "x = {'k': None, 'v': [True,False], 'NoneType': 1}",
]


@pytest.mark.parametrize("reply", REPLIES)
def test_bulk_literals_read_as_the_tokenizer_reads_them(reply: str) -> None:
    start = reply.index("{")
    quick = quick_repair_parts(reply, start)
    assert quick is not None
    outcome = repair_json(reply, start, len(reply))
    assert quick[0] == decode_repaired(outcome) and quick[1] == outcome.end
    assert repair_records(reply, quick[2]) == repair_records(reply, outcome.fixes)


def test_literals_after_the_value_are_not_counted() -> None:
    found = extract_json(REPLIES[1])
    assert found.value == {"a": True, "b": [False, None], "IsTrue": "True x", "c": None}
    literal = [r for r in found.repair_records if r["code"] == "python_literal"]
    assert len(literal) == 1 and literal[0]["message"].startswith("4 Python literals")
