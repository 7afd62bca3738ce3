"""The editor on real sessions: resume prompt, state file, save, quitting records the pending edit.

The private state directory comes from the ``GATE_TUI_STATE_DIR`` fixture in conftest.
"""

from __future__ import annotations

import json
from pathlib import Path

from textual.command import CommandList
from textual.widgets import Input

from gate_tui.config import load_config
from gate_tui.parser import parse
from gate_tui.session import find_resumable, open_session
from gate_tui.tui.app import GateApp
from gate_tui.tui.screens.resume import ResumeScreen
from tests.tui_helpers import ML_CONFIG, palette_highlight, reply, screen_text, wait_for


def unfinished_session() -> None:
    """A session on disk with one accepted reply (NO PASS), closed without finishing."""
    config = load_config(ML_CONFIG)
    session = open_session(config, ML_CONFIG, new=True)
    result = parse(reply("ml_lying_pass.md"), config, session.state, actor="assistant")
    session.accept(result, reply("ml_lying_pass.md"), "assistant")
    session.close()


async def test_resume_prompt_resumes_with_enter() -> None:
    unfinished_session()
    config = load_config(ML_CONFIG)
    info = find_resumable(config, ML_CONFIG)
    assert info is not None
    app = GateApp(config, ML_CONFIG, resumable=info, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen), message="resume question")
        assert "Resume session" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ResumeScreen))
        await wait_for(pilot, lambda: app.session.state.summary.startswith("Demand forecast"), message="resumed state")
        assert app.session.persistent
        assert app.query_one("#summary", Input).value.startswith("Demand forecast")


async def test_resume_prompt_can_start_fresh() -> None:
    unfinished_session()
    config = load_config(ML_CONFIG)
    info = find_resumable(config, ML_CONFIG)
    app = GateApp(config, ML_CONFIG, resumable=info, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.session.persistent and app.session.directory != info.directory)
        assert app.session.state.summary == ""
        assert app.session.timeline == []


async def test_state_file_is_written_and_saved(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent, message="a persistent session")
        app.select_gate("2_use_case")
        app.query_one("#raw", Input).focus()
        await pilot.press(*"Rank tickets")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "State saved" in screen_text(app), message="save notice")
        saved = json.loads(state_file.read_text(encoding="utf-8"))
        assert "Rank tickets" in json.dumps(saved)


async def test_quitting_records_the_pending_edit(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    app.EDIT_COMMIT_DELAY = 60.0
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        app.select_gate("3_success_metric")
        app.query_one("#raw", Input).focus()
        await pilot.press(*"MAPE")
        await wait_for(pilot, lambda: app.pending is not None)
        await pilot.press("ctrl+q")
    assert "MAPE" in state_file.read_text(encoding="utf-8")


async def test_save_as_and_export_report_from_the_palette(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, state_file=tmp_path / "intake.json", blink=False)
    copy, report = tmp_path / "copy.json", tmp_path / "review.md"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        for command, target in (("Save state as", copy), ("Export review report", report)):
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: app.screen.query(CommandList), message="the palette")
            await pilot.press(*command)
            await wait_for(pilot, lambda command=command: palette_highlight(app).startswith(command), message=f"{command} highlighted")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "path-input")
            app.screen.query_one("#path-input", Input).value = str(target)
            await pilot.press("enter")
            await wait_for(pilot, lambda target=target: target.exists(), message=f"{target.name} written")
        assert report.read_text(encoding="utf-8").startswith("#")
        assert json.loads(copy.read_text(encoding="utf-8"))
