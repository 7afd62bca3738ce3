"""Grounded answers, headless: the normal form, exact / near / ungrounded, the findings'
positions and turns, and the policy's effect on the one decision rule."""

from __future__ import annotations

import json
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from gate_tui.decision_rules import decision_rules_text
from gate_tui.grounding.apply import ground
from gate_tui.grounding.conversation import user_turns
from gate_tui.grounding.matching import trace, trace_many, trace_turns
from gate_tui.grounding.normalise import normal_form, normalise, normalise_many, normalise_mapped
from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse

CONFIG = {
    "gates": {
        "1_goal": {"question": "What is the goal?"},
        "2_data": {"question": "What data do you have?"},
        "3_size": {"question": "How big?", "expected_categories": ["small", "large"]},
    }
}
CONVERSATION = [
    {"role": "system", "content": "You fill gates."},
    {"role": "user", "content": "Our goal: “Cut support time”."},
    {"role": "assistant", "content": "And the data?"},
    {"role": "user", "content": "We have two years of labelled tickets."},
]


def config(policy: str | None = None) -> GateConfig:
    data = dict(CONFIG)
    if policy is not None:
        data["policy"] = {"grounding": policy}
    return GateConfig.model_validate(data)


def state_reply(
    goal: str | None, data: str | None, size: str | None, size_class: str | None = None
) -> str:
    gates = {
        "1_goal": {"raw": goal, "classified": None},
        "2_data": {"raw": data, "classified": None},
        "3_size": {"raw": size, "classified": size_class},
    }
    return json.dumps(
        {
            "summary": "s",
            "gates": gates,
            "status": {"pass": True, "next_gate": None, "next_query": None},
        },
        indent=2,
    )


def grounded(reply: str, policy: str | None = None, conversation: object = CONVERSATION):
    cfg = config(policy)
    return ground(parse(reply, cfg), cfg, conversation, reply)


def kinds(result) -> dict[str, str]:
    return {f["path"]: f["kind"] for f in result.grounding["findings"]}


def test_normal_form_folds_case_space_quotes_and_edge_punctuation() -> None:
    assert normalise("  «Cut   SUPPORT\ntime»!! ") == "cut support time"
    assert normalise("it’s") == normalise("it's") == normalise("IT`S")
    text = "A  “B”"
    normal, where = normalise_mapped(text)
    assert normal == "a 'b'" and [text[i] for i in where] == ["A", " ", "“", "B", "”"]


def test_exact_near_and_invented_answers_with_turn_span_and_position() -> None:
    reply = state_reply(
        "cut support TIME", "two yers of labelled tickets", "A huge fleet of servers", "large"
    )
    result = grounded(reply)
    assert result.grounding["policy"] == "warn" and result.grounding["summary"] == "ungrounded"
    found = {f["path"]: f for f in result.grounding["findings"]}
    assert found["gates.1_goal.raw"]["kind"] == "grounded"
    assert (
        found["gates.1_goal.raw"]["closest"]["turn"] == 1
        and found["gates.1_goal.raw"]["closest"]["text"] == "Cut support time"
    )
    near = found["gates.2_data.raw"]
    assert (
        near["kind"] == "near" and near["closest"]["turn"] == 2 and near["closest"]["score"] >= 85
    )
    assert "labelled tickets" in near["closest"]["text"]
    invented = found["gates.3_size.raw"]
    assert invented["kind"] == "ungrounded" and invented["closest"]["score"] < 85
    # the reply's line:column of the value: line 1 is "{", the gates follow
    lines = reply.splitlines()
    assert lines[invented["line"] - 1][invented["column"] - 1 :].startswith('"A huge fleet')
    assert found["gates.3_size.classified"]["kind"] == "classified_ungrounded"
    codes = [(w.code, w.field_path) for w in result.warnings]
    assert ("ungrounded_raw", "gates.3_size.raw") in codes and (
        "near_grounded",
        "gates.2_data.raw",
    ) in codes


def test_warn_keeps_the_decision_and_require_makes_the_first_ungrounded_gate_next() -> None:
    reply = state_reply(
        "an invented goal nobody stated",
        "We have two years of labelled tickets",
        "the moon",
        "large",
    )
    warned = grounded(reply)
    assert warned.decision.pass_ and warned.decision.reason == "all_required_complete"
    required = grounded(reply, "require")
    assert not required.decision.pass_ and required.decision.reason == "required_ungrounded"
    assert (
        required.decision.next_gate == "1_goal"
        and required.decision.next_question == "What is the goal?"
    )
    assert (
        required.canonical_state.status.pass_ is False
        and required.canonical_state.status.next_gate == "1_goal"
    )


def test_require_passes_when_every_answer_is_the_users() -> None:
    reply = state_reply("Cut support time.", "two years of labelled tickets", "two years", "small")
    result = grounded(reply, "require")
    assert result.decision.pass_ and set(kinds(result).values()) == {"grounded"}


def test_words_for_another_gate_are_grounded_and_name_the_turn() -> None:
    reply = state_reply(
        "Cut support time",
        "two years of labelled tickets",
        "two years of labelled tickets",
        "large",
    )
    found = {f["path"]: f for f in grounded(reply, "require").grounding["findings"]}
    assert (
        found["gates.3_size.raw"]["kind"] == "grounded"
        and found["gates.3_size.raw"]["closest"]["turn"] == 2
    )


def test_off_and_no_conversation_check_nothing_and_parse_stays_pure() -> None:
    reply = state_reply("invented", "invented too", None)
    assert grounded(reply, "off").grounding is None
    cfg = config()
    assert "grounding" not in cfg.model_dump()["policy"]  # an unset policy keeps old fingerprints
    assert config("require").model_dump()["policy"]["grounding"] == "require"
    plain = parse(reply, cfg)
    assert plain.grounding is None and "grounding" not in plain.model_dump_json()
    assert ground(plain, cfg, None).grounding is None  # default off without a conversation
    assert ground(plain, cfg, CONVERSATION) == ground(plain, cfg, CONVERSATION)  # deterministic


def test_an_unchanged_answer_is_not_checked_again() -> None:
    cfg = config("require")
    first = parse(state_reply("an invented goal", None, None), cfg)
    again = ground(
        parse(state_reply("an invented goal", "two years", None), cfg, first.canonical_state),
        cfg,
        CONVERSATION,
        None,
        first.canonical_state,
    )
    assert list(kinds(again)) == ["gates.2_data.raw"]


def test_a_conversation_that_is_not_a_message_list_is_a_warning_not_an_exception() -> None:
    for bad in ("text", [1, 2], {"role": "user"}, [{"content": "no role"}]):
        result = grounded(state_reply("x y z w", None, None), "warn", bad)
        assert any(w.code == "conversation_unreadable" for w in result.warnings)
    turns, problem = user_turns(
        [{"role": "user", "content": [{"type": "text", "text": "hi there"}]}]
    )
    assert problem is None and turns[0].text == "hi there"


def test_the_rule_is_written_once_and_taught() -> None:
    from gate_tui.config.prompt_export import prompt_text
    from gate_tui.decision import verdict_text

    text = decision_rules_text()
    assert "required_ungrounded" in text and "Copy the user's words into \"raw\"" in text
    assert text in prompt_text(config())
    assert (
        verdict_text(False, "required_ungrounded", "2_data")
        == "NO PASS: 2_data is not the user's words"
    )


letters = st.text(alphabet=string.ascii_letters + " .,'\"’“”-\n", min_size=1, max_size=200)


@settings(max_examples=200, deadline=None)
@given(turn=letters, data=st.data())
def test_any_substring_of_a_user_turn_after_normalisation_is_grounded(
    turn: str, data: st.DataObject
) -> None:
    normal = normalise_mapped(turn)[0]
    start = data.draw(st.integers(0, len(normal)))
    end = data.draw(st.integers(start, len(normal)))
    kind, _ = trace(normal[start:end], user_turns([{"role": "user", "content": turn}])[0])
    assert kind == "grounded"


@settings(max_examples=200, deadline=None)
@given(
    turns=st.lists(letters, max_size=4),
    word=st.text(alphabet=string.ascii_lowercase, min_size=20, max_size=40),
)
def test_a_random_long_string_absent_from_the_turns_is_not_grounded(
    turns: list[str], word: str
) -> None:
    normals = [normalise_mapped(t)[0] for t in turns]
    if any(word in n for n in normals):
        return
    kind, _ = trace(word, user_turns([{"role": "user", "content": t} for t in turns])[0])
    assert kind == "ungrounded"


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80))
def test_the_fast_normal_form_and_the_mapped_one_agree(text: str) -> None:
    assert normalise_mapped(text)[0] == normal_form(text)


@settings(max_examples=300, deadline=None)
@given(texts=st.lists(st.text(max_size=40), max_size=5))
def test_all_answers_normalised_at_once_equal_each_normalised(texts: list[str]) -> None:
    assert normalise_many(texts) == [normalise(text) for text in texts]


@settings(max_examples=300, deadline=None)
@given(
    turns=st.lists(st.text(alphabet="ab \x00'’İ.", max_size=12), max_size=4),
    needle=st.text(alphabet="ab '’i̇.", min_size=1, max_size=6),
)
def test_one_look_up_over_all_turns_agrees_with_each_turn(turns: list[str], needle: str) -> None:
    """What the look-up over all turns at once finds is what the turn-by-turn walk finds:
    the same turn, offset and user characters."""
    found = user_turns([{"role": "user", "content": t} for t in turns])[0]
    assert trace_many([needle], found)[0] == trace_turns(normalise(needle), found) or (
        not normalise(needle)
    )
