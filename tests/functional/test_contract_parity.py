"""Contract mode as the gate editor: sessions listed with their changes and VALID / INVALID,
the command palette, file commands through the shared path prompt, key hints from one keymap."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from textual import events
from textual.command import CommandList

from gate_tui.contracts.loading import load_contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.editing.contract_sessions import open_session
from gate_tui.session.catalog import list_sessions
from gate_tui.session.commands import sessions_command
from gate_tui.tui.contract.app import ContractApp
from gate_tui.tui.contract.commands import contract_commands
from gate_tui.tui.contract.help import ContractHelp, help_text
from gate_tui.tui.screens.path_prompt import PathScreen
from tests.tui_helpers import answer_path, run_command, screen_text, wait_for

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "sample_configs" / "contracts"


@pytest.fixture(scope="module")
def game():
    return load_contract(CONTRACTS / "llm_result_v1.yaml")


def _info(folder: Path):
    return next(info for info in list_sessions() if info.directory == folder)


def test_sessions_count_contract_changes_and_show_valid_or_invalid(game) -> None:
    editor = ContractEditor(game)
    assert open_session(editor, new=True) is None
    editor.apply_reply(game.sample_path("lying").read_text())
    editor.apply_reply(game.sample_path("good").read_text())
    info = _info(editor.folder)
    assert (info.transitions, info.decision, info.status) == (
        2,
        "VALID",
        "locked",
    )  # the editor holds it
    editor.undo()  # back to the lying reply: the listing follows the history, not the last record
    info = _info(editor.folder)
    assert (info.transitions, info.decision) == (3, "INVALID")
    editor.redo()
    editor.close()  # a clean exit: VALID and closed is finished
    info = _info(editor.folder)
    assert (info.transitions, info.decision, info.status) == (4, "VALID", "finished")
    out = io.StringIO()
    assert sessions_command(None, out=out) == 0
    row = next(line for line in out.getvalue().splitlines() if line.startswith(editor.folder.name))
    assert row.split()[-3:] == ["4", "VALID", "finished"]


def test_a_resumed_contract_session_is_open_until_closed_again(game) -> None:
    editor = ContractEditor(game)
    assert open_session(editor, new=True) is None
    editor.apply_reply(game.sample_path("good").read_text())
    editor.close()
    again = ContractEditor(game)
    assert open_session(again).startswith("resumed ")
    assert again.folder == editor.folder and _info(again.folder).status == "locked"
    again.close()
    assert _info(again.folder).status == "finished"


async def _app_with_reply(pilot, app, text: str) -> None:
    await wait_for(pilot, lambda: app.query_one("#reply").has_focus, message="reply focused")
    app.post_message(events.Paste(text))
    await wait_for(pilot, lambda: "Preview:" in screen_text(app), message="preview shown")
    before = app.editor.index
    await pilot.press("ctrl+j")
    await wait_for(pilot, lambda: app.editor.index == before + 1, message="reply applied")


async def test_the_palette_lists_every_contract_action_and_runs_them(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _app_with_reply(pilot, app, game.sample_path("lying").read_text())
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: app.screen.query(CommandList), message="the palette")
        names = [command.name for command in contract_commands()]
        for name in (
            "Apply reply",
            "Undo",
            "Redo",
            "Export value JSON…",
            "Export report…",
            "Save value as…",
            "Open value…",
            "Clear reply",
            "Help",
            "Remove key",
            "Edit as JSON",
        ):
            assert name in names
        await wait_for(
            pilot,
            lambda: "Apply reply" in screen_text(app),
            message="discovery lists the contract actions",
        )
        await pilot.press(*"value")
        await wait_for(
            pilot,
            lambda: all(
                name in screen_text(app)
                for name in ("Open value…", "Save value as…", "Export value JSON…")
            ),
            message="the file commands",
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.screen.query(CommandList))
        await run_command(pilot, app, "Undo")
        await wait_for(pilot, lambda: app.editor.index == 0, message="undone from the palette")
        await run_command(pilot, app, "Redo")
        await wait_for(pilot, lambda: app.editor.index == 1, message="redone from the palette")
        await run_command(pilot, app, "Help")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ContractHelp), message="help from the palette"
        )
        assert "Open value…" in help_text() and "In the command palette (Ctrl+P) too" in help_text()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ContractHelp))
        app.post_message(events.Paste("some text"))
        await wait_for(pilot, lambda: app.query_one("#reply").text == "some text")
        await run_command(pilot, app, "Clear reply")
        await wait_for(
            pilot, lambda: app.query_one("#reply").text == "", message="cleared from the palette"
        )
        await run_command(pilot, app, "Quit")  # Textual's own entry, as in the gate editor
        await wait_for(pilot, lambda: not app.is_running, message="quit")


async def test_export_asks_before_replacing_and_open_value_is_a_checked_edit(
    game, tmp_path
) -> None:
    app = ContractApp(game, journal=False, blink=False)
    target = tmp_path / "value.json"
    target.write_text("keep me")
    async with app.run_test(size=(120, 40)) as pilot:
        await _app_with_reply(pilot, app, game.sample_path("good").read_text())
        await pilot.press("ctrl+e")
        await answer_path(pilot, app, target)
        await wait_for(
            pilot, lambda: "already exists" in screen_text(app), message="asks before replacing"
        )
        assert target.read_text() == "keep me"
        await pilot.press("enter")  # a second Enter replaces it
        await wait_for(
            pilot, lambda: not isinstance(app.screen, PathScreen), message="prompt closed"
        )
        assert json.loads(target.read_text()) == app.editor.value
        # ~ is expanded and a failure keeps the prompt open with the reason
        await run_command(pilot, app, "Export report…")
        await answer_path(pilot, app, tmp_path / "no-such-folder" / "r.md")
        await wait_for(pilot, lambda: "✗" in screen_text(app), message="the error in the prompt")
        assert isinstance(app.screen, PathScreen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, PathScreen))
        await run_command(pilot, app, "Export report…")
        await answer_path(pilot, app, tmp_path / "report.md")
        await wait_for(pilot, lambda: (tmp_path / "report.md").is_file(), message="report written")
        assert "decision: **VALID**" in (tmp_path / "report.md").read_text()

        # Open value…: an invalid value is taken (to be fixed) and judged by the contract
        broken = dict(app.editor.value)
        del broken["emotion"]
        (tmp_path / "broken.json").write_text(json.dumps(broken))
        await run_command(pilot, app, "Open value…")
        await answer_path(pilot, app, tmp_path / "broken.json")
        await wait_for(pilot, lambda: app.editor.index == 2, message="opened as a change")
        assert app.editor.current.actor == "user" and not app.editor.result.ok
        assert [e.code for e in app.editor.result.errors] == ["missing_key"]
        await wait_for(
            pilot, lambda: "INVALID (1 error" in app.query_one("#contract-decision").render().plain
        )  # type: ignore[attr-defined]
        # the same value again records nothing; a file that is not an object changes nothing
        await run_command(pilot, app, "Open value…")
        await answer_path(pilot, app, tmp_path / "broken.json")
        await wait_for(pilot, lambda: not isinstance(app.screen, PathScreen))
        assert app.editor.index == 2 and len(app.editor.steps) == 3
        (tmp_path / "list.json").write_text("[1, 2]")
        await run_command(pilot, app, "Open value…")
        await answer_path(pilot, app, tmp_path / "list.json")
        await wait_for(
            pilot,
            lambda: "does not hold a JSON object" in screen_text(app),
            message="refused in the prompt",
        )
        assert isinstance(app.screen, PathScreen) and app.editor.index == 2


def test_open_value_refuses_what_is_not_a_json_object_file(game, tmp_path) -> None:
    editor = ContractEditor(game)
    (tmp_path / "bad.json").write_bytes(b"\xff\xfe{")
    (tmp_path / "half.json").write_text('{"a": ')
    assert editor.open_value(tmp_path / "missing.json") == (
        False,
        f"{tmp_path / 'missing.json'} does not exist",
    )
    assert "not UTF-8" in editor.open_value(tmp_path / "bad.json")[1]
    assert "not valid JSON" in editor.open_value(tmp_path / "half.json")[1]
    assert "directory" in editor.open_value(tmp_path)[1]
    assert editor.index == 0


def test_key_hints_come_from_the_key_table(game, monkeypatch) -> None:
    from gate_tui.tui.contract import keys

    moved = tuple(a._replace(keys="f9") if a.id == "apply_reply" else a for a in keys.ACTIONS)
    monkeypatch.setattr(keys, "ACTIONS", moved)
    monkeypatch.setattr(keys, "KEYS", keys.KEYS._replace(actions=moved))
    assert keys.hint("apply_reply") == "F9"
    assert "F9" in help_text() and "Ctrl+J" not in help_text()


async def test_undo_in_the_reply_pane_falls_through_to_the_change(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await _app_with_reply(pilot, app, game.sample_path("good").read_text())
        assert app.query_one("#reply").has_focus and app.query_one("#reply").text == ""
        await pilot.press("ctrl+z")  # the pane has no typing to undo: the reply is undone
        await wait_for(
            pilot, lambda: app.editor.index == 0, message="reply undone from the reply pane"
        )
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.editor.index == 1, message="redone from the reply pane")
        await pilot.press("x", "ctrl+z")  # typing is undone first
        await wait_for(pilot, lambda: app.query_one("#reply").text == "", message="typing undone")
        assert app.editor.index == 1


def test_sessions_of_a_contract_file_on_the_command_line(game) -> None:
    import os
    import subprocess
    import sys

    editor = ContractEditor(game)
    assert open_session(editor, new=True) is None
    editor.apply_reply(game.sample_path("lying").read_text())
    editor.close()
    script = Path(sys.executable).with_name("gate-tui")
    done = subprocess.run(
        [str(script), "sessions", "--config", game.path],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith(editor.folder.name))
    assert row.split()[-3:] == ["1", "INVALID", "open"]
    assert all(
        line.startswith(("NAME", "contract-llm_result_v1-")) for line in done.stdout.splitlines()
    )
    report = subprocess.run(
        [str(script), "report", editor.folder.name],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )
    assert "decision: **INVALID (6 errors)**" in report.stdout


def test_help_wraps_inside_its_columns_at_80_columns() -> None:
    text = help_text(70)  # the help box at 80 columns, less its border and padding
    flush_left = [
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith(" ")
    ]
    assert flush_left == [
        "Keys",
        "In the command palette (Ctrl+P) too",
        "Validity",
        "The contract decides, never the model and never the editor:",
        "Esc or F1 closes this screen.",
    ]
    assert "\n" + " " * 23 + "leaf " in text  # F3's help, wrapped under its own column
