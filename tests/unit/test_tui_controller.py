"""The editor's edit rules (:mod:`gate_tui.tui.controller`), driven without a terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gate_tui.models import GateConfig
from gate_tui.session.live import Session
from gate_tui.tui.controller import EditController
from gate_tui.tui.form import SUMMARY, FieldRef

ROOT = Path(__file__).resolve().parents[2]
REPLIES = ROOT / "sample_configs" / "replies"


def controller(config: GateConfig) -> EditController:
    return EditController(config, Session.in_memory(config))


def test_an_edit_is_pending_until_committed_then_one_transition(ml_config: GateConfig) -> None:
    edits = controller(ml_config)
    field = FieldRef("raw", "2_use_case")
    edits.edit(field, "Rank")
    committed, pending = edits.edit(field, "Rank tickets")
    assert committed.kind == "none" and pending.result.ok
    assert edits.session.timeline == [] or len(edits.session.timeline) == 0
    commit = edits.commit()
    assert commit.kind == "accepted" and commit.field == field
    assert edits.session.state.gates["2_use_case"].raw == "Rank tickets"
    assert edits.pending is None and edits.commit().kind == "none"


def test_an_edit_of_another_field_commits_the_pending_one_to_its_own_gate(
    ml_config: GateConfig,
) -> None:
    edits = controller(ml_config)
    edits.edit(FieldRef("raw", "2_use_case"), "Rank tickets")
    committed, _ = edits.edit(FieldRef("raw", "3_success_metric"), "Median time")
    assert committed.kind == "accepted" and committed.field == FieldRef("raw", "2_use_case")
    edits.commit()
    gates = edits.session.state.gates
    assert (
        gates["2_use_case"].raw == "Rank tickets" and gates["3_success_metric"].raw == "Median time"
    )


def test_a_failing_edit_is_rejected_and_changes_nothing(ml_config: GateConfig) -> None:
    edits = controller(ml_config)
    before = edits.session.state
    edits.edit(SUMMARY, "x" * 500)
    commit = edits.commit()
    assert commit.kind == "rejected" and commit.result is not None and not commit.result.ok
    assert edits.session.state == before and edits.session.rejected


def test_an_edit_back_to_the_same_value_records_nothing(ml_config: GateConfig) -> None:
    edits = controller(ml_config)
    edits.edit(SUMMARY, "")
    assert edits.commit().kind == "unchanged"
    assert len(edits.session.timeline) == 0


def test_reply_preview_apply_and_rejection(ml_config: GateConfig) -> None:
    edits = controller(ml_config)
    assert edits.preview("   ") is None
    lying = (REPLIES / "ml_lying_pass.md").read_text(encoding="utf-8")
    preview = edits.preview(lying)
    assert preview is not None and preview.ok and not edits.session.timeline
    outcome = edits.apply_reply(lying)
    assert outcome.kind == "accepted" and outcome.transition is not None
    assert edits.session.decision.pass_ is False
    garbage = (REPLIES / "ml_garbage.md").read_text(encoding="utf-8")
    state = edits.session.state
    rejected = edits.apply_reply(garbage)
    assert rejected.kind == "rejected" and edits.session.state == state
    assert edits.apply_reply("").kind == "empty"


def test_undo_commits_the_pending_edit_first_then_takes_it_back(ml_config: GateConfig) -> None:
    edits = controller(ml_config)
    edits.edit(FieldRef("raw", "2_use_case"), "Rank tickets")
    assert edits.can_undo
    assert edits.undo() is not None
    assert edits.session.state.gates["2_use_case"].raw is None
    assert edits.can_redo and edits.redo() is not None
    assert edits.session.state.gates["2_use_case"].raw == "Rank tickets"


def test_override_goes_through_the_parser(ml_config: GateConfig) -> None:
    # The ML intake forbids overrides: the parser ignores the status patch (with a warning).
    edits = controller(ml_config)
    outcome = edits.override("pass")
    assert outcome.result is not None and outcome.result.warnings
    assert edits.session.decision.pass_ is False


def test_override_allowed_by_policy_sets_the_decision() -> None:
    from gate_tui import load_config

    edits = controller(load_config(ROOT / "sample_configs" / "release_go_no_go.yaml"))
    outcome = edits.override("pass")
    assert outcome.kind == "accepted" and edits.session.decision.pass_ is True


def test_the_controller_imports_no_textual_and_no_pydantic() -> None:
    code = (
        "import sys\nimport gate_tui.tui.controller\nprint('textual' in sys.modules, "
        "'pydantic' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert out.stdout.split() == ["False", "False"]
