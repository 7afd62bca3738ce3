"""The one undo/redo journal (gate_tui.session.undo): on its own, and as both editors'
sessions use it (a gate session's History, the contract editor) — one class, one cursor."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate_tui import GateConfig
from gate_tui.contracts.loading import load_contract
from gate_tui.editing.contract_editor import ContractEditor
from gate_tui.editing.contract_sessions import open_session
from gate_tui.session.catalog import ContractHistory
from gate_tui.session.live import Session
from gate_tui.session.undo import START, UndoJournal
from tests.conftest import reply

CONTRACTS = Path(__file__).resolve().parents[2] / "sample_configs" / "contracts"


@pytest.fixture(scope="module")
def game():
    return load_contract(CONTRACTS / "llm_result_v1.yaml")


# --- the class on its own -------------------------------------------------------------


def test_undo_redo_move_the_cursor_and_a_push_drops_only_the_redo_branch() -> None:
    journal: UndoJournal[str] = UndoJournal()
    assert (journal.can_undo, journal.can_redo, journal.current) == (False, False, START)
    assert journal.undo() is None and journal.redo() is None
    journal.push("a")
    journal.push("b")
    assert journal.undo() == 0 and journal.current == 0
    assert journal.undo() == START and not journal.can_undo and journal.can_redo
    assert journal.redo() == 0
    journal.push("c")  # after an undo: "b" leaves the stack, never the entries
    assert journal.stacked == ["a", "c"] and journal.entries == ["a", "b", "c"]
    assert not journal.can_redo and journal.position == 2


def test_a_note_is_in_the_timeline_but_undo_never_steps_onto_it() -> None:
    journal: UndoJournal[str] = UndoJournal()
    journal.push("a")
    journal.note("undo-mark")
    assert journal.entries == ["a", "undo-mark"] and journal.current == 0
    assert journal.undo() == START and journal.redo() == 0


def test_jump_to_is_a_new_undoable_entry_built_before_it_is_pushed() -> None:
    journal: UndoJournal[str] = UndoJournal()
    journal.push("a")
    journal.push("b")
    seen: list[int] = []

    def make(index: int) -> str:
        seen.append(journal.current)  # the state before the jump
        return f"back to {index}"

    assert journal.jump_to(0, make) == "back to 0" and seen == [1]
    assert journal.current == 2 and journal.stacked == ["a", "b", "back to 0"]
    assert journal.undo() == 1  # the jump is undone like any change
    assert journal.jump_to(7, make) is None and journal.jump_to(-2, make) is None
    assert journal.jump_to(START, make) == "back to -1"


def test_seek_follows_a_replayed_position_and_ignores_one_off_the_stack() -> None:
    journal: UndoJournal[int] = UndoJournal()
    for value in (1, 2, 3):
        journal.push(value)
    assert journal.seek(1) and journal.current == 0
    assert not journal.seek(4) and not journal.seek(-1) and journal.current == 0
    assert journal.seek(0) and journal.current == START


# --- the gate editor's session --------------------------------------------------------


def test_the_gate_session_moves_through_the_one_journal(ml_config: GateConfig) -> None:
    from gate_tui import parse

    session = Session.in_memory(ml_config)
    assert isinstance(session.history.journal, UndoJournal)
    assert not session.can_undo and not session.can_redo
    result = parse(reply("ml_lying_pass.md"), ml_config, session.state)
    session.accept(result, "reply", "assistant")
    patch = {"gates": {"2_use_case": {"raw": "Forecast demand"}}}
    session.accept(parse(patch, ml_config, session.state, "user"), patch, "user")
    after_edit = session.state

    assert session.undo() is not None and session.can_redo
    assert session.history.journal.current == 0
    assert session.redo() is not None and session.state == after_edit
    jump = session.jump_to(0)
    assert jump is not None and jump.kind == "jump" and jump.target == 0
    assert session.history.journal.stacked[-1] is jump  # a jump is pushed: undoable
    assert session.undo() is not None and session.state == after_edit
    assert [t.kind for t in session.timeline] == ["reply", "edit", "undo", "redo", "jump", "undo"]


# --- the contract editor's session ----------------------------------------------------


def _value(game) -> dict:
    text = (CONTRACTS / "replies" / "llm_result_v1_lying.md").read_text(encoding="utf-8")
    editor = ContractEditor(game)
    result, problem = editor.apply_reply(text)
    assert problem is None and result.value is not None
    return result.value


def test_the_contract_editor_moves_through_the_one_journal(game) -> None:
    value = _value(game)
    editor = ContractEditor(game)
    assert isinstance(editor.history, UndoJournal)
    assert not editor.can_undo and not editor.undo() and not editor.redo()
    editor.apply_reply(json.dumps(value))
    editor.set_value("", {**value, "x": 1})
    second = editor.value
    assert editor.index == 2 and editor.can_undo and not editor.can_redo
    assert editor.undo() and editor.index == 1 and editor.value == value and editor.can_redo
    assert editor.redo() and editor.value == second
    moved, problem = editor.jump_to(0)
    assert moved and problem is None and editor.value == value and editor.index == 3
    assert editor.current.label == "restored change 1" and editor.current.actor == "user"
    assert editor.undo() and editor.value == second  # the jump is undoable
    assert editor.jump_to(START) == (False, None) and editor.jump_to(99) == (False, None)


def test_a_contract_jump_is_journaled_as_a_change_and_resumes(game, tmp_path: Path) -> None:
    value = _value(game)
    editor = ContractEditor(game)
    assert open_session(editor, root=tmp_path) is None
    editor.apply_reply(json.dumps(value))
    editor.set_value("", {**value, "x": 1})
    editor.undo()
    editor.jump_to(1)  # the undone change, back as a new one
    expected = (editor.index, [step.label for step in editor.steps], editor.value)
    editor.close()

    again = ContractEditor(game)
    notice = open_session(again, root=tmp_path)
    assert notice is not None and notice.startswith("resumed")
    assert (again.index, [step.label for step in again.steps], again.value) == expected
    again.close()


def test_the_session_list_follows_a_contract_journal_as_the_editor_does() -> None:
    follower = ContractHistory()
    for record in (
        {"kind": "change", "value": {}, "ok": True},
        {"kind": "change", "value": {}, "ok": False},
        {"kind": "undo", "index": 1},
        {"kind": "undo", "index": 9},  # off the stack: ignored, as the editor's replay does
    ):
        follower.take(record)
    assert follower.decision()[0] is True
    follower.take({"kind": "change", "value": {}, "ok": None})
    assert follower.decision()[0] is None and follower.oks.stacked == [True, None]
