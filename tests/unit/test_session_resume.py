"""Resume: a reopened session has the same timeline, undo position, state and decision."""

from __future__ import annotations

import json
import time
from pathlib import Path

from gate_tui.config.loading import load_config
from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.catalog import find_resumable, list_sessions
from gate_tui.session.history import Transition
from gate_tui.session.journal import encode_record
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.session.paths import sessions_dir
from tests.conftest import CONFIGS, reply
from tests.helpers.session_steps import run_steps

ML = CONFIGS / "ml_project_intake.yaml"
VENDOR = CONFIGS / "vendor_security_review.yaml"


def _edit(session: Session, config: GateConfig, key: str, raw: str | None) -> Transition:
    patch = {"gates": {key: {"raw": raw}}}
    return session.accept(parse(patch, config, session.state, actor="user"), patch, "user")


def _crash(session: Session) -> None:
    """Leave the session as a killed process would: no close record, lock gone."""
    if session._writer is not None:
        session._writer.close()
        session._writer = None
    if session._lock is not None:
        session._lock.release()
        session._lock = None


def _same_history(first: Session, second: Session) -> None:
    assert second.timeline == first.timeline
    assert second.state == first.state and second.decision == first.decision
    assert (second.can_undo, second.can_redo) == (first.can_undo, first.can_redo)
    assert (
        second.history.journal.stack == first.history.journal.stack
        and second.history.journal.position == first.history.journal.position
    )


def test_resumed_session_equals_the_original(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    run_steps(session, ml_config, seed=7, count=60)
    _crash(session)
    again = open_session(ml_config, ML, root=tmp_path)
    assert again.directory == session.directory and again.notices == []
    _same_history(session, again)
    assert [r for r in again.records if r["kind"] == "rejected"] == session.rejected


def test_undo_position_survives_a_restart(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    _edit(session, ml_config, "2_use_case", "B")
    _edit(session, ml_config, "2_use_case", "C")
    session.undo()
    session.undo()
    _crash(session)
    again = open_session(ml_config, ML, root=tmp_path)
    assert again.state.gates["2_use_case"].raw == "A" and again.can_redo
    assert again.redo().state.gates["2_use_case"].raw == "B"
    assert [t.kind for t in again.timeline] == ["edit", "edit", "edit", "undo", "undo", "redo"]


def test_undo_restores_exactly_the_earlier_state_and_decision(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    text = reply("ml_good.md")
    session.accept(parse(text, ml_config, session.state), text, "assistant")
    state, decision = session.state, session.decision
    _edit(session, ml_config, "2_use_case", None)
    assert session.decision.pass_ is False
    session.undo()
    assert session.state == state and session.decision == decision and decision.pass_ is True


def test_jump_adds_a_transition_and_erases_nothing(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    for value in ("A", "B", "C"):
        _edit(session, ml_config, "2_use_case", value)
    jump = session.jump_to(0)
    assert (
        jump is not None and jump.kind == "jump" and jump.target == 0 and len(session.timeline) == 4
    )
    assert session.state == session.timeline[0].state
    start = session.jump_to(-1)
    assert start is not None and session.state.gates["2_use_case"].raw is None
    assert session.jump_to(99) is None
    _crash(session)
    _same_history(session, open_session(ml_config, ML, root=tmp_path))


def test_session_folder_name_and_files(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    assert session.directory is not None and session.directory.parent == sessions_dir(tmp_path)
    assert session.name.startswith("ml_project_intake-") and len(session.name) == len(
        "ml_project_intake-20240101-120000"
    )
    assert sorted(p.name for p in session.directory.iterdir()) == [
        "journal.jsonl",
        "lock",
        "state.json",
    ]
    twin = open_session(ml_config, ML, root=tmp_path, new=True)
    assert twin.directory != session.directory


def test_env_var_chooses_the_state_directory(
    ml_config: GateConfig, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("GATE_TUI_STATE_DIR", str(tmp_path / "elsewhere"))
    session = open_session(ml_config, ML)
    assert (
        session.directory is not None
        and session.directory.parent == tmp_path / "elsewhere" / "sessions"
    )


def test_empty_session_leaves_nothing_behind(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    session.close()
    assert list(sessions_dir(tmp_path).iterdir()) == []
    session.close()  # idempotent


def test_which_sessions_are_offered_for_resume(ml_config: GateConfig, tmp_path: Path) -> None:
    text = reply("ml_good.md")
    assert find_resumable(ml_config, ML, tmp_path) is None
    finished = open_session(ml_config, ML, root=tmp_path, new=True)
    finished.accept(parse(text, ml_config, finished.state), text, "assistant")
    finished.close()  # PASS and closed cleanly: finished
    assert find_resumable(ml_config, ML, tmp_path) is None
    crashed = open_session(ml_config, ML, root=tmp_path, new=True)
    crashed.accept(parse(text, ml_config, crashed.state), text, "assistant")
    _crash(crashed)  # PASS but never closed: unfinished
    assert find_resumable(ml_config, ML, tmp_path).directory == crashed.directory
    time.sleep(1.01)  # a newer start time
    pending = open_session(ml_config, ML, root=tmp_path, new=True)
    _edit(pending, ml_config, "2_use_case", "A")
    pending.close()  # closed cleanly but NO PASS: unfinished, and the newest
    assert find_resumable(ml_config, ML, tmp_path).directory == pending.directory
    statuses = {info.name: info.status for info in list_sessions(tmp_path)}
    assert statuses == {finished.name: "finished", crashed.name: "open", pending.name: "open"}


def test_other_configs_and_foreign_fingerprints_are_not_offered(
    ml_config: GateConfig, vendor_config: GateConfig, tmp_path: Path
) -> None:
    other = open_session(vendor_config, VENDOR, root=tmp_path)
    other.accept(
        parse(reply("vendor_good.md"), vendor_config, other.state),
        reply("vendor_good.md"),
        "assistant",
    )
    other.close()
    assert find_resumable(ml_config, ML, tmp_path) is None
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    session.close()
    changed = ml_config.model_copy(update={"description": "edited since"})
    assert find_resumable(changed, ML, tmp_path) is None  # same file, new fingerprint
    listed = {info.name: info for info in list_sessions(tmp_path, ML, changed)}
    assert listed[session.name].status == "foreign"
    fresh = open_session(changed, ML, root=tmp_path)
    assert fresh.directory != session.directory and fresh.timeline == []


def test_explicitly_opening_a_foreign_session_is_refused(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    session.close()
    journal = session.journal_path.read_bytes()
    changed = ml_config.model_copy(update={"description": "edited since"})
    refused = open_session(changed, ML, root=tmp_path, directory=session.directory)
    assert refused.directory != session.directory and refused.timeline == []
    assert any("different config" in n and "started a new session" in n for n in refused.notices)
    assert session.journal_path.read_bytes() == journal


def test_resume_false_and_new_start_fresh(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    session.close()
    assert open_session(ml_config, ML, root=tmp_path, resume=False).timeline == []
    assert open_session(ml_config, ML, root=tmp_path, new=True).timeline == []
    assert len(open_session(ml_config, ML, root=tmp_path).timeline) == 1


def test_open_and_close_are_journaled(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    session.close()
    again = open_session(ml_config, ML, root=tmp_path)
    again.close()
    kinds = [json.loads(line)["kind"] for line in session.journal_path.read_text().splitlines()]
    assert kinds == ["header", "edit", "close", "open", "close"]


def test_damaged_middle_record_is_reported_not_fatal(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    for value in ("A", "B", "C"):
        _edit(session, ml_config, "2_use_case", value)
    session.undo()
    _crash(session)
    lines = session.journal_path.read_bytes().splitlines(keepends=True)
    lines[2] = b"#garbage#\n"  # the second edit
    session.journal_path.write_bytes(b"".join(lines))
    again = open_session(ml_config, ML, root=tmp_path)
    assert any("line 3 is damaged" in n for n in again.notices)
    # Never replayed past the gap (the undo after it would undo a lost edit): the state
    # before it is shown, and the whole journal is kept aside
    # (tests/functional/test_session_hostile_files.py).
    assert any(
        "replayed only up to it; the 2 records after it were not replayed" in n
        for n in again.notices
    )
    assert len(again.timeline) == 1 and again.state.gates["2_use_case"].raw == "A"


def test_ten_thousand_line_journal_opens_fast(ml_config: GateConfig, tmp_path: Path) -> None:
    seed = open_session(ml_config, ML, root=tmp_path)
    run_steps(seed, ml_config, seed=3, count=40)
    _crash(seed)
    records = [r for r in seed.records if r["kind"] in ("edit", "reply")]
    header = json.loads(seed.journal_path.read_text().splitlines()[0])
    lines = [encode_record(header)]
    for seq in range(1, 10_001):
        record = dict(records[seq % len(records)], seq=seq)
        lines.append(encode_record(record))
    seed.journal_path.write_bytes(b"".join(lines))
    started = time.perf_counter()
    big = open_session(ml_config, ML, directory=seed.directory, read_only=True)
    elapsed = time.perf_counter() - started
    assert len(big.timeline) == 10_000
    assert elapsed < 1.5, f"opening took {elapsed:.2f}s"  # ~0.5 s here; slack for a busy CI machine


def test_config_file_moved_is_still_the_same_path_only_when_resolved(
    ml_config: GateConfig, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.chdir(CONFIGS)
    relative = Path("ml_project_intake.yaml")
    session = open_session(load_config(relative), relative, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "A")
    session.close()
    assert find_resumable(ml_config, ML, tmp_path).directory == session.directory
