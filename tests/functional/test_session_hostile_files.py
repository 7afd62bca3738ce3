"""Full disks and handed-over files: what a session guarantees (README, "Sessions").

* a journal write that fails part-way (ENOSPC, EIO, a file-size limit) leaves no half
  line: the journal is cut back, the session drops to memory and says so, and "Save
  state as…" still rescues the work elsewhere (monkeypatched write, and a real
  ``RLIMIT_FSIZE`` in a subprocess);
* a damaged line in the middle of a journal: the editor replays up to it, never past it,
  says so, and keeps the whole journal aside before appending;
* a state file that is garbage, a directory, a FIFO, or a symlink leading outside the
  session's folder: a clear message, no hang, nothing outside written;
* a lone surrogate in a value: accept, journal, state file, report and reopen never raise.
"""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from gate_tui.models import GateConfig, GateState
from gate_tui.parsing.pipeline import empty_state, parse
from gate_tui.session.commands import report_command
from gate_tui.session.journal import read_journal
from gate_tui.session.live import Session
from gate_tui.session.opening import open_session
from gate_tui.session.paths import folder_paths
from gate_tui.session.replay import replay
from tests.conftest import CONFIGS, ROOT

ML = CONFIGS / "ml_project_intake.yaml"


def _edit(session: Session, config: GateConfig, key: str, raw: str) -> None:
    patch = {"gates": {key: {"raw": raw}}}
    result = parse(patch, config, session.state, actor="user")
    assert result.ok, result.errors
    session.accept(result, patch, "user")


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EIO])
def test_a_write_failing_part_way_leaves_no_half_line(
    ml_config: GateConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "Route tickets")
    journal = session.journal_path
    assert journal is not None
    before = journal.read_bytes()
    real_write = os.write

    def half_then_fail(fd: int, data: bytes) -> int:
        if len(data) > 1 and os.fstat(fd).st_ino == os.stat(journal).st_ino:
            real_write(fd, bytes(data[: len(data) // 2]))  # half the line reaches the disk
            monkeypatch.setattr(
                os, "write", lambda *_: (_ for _ in ()).throw(OSError(code, os.strerror(code)))
            )
            return len(data) // 2
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", half_then_fail)
    _edit(session, ml_config, "3_success_metric", "Faster replies")
    monkeypatch.undo()
    assert not session.persistent and os.strerror(code) in (session.persistence_warning or "")
    assert journal.read_bytes() == before, "cut back to the last whole line"
    read = read_journal(journal)
    assert read.notices == [] and read.torn == b"" and read.gap is None
    rescue = tmp_path / "elsewhere" / "rescued.json"
    rescue.parent.mkdir()
    assert session.save(rescue) is None
    assert (
        json.loads(rescue.read_text())["state"]["gates"]["3_success_metric"]["raw"]
        == "Faster replies"
    )
    session.close()
    again = open_session(ml_config, ML, directory=session.directory)
    assert (
        again.state.gates["2_use_case"].raw == "Route tickets"
        and again.state.gates["3_success_metric"].raw is None
    )
    assert again.notices == []
    again.close()


FSIZE_SCRIPT = textwrap.dedent(
    """
    import json, resource, sys
    from pathlib import Path
    from gate_tui.config.loading import load_config
    from gate_tui.parsing.pipeline import parse
    from gate_tui.session.opening import open_session
    config_path, root = Path(sys.argv[1]), Path(sys.argv[2])
    config = load_config(config_path)
    session = open_session(config, config_path, root=root)
    limit = session.journal_path.stat().st_size + 20_000
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    saved = []
    for i in range(200):
        patch = {"gates": {"2_use_case": {"raw": f"answer {i} " + "x" * 500}}}
        session.accept(parse(patch, config, session.state, actor="user"), patch, "user")
        if not session.persistent:
            break
        saved.append(patch["gates"]["2_use_case"]["raw"])
    print(json.dumps(
        {"dir": str(session.directory), "saved": saved, "warning": session.persistence_warning}
    ))
    """
)


def test_a_real_file_size_limit_mid_session(ml_config: GateConfig, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", FSIZE_SCRIPT, str(ML), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert (
        out["warning"] and "File too large" in out["warning"] and "Save state as" in out["warning"]
    )
    assert 5 < len(out["saved"]) < 200
    journal = folder_paths(Path(out["dir"])).journal
    read = read_journal(journal)
    assert read.notices == [] and read.torn == b"", "no half line left behind"
    again = open_session(ml_config, ML, directory=Path(out["dir"]), read_only=True)
    assert again.state.gates["2_use_case"].raw == out["saved"][-1], (
        "every acknowledged transition, and no other"
    )
    assert len(again.timeline) == len(out["saved"])


def _three_edits(ml_config: GateConfig, root: Path) -> Path:
    session = open_session(ml_config, ML, root=root)
    for key, raw in (
        ("2_use_case", "one"),
        ("3_success_metric", "two"),
        ("5_stakeholder", "three"),
    ):
        _edit(session, ml_config, key, raw)
    session.close()
    assert session.directory is not None
    return session.directory


def _damage_line(journal: Path, kind: str, nth: int = 0) -> int:
    lines = journal.read_bytes().split(b"\n")
    hits = [i for i, line in enumerate(lines) if line and json.loads(line).get("kind") == kind]
    index = hits[nth]
    lines[index] = lines[index][: len(lines[index]) // 2] + b"\x00garbage"
    journal.write_bytes(b"\n".join(lines))
    return index + 1


def test_a_damaged_middle_line_stops_replay_and_keeps_the_journal_aside(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    folder = _three_edits(ml_config, tmp_path)
    journal = folder_paths(folder).journal
    line = _damage_line(journal, "edit", 1)
    original = journal.read_bytes()
    looked = open_session(ml_config, ML, directory=folder, read_only=True)
    assert journal.read_bytes() == original, "a read-only look writes nothing"
    assert (
        looked.state.gates["2_use_case"].raw == "one"
        and looked.state.gates["3_success_metric"].raw is None
    )
    assert any(
        f"line {line} is damaged, so the session was replayed only up to it" in n
        for n in looked.notices
    )
    session = open_session(ml_config, ML, directory=folder)
    assert session.persistent and session.state.gates["5_stakeholder"].raw is None, (
        "never replayed past the gap"
    )
    notice = next(n for n in session.notices if "replayed only up to it" in n)
    assert "2 records after it were not replayed" in notice and "kept as" in notice
    backups = list(folder.glob("journal.*-gap.journal.jsonl"))
    assert len(backups) == 1 and backups[0].read_bytes() == original
    _edit(session, ml_config, "4_data_privacy", "four")
    session.close()
    again = open_session(ml_config, ML, directory=folder, read_only=True)
    assert again.notices == [] and again.state.gates["4_data_privacy"].raw == "four"
    out = io.StringIO()
    assert report_command(str(backups[0]), None, out=out) == 0
    assert f"line {line} is damaged and was skipped" in out.getvalue() and "three" in out.getvalue()


def test_garbage_directory_and_fifo_state_files_never_hang(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    garbage = tmp_path / "garbage.json"
    garbage.write_bytes(b"\x00\xffnot json")
    folder = tmp_path / "folder.json"
    folder.mkdir()
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    results: dict[str, Session] = {}

    def open_all() -> None:
        for file in (garbage, folder, fifo):
            results[file.name] = open_session(ml_config, ML, state_file=file)

    worker = threading.Thread(target=open_all, daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "opening a FIFO as a state file blocked"
    assert "not UTF-8" in (results["garbage.json"].persistence_warning or "")
    assert garbage.read_bytes() == b"\x00\xffnot json", "left as it is"
    assert "is a folder" in (results["folder.json"].persistence_warning or "")
    assert "not a regular file" in (results["fifo.json"].persistence_warning or "")
    for session in results.values():
        assert not session.persistent
        session.close()


def test_a_state_file_linked_outside_its_folder_is_never_written(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    folder = _three_edits(ml_config, tmp_path)
    paths = folder_paths(folder)
    outside = tmp_path / "outside" / "precious.json"
    outside.parent.mkdir()
    paths.state.rename(outside)  # the very state the journal has, so it is not set aside as an edit
    paths.state.symlink_to(outside)
    precious = outside.read_bytes()
    session = open_session(ml_config, ML, directory=folder)
    _edit(session, ml_config, "4_data_privacy", "four")
    session.close()
    assert outside.read_bytes() == precious and paths.state.is_symlink()
    assert any("symbolic link" in notice and "outside" in notice for notice in session.notices)
    assert (
        read_journal(paths.journal).records[-2]["state"]["gates"]["4_data_privacy"]["raw"] == "four"
    ), "the journal has it"


def test_a_journal_that_is_a_symlink_is_not_written_through(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    folder = _three_edits(ml_config, tmp_path)
    paths = folder_paths(folder)
    elsewhere = tmp_path / "elsewhere.jsonl"
    paths.journal.rename(elsewhere)
    paths.journal.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    session = open_session(ml_config, ML, directory=folder)
    assert session.state.gates["5_stakeholder"].raw == "three", "read through the link"
    assert not session.persistent and "symbolic link" in (session.persistence_warning or "")
    _edit(session, ml_config, "4_data_privacy", "four")
    session.close()
    assert elsewhere.read_bytes() == before


def test_a_lone_surrogate_never_makes_a_writer_raise(ml_config: GateConfig, tmp_path: Path) -> None:
    state = empty_state(ml_config).model_dump(mode="json")
    state["summary"] = "a\ud800b"
    state["gates"]["2_use_case"] = {"raw": "x\udfffy", "classified": None}
    result = parse(state, ml_config, None, actor="user")
    session = open_session(ml_config, ML, root=tmp_path)
    canonical = result.canonical_state if result.ok else GateState.model_validate(state)
    if result.ok:  # today's parser accepts it; defence in depth for every writer
        session.accept(result, state, "user")
    else:
        session.reject(result, state, "user")
    assert session.persistent, session.persistence_warning
    assert (
        session.save(tmp_path / "copy.json") is None
        and session.export_state_json(tmp_path / "state.json") is None
    )
    assert session.export_report(tmp_path / "report.md") is None
    assert "⟨U+D800⟩" in (tmp_path / "report.md").read_text() or not result.ok
    session.close()
    out = io.StringIO()
    assert report_command(session.name, None, root=tmp_path, out=out) == 0
    again = open_session(ml_config, ML, directory=session.directory, read_only=True)
    assert again.notices == []
    if result.ok:
        assert again.state.summary == canonical.summary == "a\ud800b", (
            "the exact text survives the round trip"
        )
        assert replay(ml_config, again.records).history.state == again.state


def test_a_fifo_in_place_of_a_journal_never_hangs(ml_config: GateConfig, tmp_path: Path) -> None:
    folder = _three_edits(ml_config, tmp_path)
    paths = folder_paths(folder)
    paths.journal.unlink()
    os.mkfifo(paths.journal)
    outcome: dict[str, object] = {}

    def look() -> None:
        outcome["read"] = read_journal(paths.journal)
        outcome["session"] = open_session(ml_config, ML, directory=folder)
        out = io.StringIO()
        outcome["report"] = report_command(str(folder), None, out=out)
        from gate_tui.session.commands import sessions_command

        outcome["sessions"] = sessions_command(None, root=tmp_path, out=io.StringIO())

    worker = threading.Thread(target=look, daemon=True)
    worker.start()
    worker.join(timeout=20)
    assert not worker.is_alive(), "a FIFO journal blocked"
    assert "not a regular file" in (outcome["read"].error or "")  # type: ignore[attr-defined]
    session = outcome["session"]
    assert isinstance(session, Session) and any("not a regular file" in n for n in session.notices)
    assert outcome["report"] != 0 and outcome["sessions"] == 0
    session.close()
