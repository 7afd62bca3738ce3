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
    await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "reply", message="the reply pane")
    app.post_message(events.Paste(text))
    bench = app.screen.query_one(Workbench)
    await wait_for(pilot, lambda: bench.shown is not None and bench.shown.text == text, message="the preview")
    return bench


async def test_a_gate_reply_is_parsed_once_for_its_preview_and_its_apply(monkeypatch: pytest.MonkeyPatch) -> None:
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


async def test_a_reply_is_parsed_again_when_the_state_changed_under_its_preview(monkeypatch: pytest.MonkeyPatch) -> None:
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


async def test_a_contract_reply_is_checked_once_for_its_preview_and_its_apply(monkeypatch: pytest.MonkeyPatch) -> None:
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
        await wait_for(pilot, lambda: bench.shown is not None and bench.shown.candidate == first.next_choice, message="the pick")
        app.post_message(events.Paste(text))  # the same reply pasted again: the parser's own choice
        await wait_for(pilot, lambda: bench.shown is not None and bench.shown.candidate is None, message="the pick dropped")
