"""Opening a long journal holds the history the editor shows, not the journal: records are
replayed one at a time, payloads stay on disk, equal answers share one object; a journal
too large for the memory available is refused with a clear message, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session import replay as replay_module
from gate_tui.session.journal import read_journal
from gate_tui.session.opening import open_session
from tests.conftest import CONFIGS, reply

ML = CONFIGS / "ml_project_intake.yaml"


def _session_with_replies(config: GateConfig, root: Path, count: int) -> Path:
    session = open_session(config, ML, root=root)
    text = reply("ml_lying_pass.md")
    for index in range(count):
        payload = (
            text.replace("Demand forecast", f"Demand forecast {index}") + "\n" + "padding " * 2000
        )
        session.accept(parse(payload, config, session.state), payload, "assistant")
    session.close()
    assert session.directory is not None
    return session.directory


def test_the_replayed_history_keeps_no_payloads_and_shares_equal_answers(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    folder = _session_with_replies(ml_config, tmp_path, 5)
    again = open_session(ml_config, ML, directory=folder, read_only=True)
    assert len(again.timeline) == 5 and all(t.payload is None for t in again.timeline)
    first, second = again.timeline[0].state, again.timeline[1].state
    assert first.gates["4_data_privacy"] is second.gates["4_data_privacy"]  # unchanged: one object
    assert first.summary != second.summary
    assert again.records == []  # nothing rejected: no record is held
    # ...while the journal and the report still have every payload in full.
    assert "padding padding" in again.report_markdown("text")
    assert all(
        "padding" in r["payload"]
        for r in read_journal(folder / "journal.jsonl").records
        if r.get("kind") == "reply"
    )


def test_a_sink_gets_each_record_and_nothing_is_kept(ml_config: GateConfig, tmp_path: Path) -> None:
    folder = _session_with_replies(ml_config, tmp_path, 3)
    seen: list[int] = []
    read = read_journal(folder / "journal.jsonl", sink=lambda record: seen.append(record["seq"]))
    assert (
        read.records == []
        and read.count == len(seen)
        and seen == sorted(seen)
        and read.last_seq == seen[-1]
    )


def test_a_journal_too_large_for_memory_is_refused_clearly(
    ml_config: GateConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = _session_with_replies(ml_config, tmp_path, 3)
    journal = folder / "journal.jsonl"
    before = journal.read_bytes()

    def out_of_memory(self: object, record: dict) -> None:
        raise MemoryError

    monkeypatch.setattr(replay_module.Replayer, "add", out_of_memory)
    session = open_session(ml_config, ML, directory=folder)
    assert any("too large to open in the memory available" in notice for notice in session.notices)
    assert session.directory != folder and journal.read_bytes() == before  # left as it was
    read_only = open_session(ml_config, ML, directory=folder, read_only=True)
    assert "too large to open" in (read_only.persistence_warning or "")


def test_the_cli_reports_a_memory_error_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys\nfrom gate_tui.cli import main as m\n"
        "def boom(*a, **k):\n    raise MemoryError\n"
        "m.run_subcommand = boom\nsys.exit(m.main(['prompt', '--config', sys.argv[1]]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(ML)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 70 and done.stderr.count("\n") == 1 and "out of memory" in done.stderr
    assert "Traceback" not in done.stderr and json.dumps(str(ML))
