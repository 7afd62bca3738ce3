"""The editor on real sessions: resume prompt, state file, save, quitting records the pending edit.

The private state directory comes from the ``GATE_TUI_STATE_DIR`` fixture in conftest.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Static, TextArea

from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import parse
from gate_tui.session.catalog import find_resumable
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.tui.app import GateApp
from gate_tui.tui.screens.resume import ResumeScreen
from tests.tui_helpers import (
    CONFIGS,
    ML_CONFIG,
    answer_path,
    reply,
    run_command,
    screen_text,
    type_answer,
    wait_for,
)

VENDOR_CONFIG = CONFIGS / "vendor_security_review.yaml"


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
        await wait_for(
            pilot, lambda: isinstance(app.screen, ResumeScreen), message="resume question"
        )
        await wait_for(pilot, lambda: "Resume session" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ResumeScreen))
        await wait_for(
            pilot,
            lambda: app.session.state.summary.startswith("Demand forecast"),
            message="resumed state",
        )
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
        await wait_for(
            pilot, lambda: app.session.persistent and app.session.directory != info.directory
        )
        assert app.session.state.summary == ""
        assert app.session.timeline == []


async def test_state_file_is_written_and_saved(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent, message="a persistent session")
        app.gate_screen.select_gate("2_use_case")
        app.query_one("#raw", TextArea).focus()
        await pilot.press(*"Rank tickets")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "State saved" in screen_text(app), message="save notice")
        saved = json.loads(state_file.read_text(encoding="utf-8"))
        assert "Rank tickets" in json.dumps(saved)


async def test_quitting_records_the_pending_edit(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        app.gate_screen.EDIT_COMMIT_DELAY = 60.0
        await wait_for(pilot, lambda: app.session.persistent)
        app.gate_screen.select_gate("3_success_metric")
        app.query_one("#raw", TextArea).focus()
        await pilot.press(*"MAPE")
        await wait_for(pilot, lambda: app.gate_screen.pending is not None)
        await pilot.press("ctrl+q")
    assert "MAPE" in state_file.read_text(encoding="utf-8")


async def test_save_as_and_export_report_from_the_palette(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, state_file=tmp_path / "intake.json", blink=False)
    copy, report, page = tmp_path / "copy.json", tmp_path / "review.md", tmp_path / "x.html"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        steps = (
            ("Save state as", copy),
            ("Export review report", report),
            ("Export review report", page),
        )
        for command, target in steps:
            await run_command(pilot, app, command)
            await answer_path(pilot, app, target)
            await wait_for(
                pilot, lambda target=target: target.exists(), message=f"{target.name} written"
            )
        assert report.read_text(encoding="utf-8").startswith("#")
        # the format the extension names, as ``gate-tui report -o x.html`` writes it
        assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
        assert json.loads(copy.read_text(encoding="utf-8"))


def state_file_of(config_path: Path, reply_name: str, target: Path) -> Path:
    """A state file (format 1, stamped with the config's fingerprint) holding a reply's state."""
    config = load_config(config_path)
    session = Session.in_memory(config, config_path)
    text = reply(reply_name)
    session.accept(parse(text, config, session.state, actor="assistant"), text, "assistant")
    assert session.save(target) is None
    return target


async def test_export_state_json_writes_the_canonical_state(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, state_file=tmp_path / "intake.json", blink=False)
    target = tmp_path / "exported.json"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await run_command(pilot, app, "Export state JSON")
        await answer_path(pilot, app, target)
        await wait_for(pilot, lambda: target.exists(), message="the exported file")
        await wait_for(pilot, lambda: "State exported" in screen_text(app), message="the notice")
        exported = json.loads(target.read_text(encoding="utf-8"))
    assert exported == app.session.state.model_dump(mode="json"), (
        "the canonical state, nothing else"
    )
    assert set(exported) == {"summary", "gates", "status"}
    assert exported["status"]["pass"] is False and "pass_" not in exported["status"]
    assert exported["status"]["next_gate"] == "1_data_availability"
    assert exported["gates"]["2_use_case"]["raw"] == "Rank tickets"


async def test_copy_state_to_clipboard_copies_the_state_json(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)
    copied: list[str] = []
    monkeypatch.setattr(app, "copy_to_clipboard", copied.append)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await type_answer(pilot, app, "3_success_metric", "MAPE under 8%")
        await run_command(pilot, app, "Copy state to clipboard")
        await wait_for(pilot, lambda: copied, message="copy_to_clipboard called")
        await wait_for(
            pilot, lambda: "copied to the clipboard" in screen_text(app), message="the notice"
        )
    assert copied == [app.session.state_json()]
    data = json.loads(copied[0])
    assert data["status"] == {
        "pass": False,
        "next_gate": "1_data_availability",
        "next_query": data["status"]["next_query"],
    }
    assert data["gates"]["3_success_metric"]["raw"] == "MAPE under 8%"


async def test_open_state_goes_through_the_parser(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    claims_pass = tmp_path / "claims-pass.json"
    claims_pass.write_text(json.dumps({
        "summary": "says it passes",
        "gates": {"1_data_availability": {"raw": "warehouse", "classified": "available"}},
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }), encoding="utf-8")
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        await run_command(pilot, app, "Open state")
        await answer_path(pilot, app, claims_pass)
        await wait_for(
            pilot, lambda: app.session.state.summary == "says it passes", message="the file's state"
        )
        await wait_for(
            pilot,
            lambda: app.query_one("#summary", Input).value == "says it passes",
            message="the form reloaded",
        )
        assert app.gate_screen.decision_panel.word == "NO PASS", (
            "the file's own status is only a claim"
        )
        assert app.session.decision.next_gate == "2_use_case"
        assert [(t.actor, t.kind) for t in app.session.timeline] == [("user", "edit")]
    saved = json.loads(state_file.read_text(encoding="utf-8"))
    assert saved["state"]["summary"] == "says it passes"
    assert saved["decision"]["pass"] is False and saved["decision"]["next_gate"] == "2_use_case"


async def test_open_state_refuses_a_file_of_another_config(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    vendor = state_file_of(VENDOR_CONFIG, "vendor_good.md", tmp_path / "vendor.json")
    app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        before, records, saved = (
            app.session.state,
            len(app.session.records),
            state_file.read_bytes(),
        )
        await run_command(pilot, app, "Open state")
        await answer_path(pilot, app, vendor)
        await wait_for(
            pilot,
            lambda: "different config" in screen_text(app),
            message="the refusal, in the prompt kept open",
        )
        assert app.screen.query_one("#path-input", Input).value == str(vendor)
        await pilot.press("escape")
        assert app.session.state == before
        assert len(app.session.records) == records, "nothing journaled"
        assert app.query_one("#raw", TextArea).text == "Rank tickets"
        assert state_file.read_bytes() == saved


async def test_a_second_editor_on_the_same_session_is_read_only(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    first = open_session(
        config, ML_CONFIG, state_file=state_file
    )  # the first editor holds the lock
    try:
        text = reply("ml_lying_pass.md")
        first.accept(parse(text, config, first.state, actor="assistant"), text, "assistant")
        assert first.persistent and first.journal_path is not None
        files = {path: path.read_bytes() for path in (state_file, first.journal_path)}
        app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
        async with app.run_test(size=(120, 40), notifications=True) as pilot:
            await wait_for(pilot, lambda: app.session.read_only, message="a read-only session")
            await wait_for(
                pilot, lambda: "READ-ONLY" in screen_text(app), message="READ-ONLY in the title"
            )
            await wait_for(
                pilot,
                lambda: "opened read-only" in screen_text(app),
                message="the warning bar saying why",
            )
            assert app.session.state == first.state
            await type_answer(pilot, app, "2_use_case", "Forecast orders")
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: "Not saved" in screen_text(app), message="ctrl+s refused")
            assert any("is read-only" in n.message for n in app._notifications)
            await pilot.press("ctrl+q")
        assert {path: path.read_bytes() for path in files} == files, (
            "the second editor wrote nothing"
        )
    finally:
        first.close()


async def test_an_unwritable_state_directory_warns_and_editing_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(
        "GATE_TUI_STATE_DIR", str(blocker / "state")
    )  # cannot be created, even by root
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot,
            lambda: app.session.persistence_warning is not None,
            message="the session fell back to memory",
        )
        bar = app.query_one("#notices", Static)
        await wait_for(
            pilot,
            lambda: bar.display and "cannot create a session" in screen_text(app),
            message="the warning bar",
        )
        assert not app.session.persistent
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await pilot.press("f3")
        await wait_for(
            pilot, lambda: app.focused is not None and app.focused.id == "classified-select"
        )
        await pilot.press("enter", "down", "enter")
        await wait_for(
            pilot, lambda: app.session.state.gates["1_data_availability"].classified == "available"
        )
        # Two edits, or more when a loaded machine let the typing's commit delay pass
        # between two keys: each is the user's, and the answer is whole.
        assert len(app.session.timeline) >= 2
        assert {step.actor for step in app.session.timeline} == {"user"}
        assert app.session.state.gates["2_use_case"].raw == "Rank tickets"
        assert app.session.decision.next_gate == "3_success_metric"
        assert bar.display
        await wait_for(
            pilot,
            lambda: "cannot create a session" in screen_text(app),
            message="the warning still on screen",
        )
    assert (
        sorted(tmp_path.iterdir()) == [blocker]
        and blocker.read_text(encoding="utf-8") == "not a folder"
    )


# ------------------------------------------------- the resume question's wording (issue 11.16)


def test_human_time_names_today_yesterday_and_dates() -> None:
    from datetime import datetime

    from gate_tui.tui.session_words import human_time

    now = datetime(2026, 11, 25, 9, 0).astimezone()
    local = lambda *args: datetime(*args).astimezone().isoformat()  # noqa: E731
    assert human_time(local(2026, 11, 25, 0, 29), now) == "today 00:29"
    assert human_time(local(2026, 11, 24, 18, 2), now) == "yesterday 18:02"
    assert human_time(local(2026, 11, 12, 9, 15), now) == "12 Nov 09:15"
    assert human_time(local(2024, 11, 12, 9, 15), now) == "12 Nov 2024 09:15"
    assert human_time("not a time", now) == "not a time"


async def test_resume_question_shows_human_times_and_hides_the_empty_state() -> None:
    import re

    unfinished_session()
    config = load_config(ML_CONFIG)
    info = find_resumable(config, ML_CONFIG)
    app = GateApp(config, ML_CONFIG, resumable=info, blink=False)
    async with app.run_test(size=(60, 20), notifications=True) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeScreen))
        await wait_for(pilot, lambda: "started today" in screen_text(app), message="a human time")
        shown = screen_text(app)
        assert not re.search(r"\d{4}-\d\d-\d\dT", shown), shown
        assert "NO PASS: 2_use_case missing" in shown
        assert "Next ▶" not in shown and "1_data_availability" not in shown, (
            "nothing of the empty state behind"
        )
        assert "Resume" in shown and "Start fresh" in shown, "the question fits 60x20"


async def test_a_finished_newest_session_starts_anew_and_says_how_to_reopen_it() -> None:
    config = load_config(ML_CONFIG)
    done = open_session(config, ML_CONFIG, new=True)
    text = reply("ml_good.md")
    done.accept(parse(text, config, done.state, actor="assistant"), text, "assistant")
    name = done.name
    done.close()
    app = GateApp(config, ML_CONFIG, look_for_resumable=True, blink=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await wait_for(
            pilot, lambda: app.session is not None and app.session.persistent, message="a session"
        )
        messages = lambda: " ".join(n.message for n in app._notifications)  # noqa: E731
        await wait_for(pilot, lambda: "Started a new session" in messages(), message="the note")
        assert (
            name in messages()
            and "Open state" in messages()
            and f"gate-tui report {name}" in messages()
        )
        assert app.session.name != name and app.session.timeline == []
        assert not isinstance(app.screen, ResumeScreen)
