"""Contract mode as the gate editor: sessions listed with their changes and VALID / INVALID,
the command palette, file commands through the shared path prompt, key hints from one keymap."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from gate_tui.contracts.loading import load_contract
from gate_tui.session.catalog import list_sessions
from gate_tui.session.commands import sessions_command
from gate_tui.tui.contract.controller import ContractEditor
from gate_tui.tui.contract.sessions import open_session

ROOT = Path(__file__).resolve().parent.parent
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
    assert (info.transitions, info.decision, info.status) == (2, "VALID", "locked")  # the editor holds it
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
