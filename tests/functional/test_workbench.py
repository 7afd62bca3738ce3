"""The reply workbench (gate_tui/tui/workbench/): one parse per text, what it tells its
screen, the candidate pick, and that every screen showing a reply mounts it."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events

import gate_tui.parsing.pipeline as pipeline
from gate_tui.config.loading import load_config
from gate_tui.contracts.loading import load_contract
from gate_tui.session.live import Session
from gate_tui.tui.app import GateApp
from gate_tui.tui.contract.app import ContractApp
from gate_tui.tui.workbench.widget import Workbench
from tests.tui_helpers import ML_CONFIG, ROOT, reply, screen_text, wait_for

CONTRACT = ROOT / "sample_configs" / "contracts" / "llm_result_v1.yaml"


def counting(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """Count calls of ``module.name`` (the texts it was called with)."""
    calls: list[str] = []
    real = getattr(module, name)

    def counted(payload: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(payload if isinstance(payload, str) else repr(payload))
        return real(payload, *args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def gate_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


async def paste_into_reply(pilot: Any, app: Any, text: str) -> Workbench:
    await pilot.press("f2")
    await wait_for(
        pilot,
        lambda: app.focused is not None and app.focused.id == "reply",
        message="the reply pane",
    )
    app.post_message(events.Paste(text))
    bench = app.screen.query_one(Workbench)
    await wait_for(
        pilot, lambda: bench.shown is not None and bench.shown.text == text, message="the preview"
    )
    return bench


async def test_a_gate_reply_is_parsed_once_for_its_preview_and_its_apply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = gate_app()
    text = reply("ml_good.md")
    async with app.run_test(size=(120, 40)) as pilot:
        calls = counting(monkeypatch, pipeline, "parse")
        bench = await paste_into_reply(pilot, app, text)
        await pilot.pause(0.3)  # a second preview of the same text would show up here
        assert calls.count(text) == 1, "the preview parses the pasted text once"
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the reply applied")
        assert calls.count(text) == 1, "applying reuses the preview's result"
        assert bench.text_area.text == "" and bench.shown is None or bench.shown.text == ""


async def test_a_reply_is_parsed_again_when_the_state_changed_under_its_preview(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = gate_app()
    text = reply("ml_good.md")
    async with app.run_test(size=(120, 40)) as pilot:
        calls = counting(monkeypatch, pipeline, "parse")
        bench = await paste_into_reply(pilot, app, text)
        before = calls.count(text)
        # The user's edit changes the state the preview was read against.
        app.gate_screen.gate_form.edit(_raw(app), "typed")
        app.gate_screen.commit_pending()
        await wait_for(pilot, lambda: len(app.session.timeline) == 1, message="the edit recorded")
        bench.apply()
        await wait_for(pilot, lambda: len(app.session.timeline) == 2, message="the reply applied")
        assert calls.count(text) >= before + 1, "a changed state is never judged by a stale preview"


def _raw(app: GateApp) -> Any:
    from gate_tui.tui.form import FieldRef

    return FieldRef("raw", app.gate_screen.gate_editor.key)


async def test_a_contract_reply_is_checked_once_for_its_preview_and_its_apply(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gate_tui.editing.contract_editor as contract_editor

    contract = load_contract(CONTRACT)
    text = contract.sample_path("lying").read_text()
    app = ContractApp(contract, blink=False, journal=False)
    async with app.run_test(size=(120, 40)) as pilot:
        calls = counting(monkeypatch, contract_editor, "check_contract")
        await wait_for(pilot, lambda: app.query_one("#reply").has_focus)
        app.post_message(events.Paste(text))
        await wait_for(pilot, lambda: "Preview:" in screen_text(app), message="the preview")
        await pilot.pause(0.3)
        assert calls.count(text) == 1
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: app.editor.index == 1, message="the reply applied")
        assert calls.count(text) == 1


async def test_a_repaste_of_the_same_reply_drops_the_earlier_pick() -> None:
    app = gate_app()
    text = reply("ml_self_correcting.md")
    async with app.run_test(size=(120, 40)) as pilot:
        bench = await paste_into_reply(pilot, app, text)
        first = bench.shown
        assert first is not None and first.next_choice is not None
        await pilot.press("f9")
        await wait_for(
            pilot,
            lambda: bench.shown is not None and bench.shown.candidate == first.next_choice,
            message="the pick",
        )
        app.post_message(events.Paste(text))  # the same reply pasted again: the parser's own choice
        await wait_for(
            pilot,
            lambda: bench.shown is not None and bench.shown.candidate is None,
            message="the pick dropped",
        )


async def test_the_message_box_sends_on_enter_and_ctrl_j_or_shift_enter_add_a_line() -> None:
    from textual.app import App

    from gate_tui.tui.screens.ask_prompt import AskScreen

    sent: list[str | None] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(AskScreen("model at host", "auto-retry off"), sent.append)

    app = Host()
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.screen.query("#ask-input"), message="the message box")
        await pilot.press("a", "ctrl+j", "b", "shift+enter", "c")
        assert not sent, "a new line does not send"
        await pilot.press("enter")
        await wait_for(pilot, lambda: sent == ["a\nb\nc"], message="sent on Enter")


async def test_a_position_jumps_to_its_place_with_the_span_highlighted() -> None:
    from gate_tui.tui.widgets.reply_pane import PreviewText

    app = gate_app()
    text = 'prose first\n{"summary": "x",\n  bad_key: 1}'
    async with app.run_test(size=(120, 40)) as pilot:
        bench = await paste_into_reply(pilot, app, text)
        assert bench.text_area.show_line_numbers
        bench.query_one(PreviewText).action_goto(3, 3)  # what a click on "3:3" in the preview runs
        await wait_for(pilot, lambda: bench.text_area.selection.start == (2, 2), message="the jump")
        assert bench.text_area.selected_text == "bad_key:"
        await pilot.press("ctrl+g")
        await wait_for(
            pilot, lambda: app.screen.query("#goto-input"), message="the go-to-line prompt"
        )
        await pilot.press(*"2:5", "enter")
        await wait_for(
            pilot, lambda: bench.text_area.selection.start == (1, 4), message="went to 2:5"
        )


def test_go_to_line_reads_a_line_or_line_and_column() -> None:
    from gate_tui.tui.workbench.goto import read_position

    assert read_position("144") == (144, 1)
    assert read_position(" 144:31 ") == (144, 31)
    assert read_position("x") is None and read_position("") is None


def test_repairs_are_labelled_exact_or_guess() -> None:
    from gate_tui.models import Repair
    from gate_tui.tui.render import repair_rows

    rows = [
        row.plain
        for row in repair_rows(
            [
                Repair(code="c", message="m", line=1, column=2),
                Repair(code="g", message="n", line=3, column=4, certainty="guess"),
            ]
        )
    ]
    assert "exact m" in rows[0] and "GUESS n" in rows[1]


def test_the_contract_panel_shows_the_replys_verdict_as_its_claim_not_the_decision() -> None:
    from gate_tui.contracts.checking import check_contract
    from gate_tui.tui.contract.views import decision

    contract = load_contract(ROOT / "sample_configs" / "contracts" / "guardian_report.yaml")
    result = check_contract(contract.sample_path("lying").read_text(), contract)
    assert (
        not result.ok
        and result.value is not None
        and result.value.get(contract.verdict_field) == "PASS"
    )
    shown = decision(contract, result, (1, 2)).plain.splitlines()
    assert shown[0].startswith("INVALID")
    claim = next(row for row in shown if '"PASS"' in row)
    assert "claims" in claim and "not the decision" in claim


def test_the_editor_does_not_advise_a_model_flag_it_lacks() -> None:
    from gate_tui.llm.settings import ModelSettings

    assert "--model" not in (ModelSettings().missing(flags=False) or "")
    assert "--model" in (ModelSettings().missing() or "")
