"""Ctrl+Z / Ctrl+Y in both editors move through the one undo journal (Pilot; every
condition is polled with a generous timeout, the machine is loaded)."""

from __future__ import annotations

import json
from pathlib import Path

from gate_tui.contracts.loading import load_contract
from gate_tui.session.undo import START
from gate_tui.tui.contract.app import ContractApp
from tests.tui_helpers import make_app, reply, wait_for

CONTRACTS = Path(__file__).resolve().parents[2] / "sample_configs" / "contracts"
SLOW = 60.0


async def test_ctrl_z_and_ctrl_y_in_the_gate_editor() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.gate_screen
        await wait_for(pilot, lambda: screen.controller is not None, SLOW, "the session attached")
        start = screen.session.state
        outcome = screen.controller.apply_reply(reply("ml_lying_pass.md"))
        assert outcome.kind == "accepted"
        screen.after_transition(reload_form=True)
        applied = screen.session.state
        journal = screen.session.history.journal
        await wait_for(pilot, lambda: app.focused is not None, SLOW, "a focused widget")
        screen.gate_list.focus()  # no text area to take the key first
        await wait_for(pilot, lambda: app.focused.id == "gate-list", SLOW, "the list focused")

        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: journal.current == START, SLOW, "the reply undone")
        assert screen.session.state == start and screen.session.can_redo
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: journal.current == 0, SLOW, "the reply redone")
        assert screen.session.state == applied and not screen.session.can_redo
        kinds = [t.kind for t in screen.session.timeline]
        assert kinds == ["reply", "undo", "redo"]


async def test_ctrl_z_and_ctrl_y_in_the_contract_editor() -> None:
    game = load_contract(CONTRACTS / "llm_result_v1.yaml")
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await wait_for(pilot, lambda: app.focused is not None, SLOW, "a focused widget")
        text = game.sample_path("good").read_text()
        result, problem = editor.apply_reply(text)
        assert problem is None and result.value is not None
        editor.set_value("", {**result.value, "extra": 1})
        app.contract_screen.refresh_value()
        app.query_one("#value-tree").focus()  # no text area to take the key first
        await wait_for(pilot, lambda: app.focused.id == "value-tree", SLOW, "the tree focused")

        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: editor.index == 1, SLOW, "the leaf change undone")
        assert editor.value == result.value and editor.can_redo
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: editor.index == 0, SLOW, "the reply undone")
        assert editor.value is None and not editor.can_undo
        await pilot.press("ctrl+y", "ctrl+y")
        await wait_for(pilot, lambda: editor.index == 2, SLOW, "both redone")
        assert json.loads(json.dumps(editor.value))["extra"] == 1
        assert editor.history.position == 2 and not editor.can_redo
