"""#28: each candidate in the picker says what applying it would decide, as the parser
decides it with that pick (one numbering: #K+1 for ``candidate=K``), bounded."""

from __future__ import annotations

import json

from gate_tui import load_config, parse
from gate_tui.tui.candidates_view import PARSE_BUDGET, SHOWN, candidate_results, candidate_rows
from tests.tui_helpers import ML_CONFIG, REPLIES

CONFIG = load_config(ML_CONFIG)


def judge_of(text: str, calls: list[int]):
    def judge(index: int):
        calls.append(index)
        return parse(text, CONFIG, None, "assistant", index)

    return judge


def test_each_candidate_row_says_the_parsers_decision_for_that_pick() -> None:
    text = (REPLIES / "ml_self_correcting.md").read_text(encoding="utf-8")
    result = parse(text, CONFIG, None, "assistant")
    calls: list[int] = []
    judged = candidate_results(result, len(text), judge_of(text, calls))
    assert calls == [c.index for c in result.candidates if not c.used]  # the used one: reused
    rows = [row.plain for row in candidate_rows(result, "F9", judged)]
    for candidate in result.candidates:
        picked = parse(text, CONFIG, None, "assistant", candidate.index)
        assert picked.decision is not None
        row = next(r for r in rows if f"#{candidate.index + 1} at " in r)
        if picked.decision.pass_:
            assert "→ PASS" in row
        else:
            assert f"→ NO PASS · next {picked.decision.next_gate}" in row
    # The parser's warning numbers them the same way (#1 is candidate=0).
    second = parse(text, CONFIG, None, "assistant", 1)
    assert any("#2" in w.message for w in second.warnings)


def test_an_invalid_candidate_says_why_and_costs_no_parse() -> None:
    bad = '{"gates": {"1_data_availability": {"raw": 5}}}'
    good = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
    text = f"Draft:\n```json\n{bad}\n```\nFixed:\n{good}"
    result = parse(text, CONFIG, None, "assistant")
    invalid = [c for c in result.candidates if not c.valid]
    assert invalid and any(c.valid for c in result.candidates)
    calls: list[int] = []
    judged = candidate_results(result, len(text), judge_of(text, calls))
    assert not set(calls) & {c.index for c in invalid}
    rows = [row.plain for row in candidate_rows(result, "F9", judged)]
    for candidate in invalid:
        row = next(r for r in rows if f"#{candidate.index + 1} at " in r)
        assert "invalid" in row and "→" not in row


def test_the_decisions_are_bounded() -> None:
    good = parse((REPLIES / "ml_good.md").read_text(encoding="utf-8"), CONFIG, None, "assistant")
    assert good.canonical_state is not None
    state = good.canonical_state.model_dump(mode="json", by_alias=True)
    objects = "\n".join(
        "```json\n" + json.dumps({**state, "summary": f"try {n}"}) + "\n```"
        for n in range(SHOWN + 5)
    )
    result = parse(objects, CONFIG, None, "assistant")
    assert sum(c.valid for c in result.candidates) > SHOWN
    calls: list[int] = []
    candidate_results(result, len(objects), judge_of(objects, calls))
    assert len(calls) < SHOWN  # only the shown candidates, never all of them
    calls.clear()
    candidate_results(result, PARSE_BUDGET + 1, judge_of(objects, calls))
    assert calls == []  # a reply longer than the budget is not parsed again
