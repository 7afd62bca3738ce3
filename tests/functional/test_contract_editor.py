"""The editor in contract mode, driven by real keys: paste, live preview, apply, edit a leaf
(an enum choice, a number, text), remove an extra key, undo and redo; the journal and the
export; and the controller's rules without Textual."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input, OptionList

from gate_tui.contracts.loading import load_contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.session.journal import read_journal
from gate_tui.tui.contract.app import ContractApp
from gate_tui.tui.contract.tree import ValueTree
from tests.tui_helpers import DANGEROUS, answer_path, screen_text, wait_for

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ROOT / "sample_configs" / "contracts"


@pytest.fixture(scope="module")
def game():
    return load_contract(CONTRACTS / "llm_result_v1.yaml")


def tree_line(app: ContractApp, path: str) -> int:
    tree = app.query_one(ValueTree)
    for number in range(tree.last_line + 1):
        node = tree.get_node_at_line(number)
        if node is not None and node.data == path:
            return number
    raise AssertionError(f"no node for {path}")


async def select_node(pilot, app: ContractApp, path: str) -> None:
    """Focus the tree (F3) and move its cursor to ``path`` with the arrow keys."""
    await pilot.press("f3")
    tree = app.query_one(ValueTree)
    await wait_for(pilot, lambda: tree.has_focus, message="tree focused")
    target = tree_line(app, path)
    while tree.cursor_line != target:
        await pilot.press("down" if tree.cursor_line < target else "up")
    assert tree.cursor_node is not None and tree.cursor_node.data == path


async def paste_and_apply(pilot, app: ContractApp, text: str) -> None:
    app.post_message(events.Paste(text))
    await wait_for(pilot, lambda: "Preview:" in screen_text(app), message="preview shown")
    before = app.editor.index
    await pilot.press("ctrl+j")
    await wait_for(pilot, lambda: app.editor.index == before + 1, message="reply applied")


async def test_paste_preview_apply_edit_leaves_undo_redo(game) -> None:
    app = ContractApp(game, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.query_one("#reply").has_focus)
        app.post_message(events.Paste(game.sample_path("lying").read_text()))
        await wait_for(
            pilot, lambda: "Preview: INVALID (6 errors)" in screen_text(app), message="live preview"
        )
        assert "/debug/tokenCount expected integer, got string" in screen_text(app)
        assert app.editor.value is None  # the preview changes nothing
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: app.editor.index == 1)
        text = screen_text(app)
        assert 'hint: "safer"  ✗ extra_key' in text and "emotion: (missing)  ✗ missing_key" in text
        assert "INVALID (6 errors)" in app.query_one("#contract-decision").render().plain  # type: ignore[attr-defined]

        # an enum choice fills the missing key
        await select_node(pilot, app, "/emotion")
        await pilot.press("enter")
        choices = app.query_one("#edit-choices", OptionList)
        await wait_for(pilot, lambda: choices.has_focus)
        await pilot.press("down", "down", "enter")  # neutral → happy → sad
        await wait_for(pilot, lambda: app.editor.index == 2)
        assert app.editor.value["emotion"] == "sad" and len(app.editor.result.errors) == 5

        # a number typed into a leaf
        await select_node(pilot, app, "/relationshipDeltas/mira")
        await pilot.press("enter")
        field = app.query_one("#edit-input", Input)
        await wait_for(pilot, lambda: field.has_focus)
        field.value = ""
        await pilot.press("4", "0", "enter")
        await wait_for(pilot, lambda: app.editor.index == 3)
        assert (
            app.editor.value["relationshipDeltas"] == {"mira": 40}
            and len(app.editor.result.errors) == 4
        )

        # an extra key removed
        await select_node(pilot, app, "/choices/1/hint")
        await pilot.press("delete")
        await wait_for(pilot, lambda: app.editor.index == 4)
        assert "hint" not in app.editor.value["choices"][1] and len(app.editor.result.errors) == 3

        # undo twice, redo once: the tree and the decision follow
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.editor.index == 3)
        await wait_for(
            pilot, lambda: 'hint: "safer"' in screen_text(app), message="hint back after undo"
        )
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.editor.value["relationshipDeltas"]["mira"] == 150)
        screen = app.screen
        assert screen.check_action("redo_transition", ()) is True  # two undone: redo is live
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.editor.value["relationshipDeltas"]["mira"] == 40)
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: app.editor.index == 4)
        # Nothing left to redo: the key is greyed out, as in the gate editor.
        assert screen.check_action("redo_transition", ()) is None
        assert screen.check_action("undo_transition", ()) is True
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.editor.index == 3)
        assert "INVALID (4 errors)" in app.query_one("#contract-decision").render().plain  # type: ignore[attr-defined]
        journal = app.editor.folder / "journal.jsonl"
        # export asks where, then writes the current value there
        await pilot.press("ctrl+e")
        await answer_path(pilot, app, app.editor.folder / "value.json")
        await wait_for(
            pilot, lambda: (app.editor.folder / "value.json").is_file(), message="export written"
        )
        assert json.loads((app.editor.folder / "value.json").read_text())["relationshipDeltas"] == {
            "mira": 40
        }
        # F1 shows the keys from the key table
        await pilot.press("f1")
        await wait_for(
            pilot,
            lambda: "Remove the selected key or item" in screen_text(app),
            message="help shown",
        )
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Remove the selected key or item" not in screen_text(app))
    read = read_journal(journal)
    kinds = [record["kind"] for record in read.records]
    assert read.header["mode"] == "contract" and read.header["config_title"] == game.title
    assert kinds == ["change"] * 4 + ["undo", "undo", "redo", "redo", "undo", "close"]
    assert read.records[1]["value"]["emotion"] == "sad" and read.records[1]["actor"] == "user"


async def test_a_typed_value_that_is_not_a_number_changes_nothing(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(pilot, app, game.sample_path("good").read_text())
        await select_node(pilot, app, "/debug/tokenCount")
        await pilot.press("enter")
        field = app.query_one("#edit-input", Input)
        await wait_for(pilot, lambda: field.has_focus)
        field.value = ""
        await pilot.press("x", "enter")
        await wait_for(
            pilot, lambda: "is not a number" in screen_text(app), message="warning shown"
        )
        assert app.editor.index == 1 and app.editor.value["debug"]["tokenCount"] == 412
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.query_one(ValueTree).has_focus)
        # a value the contract refuses is still taken, and the system says INVALID
        await select_node(pilot, app, "/choices/0/label")
        await pilot.press("enter")
        field = app.query_one("#edit-input", Input)
        await wait_for(pilot, lambda: field.has_focus)
        field.value = ""
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.editor.index == 2)
        assert [(e.code, e.path) for e in app.editor.result.errors] == [
            ("invalid_value", "/choices/0/label")
        ]


async def test_hostile_text_in_a_reply_renders_literally(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    value = {
        "narrative": " ".join(DANGEROUS),
        "emotion": "sad",
        "choices": [{"id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b", "label": "[b]x"}],
        "[/": 1,
        "[b]k": 2,
    }
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(pilot, app, json.dumps(value))
        text = screen_text(app)
        assert "[@click=app.quit]x[/]" in text and 'label: "[b]x"' in text and "[/ : 1" not in text
        assert "\x1b" not in text
        # editing the leaf under a hostile key shows the key literally in the edit bar's title
        await select_node(pilot, app, "/[b]k")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "edit-input")
        assert "Edit /[b]k (integer)" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.contract_screen.editing is None)


def test_controller_rules_without_textual(game, tmp_path) -> None:
    editor = ContractEditor(game)
    assert editor.edit_leaf("/narrative", "x") == (
        None,
        "no value yet: paste and apply a reply first",
    )
    result, problem = editor.apply_reply("no json here")
    assert problem is not None and editor.index == 0 and not result.ok
    editor.apply_reply(game.sample_path("repairable").read_text())
    assert editor.result.ok and editor.value["emotion"] == "surprised"
    _result, problem = editor.edit_leaf("/choices/0/id", "not-a-uuid")
    assert problem is None and [e.code for e in editor.result.errors] == ["invalid_value"]
    assert editor.undo() and editor.result.ok and editor.redo() and not editor.result.ok
    editor.undo()
    editor.set_value("/emotion", "happy")
    assert not editor.redo()  # a new change after an undo drops the undone one
    written, problem = editor.export(tmp_path / "value.json")
    assert problem is None and json.loads(written.read_text())["emotion"] == "happy"
    report, _ = editor.write_report(tmp_path / "report.md")
    assert "decision: **VALID**" in report.read_text() and "## Timeline" in report.read_text()


async def test_a_restarted_editor_resumes_the_session_with_its_history(game) -> None:
    app = ContractApp(game, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(pilot, app, game.sample_path("lying").read_text())
        await select_node(pilot, app, "/choices/1/hint")
        await pilot.press("delete")
        await wait_for(pilot, lambda: app.editor.index == 2)
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: app.editor.index == 1)
        folder = app.editor.folder
    again = ContractApp(game, blink=False)
    async with again.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: again.editor.folder == folder, message="same session")
        assert (again.editor.index, len(again.editor.steps)) == (1, 3)
        assert len(again.editor.result.errors) == 6 and "hint" in again.editor.value["choices"][1]
        await pilot.press("f3", "ctrl+y")
        await wait_for(pilot, lambda: again.editor.index == 2)
        assert "hint" not in again.editor.value["choices"][1]
        # a second editor on the same contract meanwhile gets a session of its own
        other = ContractApp(game, blink=False)
        async with other.run_test(size=(100, 30)) as other_pilot:
            await wait_for(other_pilot, lambda: other.editor.folder is not None)
            assert other.editor.folder != folder and other.editor.index == 0
    fresh = ContractApp(game, new=True, blink=False)
    async with fresh.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: fresh.editor.folder is not None)
        assert fresh.editor.folder != folder and fresh.editor.index == 0


def test_report_of_a_contract_session_on_the_command_line(game, tmp_path) -> None:
    import os
    import subprocess
    import sys

    from gate_tui.editing.contract_sessions import open_session

    editor = ContractEditor(game)
    assert open_session(editor, new=True) is None
    editor.apply_reply(game.sample_path("lying").read_text())
    editor.set_value("/emotion", "sad")
    editor.close()
    script = Path(sys.executable).with_name("gate-tui")
    done = subprocess.run(
        [str(script), "report", editor.folder.name],
        capture_output=True,
        text=True,
        timeout=60,
        env=os.environ.copy(),
    )
    assert done.returncode == 0, done.stderr
    assert "decision: **INVALID (5 errors)**" in done.stdout
    assert (
        "1. assistant: reply applied: INVALID (6 errors)" in done.stdout
        and "2. user: set /emotion ← current" in done.stdout
    )


async def test_multi_line_text_is_edited_whole(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    value = {
        "narrative": "line one\nline two",
        "emotion": "sad",
        "choices": [{"id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b", "label": "go"}],
    }
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(pilot, app, json.dumps(value))
        await select_node(pilot, app, "/narrative")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "edit-text")
        assert app.focused.text == "line one\nline two"  # type: ignore[union-attr]
        await pilot.press("end", "!", "ctrl+j")
        await wait_for(pilot, lambda: app.editor.index == 2)
        assert app.editor.value["narrative"] == "line one!\nline two" and app.editor.result.ok
        assert (
            app.query_one("#reply").text == ""
        )  # Ctrl+J set the leaf; it did not apply the reply pane
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "edit-text")
        await pilot.press("x", "escape")
        await wait_for(
            pilot,
            lambda: app.contract_screen.editing is None and app.query_one(ValueTree).has_focus,
        )
        assert app.editor.index == 2 and app.editor.value["narrative"] == "line one!\nline two"


def test_contract_rules_and_sessions_load_no_textual() -> None:
    import subprocess
    import sys

    code = (
        "import sys\nimport gate_tui.editing.contract_editor, "
        "gate_tui.editing.contract_sessions\nprint('textual' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.strip() == "False"


async def test_objects_and_lists_are_edited_as_json(game) -> None:
    app = ContractApp(game, journal=False, blink=False)
    value = {
        "narrative": "n",
        "emotion": "sad",
        "choices": [{"id": "3f2b8c1e-9d4a-4e7b-8a6f-1c2d3e4f5a6b", "label": "go"}],
    }
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(
            pilot, app, json.dumps({k: v for k, v in value.items() if k != "choices"})
        )
        assert [(e.code, e.path) for e in app.editor.result.errors] == [("missing_key", "/choices")]
        # Enter on the missing list opens a JSON editor
        await select_node(pilot, app, "/choices")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "edit-text")
        app.focused.text = "[{\"id\": \"x\", \"label\": \"go\"}"  # type: ignore[union-attr]
        await pilot.press("ctrl+j")
        await wait_for(
            pilot, lambda: "not valid JSON" in screen_text(app), message="JSON error shown"
        )
        assert app.editor.index == 1
        app.focused.text = json.dumps(value["choices"])  # type: ignore[union-attr]
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: app.editor.index == 2)
        assert app.editor.result.ok and app.editor.value["choices"] == value["choices"]
        # "e" on a branch: add an item to the list
        await select_node(pilot, app, "/choices")
        await pilot.press("e")
        await wait_for(pilot, lambda: app.focused is not None and app.focused.id == "edit-text")
        app.focused.text = json.dumps(value["choices"] * 11)  # type: ignore[union-attr]
        await pilot.press("ctrl+j")
        await wait_for(pilot, lambda: app.editor.index == 3)
        assert [(e.code, e.path) for e in app.editor.result.errors] == [
            ("invalid_value", "/choices")
        ]  # 11 > 10 items


async def test_quitting_asks_first_when_the_journal_could_not_be_written(
    game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate editor's quit question, shared: with no journal, Ctrl+Q would lose the changes."""
    from textual.widgets import Button

    from gate_tui.tui.screens.quit_prompt import QuitScreen

    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("GATE_TUI_STATE_DIR", str(blocker / "state"))  # cannot be created
    app = ContractApp(game, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(
            pilot,
            lambda: not app.editor.journaling and app.query_one("#reply").has_focus,
            message="the editor, journal-less",
        )
        await paste_and_apply(
            pilot,
            app,
            (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8"),
        )
        await pilot.press("ctrl+q")
        await wait_for(
            pilot, lambda: isinstance(app.screen, QuitScreen), message="the quit question"
        )
        await wait_for(
            pilot,
            lambda: "1 change made here not saved" in screen_text(app),
            message="the question drawn",
        )
        assert "Save as… writes the value as JSON" in screen_text(app)
        await pilot.press("ctrl+q")  # a second Ctrl+Q does not throw the work away
        assert app.is_running and isinstance(app.screen, QuitScreen)
        app.screen.query_one("#quit-anyway", Button).press()
        await wait_for(pilot, lambda: not app.is_running, message="quit anyway")
    assert app.return_code == 0


async def test_quitting_a_journaled_contract_session_asks_nothing(
    game, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_STATE_DIR", str(tmp_path / "state"))
    app = ContractApp(game, new=True, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.editor.journaling, message="the journal open")
        await paste_and_apply(
            pilot,
            app,
            (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8"),
        )
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, message="quit at once")


async def test_the_preview_names_the_allowed_values_as_check_does(game) -> None:
    """#18 item 8: one wording for an invalid value, in ``check`` and in the preview."""
    from gate_tui.cli.contract_check import describe_error
    from gate_tui.contracts.checking import check_contract

    reply = (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8")
    expected = next(
        describe_error(e)
        for e in check_contract(reply, game).errors
        if e.path == "/npcResponses/0/emotion"
    )
    assert 'expected one of "neutral", "happy"' in expected
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(160, 40)) as pilot:
        app.post_message(events.Paste(reply))
        await wait_for(pilot, lambda: "Preview:" in screen_text(app), message="preview shown")
        shown = str(app.query_one("#preview").content)
        assert (
            expected.split(": ", 1)[1].rsplit(" [", 1)[0] in shown
        )  # the message and what was expected, as check says


async def test_exporting_an_invalid_value_says_so_and_asks(game, tmp_path: Path) -> None:
    """#18 item 9: Ctrl+E on an INVALID value warns in the prompt (Enter exports anyway,
    Esc cancels); a valid value is exported without the warning."""
    app = ContractApp(game, journal=False, blink=False)
    target = tmp_path / "value.json"
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await paste_and_apply(
            pilot,
            app,
            (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8"),
        )
        assert app.editor.result is not None and not app.editor.result.ok
        await pilot.press("ctrl+e")
        await wait_for(
            pilot,
            lambda: "This value is INVALID (6 errors)" in screen_text(app),
            message="the warning in the prompt",
        )
        assert "Export the INVALID value JSON to" in screen_text(app)
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: app.focused is None or app.focused.id != "path-input",
            message="cancelled",
        )
        assert not target.exists()
        await pilot.press("ctrl+e")
        await answer_path(pilot, app, target)
        await wait_for(pilot, target.exists, message="exported anyway")
        await wait_for(
            pilot,
            lambda: "INVALID value written to" in screen_text(app),
            message="the toast says what was written",
        )
        await paste_and_apply(pilot, app, game.sample_path("good").read_text(encoding="utf-8"))
        assert app.editor.result is not None and app.editor.result.ok
        await pilot.press("ctrl+e")
        await wait_for(
            pilot,
            lambda: app.focused is not None and app.focused.id == "path-input",
            message="the prompt",
        )
        assert app.screen.title_text == "Export value JSON to" and not app.screen.query(
            "#path-warning"
        )


async def test_typing_letters_in_an_enum_list_jumps_as_in_the_gate_editor(
    game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#18 item 15: the same type-ahead as the gate editor's Classified menu."""
    from gate_tui.tui.widgets import type_ahead

    monkeypatch.setattr(
        type_ahead, "TYPE_AHEAD_SECONDS", 60.0
    )  # a slow machine must not reset the search
    app = ContractApp(game, journal=False, blink=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await paste_and_apply(
            pilot,
            app,
            (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8"),
        )
        await select_node(pilot, app, "/npcResponses/0/emotion")
        await pilot.press("enter")
        choices = app.query_one("#edit-choices", OptionList)
        await wait_for(pilot, lambda: choices.has_focus, message="the enum list")
        await pilot.press("s")
        await wait_for(pilot, lambda: choices.highlighted == 2, message='"s" finds "sad"')
        await pilot.press("u")
        await wait_for(pilot, lambda: choices.highlighted == 5, message='"su" finds "surprised"')
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: app.editor.value["npcResponses"][0]["emotion"] == "surprised",
            message="set",
        )
