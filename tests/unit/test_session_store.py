"""The state file: atomic rewrites, the format, --state FILE, foreign files, unwritable dirs."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from gate_tui.atomic import atomic_write_text
from gate_tui.config.loading import config_fingerprint
from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.opening import open_session
from gate_tui.session.store import read_state_file
from tests.conftest import CONFIGS, reply

ML = CONFIGS / "ml_project_intake.yaml"
VENDOR = CONFIGS / "vendor_security_review.yaml"


def _edit(session, config: GateConfig, key: str, raw: str):
    patch = {"gates": {key: {"raw": raw}}}
    return session.accept(parse(patch, config, session.state, actor="user"), patch, "user")


def _on_disk(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# --- atomic writes ------------------------------------------------------------------------


def test_atomic_write_replaces_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    assert atomic_write_text(target, "one") is None
    assert atomic_write_text(target, "two") is None
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_atomic_write_keeps_the_old_file_when_the_rename_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "s.json"
    target.write_text("old")

    def broken(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", broken)
    error = atomic_write_text(target, "new")
    assert error is not None and "Input/output error" in error
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_atomic_write_keeps_permissions(tmp_path: Path) -> None:
    target = tmp_path / "s.json"
    target.write_text("x")
    target.chmod(0o600)
    atomic_write_text(target, "y")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_atomic_write_into_missing_folder_is_an_error_value(tmp_path: Path) -> None:
    error = atomic_write_text(tmp_path / "no" / "such" / "s.json", "x")
    assert error is not None and "cannot write" in error


# --- the state file of a session -------------------------------------------------------


def test_state_file_always_holds_the_state_on_screen(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    assert session.state_file is not None
    assert _on_disk(session.state_file)["state"] == session.state.model_dump(mode="json")
    text = reply("ml_lying_pass.md")
    session.accept(parse(text, ml_config, session.state), text, "assistant")
    document = _on_disk(session.state_file)
    assert document["format"] == 1 and document["fingerprint"] == config_fingerprint(ml_config)
    assert document["config_path"] == str(ML.resolve())
    assert document["state"] == session.state.model_dump(mode="json")
    assert document["decision"] == {
        "pass": False,
        "reason": "required_missing",
        "next_gate": "2_use_case",
        "next_question": ml_config.gates["2_use_case"].question,
        "blocked_value": None,
    }
    _edit(session, ml_config, "2_use_case", "Forecast demand")
    assert _on_disk(session.state_file)["state"]["status"]["pass"] is True
    session.undo()
    assert _on_disk(session.state_file)["state"] == session.state.model_dump(mode="json")
    assert _on_disk(session.state_file)["state"]["status"]["pass"] is False


def test_save_rewrites_the_state_file_on_demand(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "Forecast demand")
    session.state_file.unlink()
    assert session.save() is None
    assert _on_disk(session.state_file)["state"] == session.state.model_dump(mode="json")


def test_save_as_export_and_clipboard_text(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "Forecast demand")
    assert session.save(tmp_path / "copy.json") is None
    assert _on_disk(tmp_path / "copy.json")["state"] == session.state.model_dump(mode="json")
    assert session.export_state_json(tmp_path / "state.json") is None
    exported = _on_disk(tmp_path / "state.json")
    assert set(exported) == {"summary", "gates", "status"} and "pass" in exported["status"]
    assert json.loads(session.state_json()) == exported
    assert [r["what"] for r in session.records if r["kind"] == "export"] == [
        "state file",
        "state JSON",
    ]
    assert session.save(tmp_path / "missing" / "x.json") is not None


def test_open_state_applies_a_file_as_a_user_transition(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    source = open_session(ml_config, ML, root=tmp_path / "a")
    text = reply("ml_good.md")
    source.accept(parse(text, ml_config, source.state), text, "assistant")
    source.export_state_json(tmp_path / "good.json")
    session = open_session(ml_config, ML, root=tmp_path / "b")
    _edit(session, ml_config, "5_stakeholder", "Ops lead")
    assert session.open_state(tmp_path / "good.json") is None
    assert session.state == source.state and session.decision.pass_ is True
    last = session.timeline[-1]
    assert last.kind == "edit" and last.actor == "user"
    assert session.records[-1]["origin"].startswith("opened state file")
    assert session.undo() is not None and session.state.gates["5_stakeholder"].raw == "Ops lead"


def test_open_state_lets_the_system_decide(ml_config: GateConfig, tmp_path: Path) -> None:
    lying = {
        "summary": "s",
        "gates": {"1_data_availability": {"raw": "x", "classified": "available"}},
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }
    (tmp_path / "lying.json").write_text(json.dumps(lying))
    session = open_session(ml_config, ML, root=tmp_path)
    assert session.open_state(tmp_path / "lying.json") is None
    assert session.decision.pass_ is False and session.state.status.pass_ is False


def test_open_state_refuses_invalid_and_foreign_files(
    ml_config: GateConfig, vendor_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    bad = {"summary": "s", "gates": {"1_data_availability": {"raw": "x", "classified": "maybe"}}}
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    error = session.open_state(tmp_path / "bad.json")
    assert error is not None and "1_data_availability" in error
    assert session.timeline == [] and session.rejected[-1]["origin"].startswith("opened state file")
    other = open_session(vendor_config, VENDOR, root=tmp_path / "v")
    other.save(tmp_path / "vendor.json")
    error = session.open_state(tmp_path / "vendor.json")
    assert error is not None and "different config" in error and session.timeline == []
    (tmp_path / "junk.json").write_text("{not json")
    assert "not valid JSON" in (session.open_state(tmp_path / "junk.json") or "")
    assert "does not exist" in (session.open_state(tmp_path / "nope.json") or "")


def test_read_state_file_accepts_format_1_and_bare_states(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(
        json.dumps({"format": 1, "fingerprint": "f", "state": {"gates": {}}})
    )
    (tmp_path / "b.json").write_text(json.dumps({"summary": "", "gates": {}}))
    (tmp_path / "c.json").write_text(json.dumps({"format": 9, "state": {}}))
    (tmp_path / "d.json").write_text("[1]")
    assert read_state_file(tmp_path / "a.json").fingerprint == "f"
    assert read_state_file(tmp_path / "b.json").state == {"summary": "", "gates": {}}
    assert "format 9" in (read_state_file(tmp_path / "c.json").error or "")
    assert read_state_file(tmp_path / "d.json").error is not None


# --- --state FILE ------------------------------------------------------------------------


def test_state_flag_creates_file_journal_and_lock_beside_it(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    session = open_session(ml_config, ML, state_file=file)
    assert session.persistent and session.directory is None
    _edit(session, ml_config, "2_use_case", "Forecast demand")
    assert _on_disk(file)["state"] == session.state.model_dump(mode="json")
    assert (tmp_path / "review.json.journal.jsonl").is_file() and (
        tmp_path / "review.json.lock"
    ).exists()
    session.close()
    again = open_session(ml_config, ML, state_file=file)
    assert again.state == session.state and len(again.timeline) == 1


def test_state_flag_starts_from_an_existing_state_without_journal(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "hand.json"
    file.write_text(
        json.dumps(
            {
                "summary": " hand written ",
                "gates": {"2_use_case": {"raw": "Forecast"}},
                "status": {"pass": True},
            }
        )
    )
    session = open_session(ml_config, ML, state_file=file)
    assert session.persistent
    assert (
        session.state.summary == "hand written"
        and session.state.gates["2_use_case"].raw == "Forecast"
    )
    assert session.decision.pass_ is False  # the system decides, not the file
    assert len(session.timeline) == 1 and session.records[0]["origin"].startswith("state file")
    assert _on_disk(file)["format"] == 1


def test_state_flag_refuses_a_foreign_state_file_and_leaves_it_alone(
    vendor_config: GateConfig, ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "vendor.json"
    open_session(vendor_config, VENDOR, state_file=file).close()
    before = file.read_bytes()
    os.remove(tmp_path / "vendor.json.journal.jsonl")
    session = open_session(ml_config, ML, state_file=file)
    assert not session.persistent and session.persistence_warning is not None
    assert "different config" in session.persistence_warning
    _edit(session, ml_config, "2_use_case", "Forecast")
    assert file.read_bytes() == before


def test_state_flag_refuses_a_foreign_journal(
    vendor_config: GateConfig, ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    with open_session(vendor_config, VENDOR, state_file=file) as first:
        first.accept(
            parse(reply("vendor_good.md"), vendor_config, first.state),
            reply("vendor_good.md"),
            "assistant",
        )
    journal = (tmp_path / "review.json.journal.jsonl").read_bytes()
    session = open_session(ml_config, ML, state_file=file)
    assert not session.persistent and "different config" in (session.persistence_warning or "")
    assert session.timeline == []
    _edit(session, ml_config, "2_use_case", "Forecast")
    assert (tmp_path / "review.json.journal.jsonl").read_bytes() == journal


def test_state_flag_with_new_keeps_the_old_files_as_backups(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    with open_session(ml_config, ML, state_file=file) as first:
        _edit(first, ml_config, "2_use_case", "Forecast")
    fresh = open_session(ml_config, ML, state_file=file, new=True)
    assert fresh.persistent and fresh.timeline == []
    backups = sorted(p.name for p in tmp_path.glob("*.bak"))
    assert len(backups) == 2 and any(n.startswith("review.json.journal.jsonl.") for n in backups)
    assert any("kept as" in n for n in fresh.notices)


# --- unwritable state directory ----------------------------------------------------------


def test_unwritable_state_directory_keeps_the_editor_working(
    ml_config: GateConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def denied(path: object, mode: int = 0o777) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "mkdir", denied)
    session = open_session(ml_config, ML, root=tmp_path / "state")
    assert not session.persistent and session.directory is None
    assert session.persistence_warning is not None
    assert (
        "Permission denied" in session.persistence_warning
        and "in memory" in session.persistence_warning
    )
    assert session.notices == [session.persistence_warning]
    _edit(session, ml_config, "2_use_case", "Forecast")
    assert session.undo() is not None and session.redo() is not None
    assert session.save() is not None  # ctrl+s explains there is no file
    monkeypatch.undo()
    assert session.save(tmp_path / "rescue.json") is None  # Save state as… still rescues the work


def test_state_directory_that_cannot_exist_for_real(ml_config: GateConfig, tmp_path: Path) -> None:
    """A real failure, no monkeypatching (root ignores permission bits, so a file stands
    where the state directory's parent should be)."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    session = open_session(ml_config, ML, root=blocker / "state")
    assert not session.persistent and session.directory is None
    assert session.persistence_warning is not None and "in memory" in session.persistence_warning
    _edit(session, ml_config, "2_use_case", "Forecast")
    assert session.state.gates["2_use_case"].raw == "Forecast"


def test_failing_state_file_write_is_reported_once(
    ml_config: GateConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)

    def broken(src: str, dst: str) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "replace", broken)
    _edit(session, ml_config, "2_use_case", "A")
    _edit(session, ml_config, "2_use_case", "B")
    assert sum("Input/output error" in n for n in session.notices) == 1
    assert session.save() is not None
    monkeypatch.undo()
    assert session.save() is None
    reopened = open_session(ml_config, ML, directory=session.directory, read_only=True)
    assert len(reopened.timeline) == 2  # the journal had everything all along


def test_state_file_edited_by_hand_is_kept_aside_on_resume(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    with open_session(ml_config, ML, state_file=file) as session:
        _edit(session, ml_config, "2_use_case", "Forecast")
    document = _on_disk(file)
    document["state"]["gates"]["2_use_case"]["raw"] = "edited in vim"
    file.write_text(json.dumps(document))
    again = open_session(ml_config, ML, state_file=file)
    assert again.state.gates["2_use_case"].raw == "Forecast"  # the journal wins ...
    backups = list(tmp_path.glob("review.json.*.bak"))
    assert (
        len(backups) == 1 and "edited in vim" in backups[0].read_text()
    )  # ... and nothing is lost
    assert any("Open state" in n for n in again.notices)
    assert (
        again.open_state(backups[0]) is None
        and again.state.gates["2_use_case"].raw == "edited in vim"
    )


def test_stale_state_file_after_a_crash_is_simply_rewritten(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    session = open_session(ml_config, ML, state_file=file)
    _edit(session, ml_config, "2_use_case", "A")
    stale = file.read_bytes()
    _edit(session, ml_config, "2_use_case", "B")
    session._writer.close()
    session._lock.release()
    file.write_bytes(stale)  # as if killed between the journal fsync and the rename
    again = open_session(ml_config, ML, state_file=file)
    assert (
        again.state.gates["2_use_case"].raw == "B"
        and _on_disk(file)["state"]["gates"]["2_use_case"]["raw"] == "B"
    )
    assert not list(tmp_path.glob("*.bak")) and again.notices == []


def test_symlinked_state_file_stays_a_symlink(ml_config: GateConfig, tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    atomic_write_text(real, "{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write_text(link, '{"x": 1}')
    assert link.is_symlink() and json.loads(real.read_text()) == {"x": 1}


def test_state_flag_with_a_missing_folder_or_a_folder_is_refused_clearly(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    missing = open_session(ml_config, ML, state_file=tmp_path / "no" / "x.json")
    assert not missing.persistent and missing.notices == [missing.persistence_warning]
    assert "does not exist" in (missing.persistence_warning or "")
    folder = open_session(ml_config, ML, state_file=tmp_path)
    assert not folder.persistent and "is a folder" in (folder.persistence_warning or "")
