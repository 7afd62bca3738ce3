"""Never lose work, never overwrite by surprise: quitting, Save as…, Export, Open state.

* Ctrl+Q asks (Save as… / Quit anyway / Cancel) when work would be lost: the session is
  read-only (a second editor) or in memory only (the state directory is unwritable).
* The path prompt asks before replacing a file, expands ``~``, names files by their
  absolute path, keeps the prompt open (path typed) on an error, and says where a
  relative path goes (the current folder).
* Opening a state equal to the current one says "no change" and records nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Static, TextArea

from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import parse
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.tui.app import GateApp
from gate_tui.tui.screens.path_prompt import PathScreen
from gate_tui.tui.screens.quit_prompt import QuitScreen
from tests.tui_helpers import ML_CONFIG, reply, run_command, screen_text, wait_for


def unwritable_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(
        "GATE_TUI_STATE_DIR", str(blocker / "state")
    )  # cannot be created, even by root


async def type_answer(pilot: Any, app: GateApp, gate: str, text: str) -> None:
    """Type ``text`` into ``gate``'s raw field and record it."""
    app.gate_screen.select_gate(gate)
    app.query_one("#raw", TextArea).focus()
    await pilot.press(*text)
    await wait_for(pilot, lambda: app.gate_screen.pending is not None, message="the pending edit")
    app.gate_screen.commit_pending()
    await wait_for(
        pilot, lambda: app.session.state.gates[gate].raw == text, message=f"{gate} recorded"
    )


async def type_path(pilot: Any, app: GateApp, path: str) -> None:
    """Replace the path prompt's text with ``path`` and press Enter."""
    await wait_for(pilot, lambda: isinstance(app.screen, PathScreen), message="the path prompt")
    field = app.screen.query_one("#path-input", Input)
    field.value = path
    await pilot.press("enter")


def prompt_text(app: GateApp) -> str:
    return " ".join(str(s.render()) for s in app.screen.query(Static))


# ------------------------------------------------------------------------ quitting


async def test_quit_in_memory_only_asks_and_cancel_keeps_the_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unwritable_state_dir(tmp_path, monkeypatch)
    app = GateApp(load_config(ML_CONFIG), ML_CONFIG, blink=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(
            pilot, lambda: app.session.persistence_warning is not None, message="memory only"
        )
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await pilot.press("ctrl+q")
        await wait_for(
            pilot, lambda: isinstance(app.screen, QuitScreen), message="the quit question"
        )
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert labels == ["Save as…", "Quit anyway", "Cancel"]
        await wait_for(
            pilot, lambda: "not saved" in screen_text(app), message="the question says why"
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, QuitScreen), message="cancelled")
        assert (
            app.return_code is None and app.session.state.gates["2_use_case"].raw == "Rank tickets"
        )
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("ctrl+q")  # a second Ctrl+Q does not throw the work away
        await pilot.pause(0.1)
        assert app.return_code is None and len(app.screen_stack) == 2
        await pilot.click("#quit-anyway")
        await wait_for(pilot, lambda: app.return_code == 0, message="quit anyway")


async def test_quit_save_as_writes_the_state_then_quits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    unwritable_state_dir(tmp_path, monkeypatch)
    target = tmp_path / "kept.json"
    app = GateApp(load_config(ML_CONFIG), ML_CONFIG, blink=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistence_warning is not None)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("enter")  # "Save as…" is the default
        await type_path(pilot, app, str(target))
        await wait_for(pilot, lambda: app.return_code == 0, message="quits once saved")
    assert (
        json.loads(target.read_text(encoding="utf-8"))["state"]["gates"]["2_use_case"]["raw"]
        == "Rank tickets"
    )


async def test_quit_without_changes_or_with_a_saving_session_does_not_ask(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    app = GateApp(config, ML_CONFIG, state_file=tmp_path / "intake.json", blink=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistent)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await pilot.press("ctrl+q")
        await wait_for(
            pilot, lambda: app.return_code == 0, message="a saving session quits at once"
        )


@pytest.mark.parametrize("box", ["help", "ask"])
async def test_ctrl_q_over_a_box_closes_it_and_quits_as_the_editor_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, box: str
) -> None:
    """The footer's Quit works over any box: unsaved work still gets the question first."""
    from gate_tui.tui.screens.ask_prompt import AskScreen
    from gate_tui.tui.screens.help import HelpScreen

    unwritable_state_dir(tmp_path, monkeypatch)
    app = GateApp(load_config(ML_CONFIG), ML_CONFIG, blink=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session.persistence_warning is not None)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        kind = HelpScreen if box == "help" else AskScreen
        if box == "help":
            await pilot.press("f1")
        else:
            app.push_screen(AskScreen("model at host", "auto-retry off"))
        await wait_for(pilot, lambda: isinstance(app.screen, kind), message=f"the {box} box")
        await pilot.press("ctrl+q")
        await wait_for(
            pilot, lambda: isinstance(app.screen, QuitScreen), message="the quit question"
        )
        assert not any(isinstance(screen, kind) for screen in app.screen_stack)
        await pilot.click("#quit-anyway")
        await wait_for(pilot, lambda: app.return_code == 0, message="quit anyway")


async def test_quit_from_a_read_only_second_editor_asks(tmp_path: Path) -> None:
    config = load_config(ML_CONFIG)
    state_file = tmp_path / "intake.json"
    first = open_session(config, ML_CONFIG, state_file=state_file)
    try:
        text = reply("ml_lying_pass.md")
        first.accept(parse(text, config, first.state, actor="assistant"), text, "assistant")
        app = GateApp(config, ML_CONFIG, state_file=state_file, blink=False)
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await wait_for(pilot, lambda: app.session.read_only, message="read-only")
            await type_answer(pilot, app, "2_use_case", "Forecast orders")
            await pilot.press("ctrl+q")
            await wait_for(
                pilot, lambda: isinstance(app.screen, QuitScreen), message="the quit question"
            )
            await wait_for(pilot, lambda: "read-only" in screen_text(app))
            await pilot.click("#quit-anyway")
            await wait_for(pilot, lambda: app.return_code == 0)
    finally:
        first.close()


# ---------------------------------------------------------------- the path prompt


def in_memory_app() -> GateApp:
    config = load_config(ML_CONFIG)
    return GateApp(config, ML_CONFIG, session=Session.in_memory(config, ML_CONFIG), blink=False)


async def test_save_as_asks_before_replacing_a_file(tmp_path: Path) -> None:
    target = tmp_path / "existing.json"
    target.write_text("precious", encoding="utf-8")
    app = in_memory_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await run_command(pilot, app, "Save state as")
        await type_path(pilot, app, str(target))
        await wait_for(
            pilot, lambda: "already exists" in prompt_text(app), message="the overwrite question"
        )
        assert (
            isinstance(app.screen, PathScreen) and target.read_text(encoding="utf-8") == "precious"
        )
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, PathScreen), message="confirmed")
        await wait_for(
            pilot, lambda: target.read_text(encoding="utf-8") != "precious", message="replaced"
        )
        await wait_for(
            pilot,
            lambda: f"State saved to {target}" in " ".join(n.message for n in app._notifications),
        )


async def test_export_expands_home_and_names_the_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    app = in_memory_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await run_command(pilot, app, "Export review report")
        await wait_for(pilot, lambda: isinstance(app.screen, PathScreen))
        await wait_for(
            pilot,
            lambda: str(Path.cwd()) in prompt_text(app),
            message="the prompt names the current folder",
        )
        assert "current folder" in prompt_text(app)
        await type_path(pilot, app, "~/review.md")
        await wait_for(
            pilot, lambda: (tmp_path / "review.md").exists(), message="written under HOME"
        )
        messages = lambda: " ".join(n.message for n in app._notifications)  # noqa: E731
        await wait_for(
            pilot, lambda: f"Review report written to {tmp_path / 'review.md'}" in messages()
        )
    assert not (Path.cwd() / "~").exists()


async def test_a_failed_write_keeps_the_prompt_open_with_the_path(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    bad = str(blocker / "inside.json")
    app = in_memory_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await run_command(pilot, app, "Export state JSON")
        await type_path(pilot, app, bad)
        await wait_for(pilot, lambda: "✗" in prompt_text(app), message="the error in the prompt")
        assert isinstance(app.screen, PathScreen)
        assert app.screen.query_one("#path-input", Input).value == bad
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, PathScreen))


async def test_opening_the_current_state_records_nothing(tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    app = in_memory_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        assert app.session.save(copy) is None
        count, records = len(app.session.timeline), len(app.session.records)
        await run_command(pilot, app, "Open state")
        await type_path(pilot, app, str(copy))
        messages = lambda: " ".join(n.message for n in app._notifications)  # noqa: E731
        await wait_for(pilot, lambda: "no change" in messages(), message="no change said")
        assert len(app.session.timeline) == count
        assert [r["kind"] for r in app.session.records[records:]] == []


async def test_ctrl_s_names_the_state_file_by_its_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = GateApp(load_config(ML_CONFIG), ML_CONFIG, state_file=Path("relative.json"), blink=False)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for(pilot, lambda: app.session is not None and app.session.persistent)
        await type_answer(pilot, app, "2_use_case", "Rank tickets")
        await pilot.press("ctrl+s")
        messages = lambda: " ".join(n.message for n in app._notifications)  # noqa: E731
        await wait_for(
            pilot,
            lambda: f"State saved to {tmp_path / 'relative.json'}." in messages(),
            message="the absolute path",
        )
