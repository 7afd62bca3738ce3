"""Grounding in the editor (Pilot, scripted model): the preview puts a finding first, the
gate list marks each answer, and the gate's title says who said it."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("openai")

from gate_tui.grounding.display import grounding_first  # noqa: E402
from gate_tui.llm import structured  # noqa: E402
from gate_tui.models import ParseWarning  # noqa: E402
from tests.helpers.scripted_openai import ScriptedServer, Step  # noqa: E402
from tests.tui_helpers import make_app, wait_for  # noqa: E402

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def _endpoint_env(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GATE_TUI_MODEL", "scripted")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    structured.forget_all()


def test_grounding_findings_come_first_in_the_preview_order() -> None:
    warnings = [
        ParseWarning(code="other", message="a"),
        ParseWarning(code="near_grounded", message="b"),
        ParseWarning(code="ungrounded_raw", message="c"),
    ]
    assert [w.code for w in grounding_first(warnings)] == [
        "ungrounded_raw",
        "near_grounded",
        "other",
    ]


def model_reply() -> str:
    gates = {
        "1_data_availability": {"raw": "labelled tickets", "classified": "available"},
        "2_use_case": {"raw": "Fraud detection for card payments", "classified": None},
        "3_success_metric": {"raw": None, "classified": None},
        "4_data_privacy": {"raw": None, "classified": None},
        "5_stakeholder": {"raw": None, "classified": None},
    }
    return json.dumps(
        {
            "summary": "s",
            "gates": gates,
            "status": {"pass": False, "next_gate": None, "next_query": None},
        },
        indent=2,
    )


def option_text(app, index: int) -> str:
    return str(app.gate_screen.gate_list.get_option_at_index(index).prompt)


async def test_the_editor_marks_who_said_each_answer(monkeypatch) -> None:
    with ScriptedServer([Step(text=model_reply())]) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("f6")
            await wait_for(
                pilot, lambda: app.screen.query("#ask-input"), message="message box open"
            )
            await pilot.press(*"We have labelled tickets", "enter")
            screen = app.gate_screen
            asking = screen.workbench.asking
            await wait_for(
                pilot,
                lambda: asking.run is not None and asking.run.call is not None,
                timeout=30,
                message="reply arrived",
            )
            preview = str(screen.reply_pane.query_one("#preview").render())
            assert "Warnings:" in preview and preview.index("not the user's words") < preview.index(
                "Fields that would change"
            )
            await pilot.press("ctrl+j")
            await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="applied")
            await wait_for(
                pilot, lambda: "not your words" in option_text(app, 1), message="gate 2 marked"
            )
            assert "your words" in option_text(app, 0) and "not your words" not in option_text(
                app, 0
            )
            screen.gate_list.select_key("2_use_case")
            await wait_for(
                pilot,
                lambda: "NOT the user's words" in str(screen.query_one("#gate-title").render()),
                timeout=10,
                message="gate title says who said it",
            )


def test_the_preview_reads_each_new_message_once_and_sees_every_one() -> None:
    """The editor's preview keeps the user's F6 messages read so far: a message journaled
    after a preview counts in the next one, and records already read are not read again."""
    from gate_tui import load_config
    from gate_tui.llm import conversation
    from gate_tui.session.live import Session
    from gate_tui.tui.controller import EditController
    from tests.tui_helpers import ML_CONFIG

    config = load_config(ML_CONFIG)
    session = Session.in_memory(config, ML_CONFIG)
    controller = EditController(config, session)
    from gate_tui.parsing.pipeline import empty_state

    state = empty_state(config).model_dump(mode="json", by_alias=True)
    state["gates"]["2_use_case"]["raw"] = "Route urgent tickets first"
    reply = json.dumps(state)
    read: list[int] = []
    original = conversation.turns_of

    def counting(records):  # noqa: ANN001, ANN202
        read.append(len(records))
        return original(records)

    conversation.turns_of = counting
    try:
        for n in range(30):
            session.record_model_call(call_kind="ask", model="m", endpoint="h:1", message=f"x{n}")
            first = controller.preview(reply)
        session.record_model_call(
            call_kind="ask", model="m", endpoint="h:1", message="Route urgent tickets first!"
        )
        second = controller.preview(reply)
    finally:
        conversation.turns_of = original
    assert first is not None and second is not None
    assert first.grounding["summary"] == "ungrounded" and second.grounding["summary"] == "grounded"
    assert second.grounding["user_turns"] == 31
    assert max(read) == 1  # each preview read only the record journaled since the last
