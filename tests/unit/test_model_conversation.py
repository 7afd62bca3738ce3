"""The messages sent, "ask again with the errors", and the streaming preview's parse work."""

from __future__ import annotations

from gate_tui.config.schema_export import state_schema
from gate_tui.llm.conversation import Turn, build_messages, errors_message, turns_of
from gate_tui.llm.partial import PartialPreview, so_far_lines
from gate_tui.llm.structured import grammar_schema
from gate_tui.parsing.pipeline import parse
from tests.conftest import reply


def test_messages_are_system_prompt_earlier_turns_then_the_state_with_the_new_message() -> None:
    turns = [Turn(1, "first", "reply one", "ok", True), Turn(4, "second", "", "error", False)]
    messages, chars = build_messages("SYSTEM", turns, '{"s": 1}', "third")
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user", "user"]
    assert messages[-1]["content"].startswith("third") and '{"s": 1}' in messages[-1]["content"]
    assert chars == {
        "system": 6,
        "history": len("first") + len("reply one") + len("second"),
        "state": 8,
        "message": 5,
    }


def test_the_oldest_turns_go_first_when_the_history_is_too_long() -> None:
    turns = [Turn(i, f"m{i}", "r" * 100, "ok", True) for i in range(10)]
    messages, _ = build_messages("S", turns, "{}", "now", budget=350)
    assert [m["content"] for m in messages if m["role"] == "user"][:-1] == ["m7", "m8", "m9"]


def test_turns_come_from_model_call_records_and_applied_from_the_link() -> None:
    records = [
        {"kind": "model_call", "seq": 1, "message": "a", "reply": "x", "outcome": "ok"},
        {"kind": "reply", "seq": 2, "call": 1},
        {
            "kind": "model_call",
            "seq": 3,
            "message": "b",
            "reply": "y",
            "outcome": "invalid",
            "call_kind": "retry",
        },
        {"kind": "rejected", "seq": 4, "call": 3},
    ]
    assert [(t.seq, t.message, t.applied, t.call_kind) for t in turns_of(records)] == [
        (1, "a", True, "ask"),
        (3, "b", False, "retry"),
    ]


def test_errors_message_names_each_path_expected_and_actual(ml_config) -> None:
    bad = (
        '{"summary": "s", "gates": {"1_data_availability": {"raw": "x", "classified": '
        '"plenty"}}, "status": {"pass": true}}'
    )
    result = parse(bad, ml_config, actor="assistant")
    text = errors_message(result, "length")
    assert "cut off" in text and "gates.1_data_availability.classified" in text
    assert "plenty" in text and "expected" in text and "complete gate state" in text


def test_the_streaming_preview_parses_a_linear_amount_in_total(ml_config) -> None:
    text = reply("ml_good.md") * 12  # about 12 KB
    preview = PartialPreview(lambda t: parse(t, ml_config, actor="assistant"))
    for end in range(4, len(text) + 4, 4):
        preview.update(text[:end])
    assert preview.parsed_chars <= 6 * len(text)
    assert preview.parses < 30  # not one parse per chunk (there are ~3,000 chunks)


def test_so_far_reads_a_cut_off_reply_and_never_the_claimed_status(ml_config) -> None:
    text = reply("ml_good.md")
    cut = text[: text.index('"3_success_metric"')]
    result = parse(cut, ml_config, actor="assistant")
    assert not result.ok
    lines = so_far_lines(result)
    assert "gates.1_data_availability.classified → available" in lines
    assert not any(
        line.startswith("status")
        for line in so_far_lines(parse(text, ml_config, actor="assistant"))
    )


def test_grammar_schema_keeps_enums_enforceable(ml_config) -> None:
    schema = grammar_schema(state_schema(ml_config))
    classified = schema["properties"]["gates"]["properties"]["1_data_availability"]["properties"][
        "classified"
    ]
    assert (
        classified["enum"] == ["available", "partial", "unavailable", None]
        and "type" not in classified
    )
    raw = schema["properties"]["gates"]["properties"]["1_data_availability"]["properties"]["raw"]
    assert raw["type"] == ["string", "null"]


def test_a_resumed_contract_session_continues_its_conversation() -> None:
    """Contract sessions journal their model calls; resuming one must send them again."""
    from gate_tui.contracts.loading import load_contract
    from gate_tui.editing.contract_editor import ContractEditor
    from gate_tui.editing.contract_sessions import open_session
    from gate_tui.llm.asking import Asker
    from gate_tui.llm.settings import ModelSettings
    from gate_tui.tui.contract.ask_target import ContractTarget
    from tests.conftest import CONFIGS

    contract = load_contract(CONFIGS / "contracts" / "llm_result_v1.yaml")
    first = ContractEditor(contract)
    assert open_session(first, new=True) is None
    target = ContractTarget(first)
    good = contract.sample_path("lying").read_text(encoding="utf-8")
    seq = target.record_model_call(
        call_kind="ask", model="m", message="classify this", reply=good, outcome="invalid"
    )
    target.apply(target.parse(good), good, seq)
    first.close()

    again = ContractEditor(contract)
    assert (open_session(again) or "").startswith(f"resumed {first.folder.name}")
    resumed = ContractTarget(again)
    messages, _ = Asker(
        resumed, ModelSettings(base_url="http://127.0.0.1:9/v1", model="m")
    ).messages("and now?")
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[1]["content"] == "classify this" and messages[2]["content"] == good
    assert [t.applied for t in turns_of(resumed.records())] == [True]
    # the next call continues the numbering rather than starting again at 1
    assert (
        resumed.record_model_call(
            call_kind="ask", model="m", message="and now?", reply="{}", outcome="invalid"
        )
        == 2
    )
    again.close()
