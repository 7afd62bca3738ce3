"""The journal: fsync'd JSON Lines, a tolerant reader, torn lines, and failing disks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.journal import JournalWriter, encode_record, read_journal
from gate_tui.session.opening import open_session
from gate_tui.session.records import header_record
from tests.conftest import CONFIGS, reply

ML = CONFIGS / "ml_project_intake.yaml"


def _journal(path: Path, *records: dict) -> Path:
    path.write_bytes(b"".join(encode_record(r) for r in records))
    return path


def _edit(session, config: GateConfig, key: str, raw: str):
    patch = {"gates": {key: {"raw": raw}}}
    return session.accept(parse(patch, config, session.state, actor="user"), patch, "user")


def test_records_round_trip_one_per_line(tmp_path: Path) -> None:
    header = header_record("/x.yaml", "abc", "X")
    writer, error = JournalWriter.create(tmp_path / "j.jsonl", header)
    assert error is None and writer is not None
    for seq in range(1, 4):
        assert (
            writer.append({"v": 1, "seq": seq, "kind": "edit", "text": "line\nbreak ünï"}) is None
        )
    writer.close()
    raw = (tmp_path / "j.jsonl").read_bytes()
    assert raw.count(b"\n") == 4 and raw.endswith(b"\n")
    read = read_journal(tmp_path / "j.jsonl")
    assert read.header == header
    assert [r["seq"] for r in read.records] == [1, 2, 3]
    assert read.records[0]["text"] == "line\nbreak ünï"
    assert read.notices == []


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.jsonl", {"kind": "header"})
    writer, error = JournalWriter.create(path, {"kind": "header"})
    assert writer is None and error is not None and "exists" in error.lower()


def test_each_append_is_fsynced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    writer, _ = JournalWriter.create(tmp_path / "j.jsonl", {"kind": "header"})
    assert writer is not None
    calls: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append(fd), real(fd))[1])
    writer.append({"seq": 1})
    writer.append({"seq": 2})
    assert len(calls) == 2


def test_missing_journal_reads_as_absent(tmp_path: Path) -> None:
    read = read_journal(tmp_path / "nope.jsonl")
    assert not read.exists and read.empty and read.error is None


def test_torn_last_line_is_skipped_with_a_notice(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.jsonl", {"kind": "header"}, {"seq": 1}, {"seq": 2})
    with path.open("ab") as handle:
        handle.write(b'{"seq": 3, "kind": "ed')
    read = read_journal(path)
    assert [r["seq"] for r in read.records] == [1, 2]
    assert read.torn == b'{"seq": 3, "kind": "ed'
    assert any("cut off" in n and "line 4" in n for n in read.notices)


def test_reopen_cuts_the_torn_tail_and_keeps_it_aside(tmp_path: Path) -> None:
    path = _journal(tmp_path / "j.jsonl", {"kind": "header"}, {"seq": 1})
    with path.open("ab") as handle:
        handle.write(b'{"seq": 2, "ki')
    read = read_journal(path)
    writer, error = JournalWriter.reopen(path, read)
    assert error is None and writer is not None
    writer.append({"seq": 2, "kind": "edit"})
    writer.close()
    again = read_journal(path)
    assert [r["seq"] for r in again.records] == [1, 2] and again.notices == []
    assert (tmp_path / "j.jsonl.torn").read_bytes() == b'{"seq": 2, "ki\n'


def test_whole_last_record_missing_only_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(encode_record({"kind": "header"}) + b'{"seq": 1}')
    read = read_journal(path)
    assert [r["seq"] for r in read.records] == [1] and read.needs_newline and not read.notices
    writer, _ = JournalWriter.reopen(path, read)
    assert writer is not None
    writer.append({"seq": 2})
    writer.close()
    assert [r["seq"] for r in read_journal(path).records] == [1, 2]


def test_damaged_middle_line_is_skipped_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_bytes(
        encode_record({"kind": "header"}) + b"\x00\xffgarbage\n[1, 2]\n" + encode_record({"seq": 3})
    )
    read = read_journal(path)
    assert [r["seq"] for r in read.records] == [3]
    assert len(read.notices) == 2 and "line 2" in read.notices[0]


def test_session_restores_everything_before_a_torn_line(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "Route tickets")
    _edit(session, ml_config, "3_success_metric", "Faster replies")
    expected = session.state
    journal = session.journal_path
    session._lock.release()  # simulate the process dying: no close record
    assert journal is not None
    with journal.open("ab") as handle:
        handle.write(b'{"v":1,"seq":3,"kind":"edit","state":{"summ')
    again = open_session(ml_config, ML, root=tmp_path)
    assert again.directory == session.directory
    assert again.state == expected and len(again.timeline) == 2
    assert any("cut off" in n for n in again.notices)
    _edit(again, ml_config, "2_use_case", "Route urgent tickets")
    again.close()
    third = open_session(ml_config, ML, directory=session.directory, read_only=True)
    assert len(third.timeline) == 3 and not any("cut off" in n for n in third.notices)


def test_rejected_payloads_are_journaled_but_change_nothing(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    before = session.state
    result = parse(reply("ml_garbage.md"), ml_config, session.state)
    assert not result.ok
    session.reject(result, reply("ml_garbage.md"), "assistant")
    assert session.state == before and session.timeline == []
    lines = [
        json.loads(line) for line in session.journal_path.read_text(encoding="utf-8").splitlines()
    ]
    assert (
        lines[-1]["kind"] == "rejected"
        and lines[-1]["errors"]
        and lines[-1]["payload"] == reply("ml_garbage.md")
    )
    reopened = open_session(ml_config, ML, directory=session.directory, read_only=True)
    assert reopened.timeline == [] and len(reopened.rejected) == 1


def test_journal_record_has_the_documented_fields(ml_config: GateConfig, tmp_path: Path) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    text = reply("ml_lying_pass.md")
    session.accept(parse(text, ml_config, session.state), text, "assistant")
    header, record = [
        json.loads(line) for line in session.journal_path.read_text(encoding="utf-8").splitlines()
    ]
    assert (
        header["kind"] == "header"
        and header["format"] == 1
        and header["config_path"] == str(ML.resolve())
    )
    assert (
        header["fingerprint"]
        and header["config_title"] == "ML project intake"
        and header["started"]
    )
    for key in (
        "v",
        "seq",
        "at",
        "kind",
        "actor",
        "payload",
        "warnings",
        "repairs",
        "diff",
        "decision",
        "state",
        "claimed_status",
        "target",
    ):
        assert key in record, key
    assert (
        record["kind"] == "reply" and record["actor"] == "assistant" and record["payload"] == text
    )
    assert record["decision"]["pass"] is False and record["state"]["status"]["pass"] is False
    assert record["claimed_status"]["pass"] is True


def test_failing_journal_write_drops_to_memory_but_keeps_working(
    ml_config: GateConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = open_session(ml_config, ML, root=tmp_path)
    _edit(session, ml_config, "2_use_case", "Route tickets")
    assert session.persistent

    def full_disk(fd: int, data: bytes) -> int:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", full_disk)
    transition = _edit(session, ml_config, "3_success_metric", "Faster replies")
    monkeypatch.undo()
    assert transition.index == 1 and session.state.gates["3_success_metric"].raw == "Faster replies"
    assert not session.persistent
    assert (
        session.persistence_warning is not None and "No space left" in session.persistence_warning
    )
    assert session.undo() is not None  # still working, in memory
    on_disk = open_session(ml_config, ML, directory=session.directory, read_only=True)
    assert len(on_disk.timeline) == 1
