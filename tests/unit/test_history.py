"""History: the timeline never loses an entry; undo/redo restore exactly the earlier state."""

from __future__ import annotations

import pytest

from gate_tui import GateConfig, parse
from gate_tui.session.history import History
from tests.conftest import reply


def edit(history: History, config: GateConfig, patch: dict):
    result = parse(patch, config, history.state, "user")
    assert result.ok, result.errors
    return history.accept(result, patch, "user")


def test_undo_and_redo_restore_states_and_decisions(ml_config: GateConfig) -> None:
    history = History.start(ml_config)
    reply_result = parse(reply("ml_lying_pass.md"), ml_config, history.state)
    history.accept(reply_result, "reply text", "assistant")
    after_reply = (history.state, history.decision)
    edit(history, ml_config, {"gates": {"2_use_case": {"raw": "Forecast demand"}}})
    assert history.decision.pass_ is True

    undo = history.undo()
    assert undo is not None and undo.kind == "undo" and undo.target == 0
    assert (history.state, history.decision) == after_reply
    assert [c["path"] for c in undo.diff.changes][0] == "gates.2_use_case.raw"

    redo = history.redo()
    assert redo is not None and history.decision.pass_ is True
    assert history.redo() is None
    assert [t.kind for t in history.timeline] == ["reply", "edit", "undo", "redo"]


def test_undo_to_the_initial_state_and_no_further(ml_config: GateConfig) -> None:
    history = History.start(ml_config)
    initial = history.state
    edit(history, ml_config, {"summary": "x"})
    assert history.undo() is not None
    assert history.state == initial and not history.can_undo
    assert history.undo() is None
    assert history.decision.next_gate == ml_config.gate_order[0]


def test_new_edit_after_undo_drops_the_redo_branch_but_keeps_the_timeline(
    ml_config: GateConfig,
) -> None:
    history = History.start(ml_config)
    edit(history, ml_config, {"summary": "one"})
    edit(history, ml_config, {"summary": "two"})
    history.undo()
    edit(history, ml_config, {"summary": "three"})
    assert not history.can_redo
    assert [t.state.summary for t in history.timeline] == ["one", "two", "one", "three"]
    history.undo()
    assert history.state.summary == "one"


def test_jump_to_an_earlier_point_is_a_new_transition(ml_config: GateConfig) -> None:
    history = History.start(ml_config)
    edit(history, ml_config, {"summary": "one"})
    edit(history, ml_config, {"summary": "two"})
    jump = history.jump_to(0)
    assert jump is not None and jump.kind == "jump" and jump.target == 0
    assert history.state.summary == "one" and len(history.timeline) == 3
    history.undo()
    assert history.state.summary == "two"
    assert history.jump_to(-1) is not None and history.state.summary == ""
    assert history.jump_to(99) is None


def test_only_ok_results_can_be_accepted(ml_config: GateConfig) -> None:
    history = History.start(ml_config)
    with pytest.raises(ValueError):
        history.accept(parse("no json here", ml_config), "no json here", "assistant")
