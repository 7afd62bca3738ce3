"""One writer per session: the second opener gets a read-only view and never writes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from gate_tui.models import GateConfig
from gate_tui.parsing.pipeline import parse
from gate_tui.session.catalog import list_sessions
from gate_tui.session.lock import acquire, is_locked, read_pid
from gate_tui.session.opening import open_session
from tests.conftest import CONFIGS, ROOT

ML = CONFIGS / "ml_project_intake.yaml"


def _edit(session, config: GateConfig, key: str, raw: str):
    patch = {"gates": {key: {"raw": raw}}}
    return session.accept(parse(patch, config, session.state, actor="user"), patch, "user")


def test_lock_is_exclusive_and_names_its_holder(tmp_path: Path) -> None:
    first = acquire(tmp_path / "lock")
    assert first.lock is not None and read_pid(tmp_path / "lock") == os.getpid()
    second = acquire(tmp_path / "lock")
    assert second.lock is None and second.busy and second.held_by == os.getpid()
    assert is_locked(tmp_path / "lock")
    first.lock.release()
    assert not is_locked(tmp_path / "lock")
    third = acquire(tmp_path / "lock")
    assert third.lock is not None
    third.lock.release()


def test_second_open_of_a_session_is_read_only(ml_config: GateConfig, tmp_path: Path) -> None:
    writer = open_session(ml_config, ML, root=tmp_path)
    _edit(writer, ml_config, "2_use_case", "Forecast")
    reader = open_session(ml_config, ML, directory=writer.directory)
    assert reader.read_only and not reader.persistent
    notice = (
        f"session {writer.name} is open in another gate-tui (pid {os.getpid()}); opened read-only"
    )
    assert notice in reader.notices and reader.persistence_warning == notice
    assert reader.state == writer.state
    journal, state = writer.journal_path.read_bytes(), writer.state_file.read_bytes()
    _edit(reader, ml_config, "3_success_metric", "Faster")  # works in memory ...
    reader.undo()
    assert reader.save() is not None
    reader.close()
    assert (
        writer.journal_path.read_bytes() == journal and writer.state_file.read_bytes() == state
    )  # ... writes nothing
    _edit(writer, ml_config, "3_success_metric", "Faster")  # the writer still writes
    writer.close()
    again = open_session(ml_config, ML, directory=writer.directory)
    assert not again.read_only and len(again.timeline) == 2


def test_default_open_does_not_resume_a_session_in_use(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    first = open_session(ml_config, ML, root=tmp_path)
    _edit(first, ml_config, "2_use_case", "Forecast")
    second = open_session(ml_config, ML, root=tmp_path)
    assert second.persistent and second.directory != first.directory
    states = {info.name: info.status for info in list_sessions(tmp_path)}
    assert states[first.name] == "locked"


def test_second_instance_on_a_state_file_is_read_only(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    file = tmp_path / "review.json"
    writer = open_session(ml_config, ML, state_file=file)
    _edit(writer, ml_config, "2_use_case", "Forecast")
    reader = open_session(ml_config, ML, state_file=file)
    assert reader.read_only and reader.state == writer.state
    assert any("open in another gate-tui" in n for n in reader.notices)
    before = file.read_bytes()
    _edit(reader, ml_config, "3_success_metric", "Faster")
    assert file.read_bytes() == before


_HOLDER = """
import sys, time
from pathlib import Path
from gate_tui.config.loading import load_config
from gate_tui.parsing.pipeline import parse
from gate_tui.session.opening import open_session
config = load_config(sys.argv[1])
session = open_session(config, Path(sys.argv[1]), root=Path(sys.argv[2]), new=True)
patch = {"gates": {"2_use_case": {"raw": "from the other process"}}}
session.accept(parse(patch, config, session.state, actor="user"), patch, "user")
print(session.directory, flush=True)
time.sleep(60)
"""


def test_lock_held_by_another_process_and_freed_by_kill_9(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", _HOLDER, str(ML), str(tmp_path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        directory = Path(proc.stdout.readline().strip())
        reader = open_session(ml_config, ML, directory=directory)
        assert reader.read_only and f"pid {proc.pid}" in reader.notices[-1]
        assert reader.state.gates["2_use_case"].raw == "from the other process"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    deadline = time.monotonic() + 30
    while is_locked(directory / "lock") and time.monotonic() < deadline:
        time.sleep(0.02)
    again = open_session(ml_config, ML, directory=directory)
    assert not again.read_only and again.persistent  # no stale lock after kill -9
    assert again.state.gates["2_use_case"].raw == "from the other process"
    _edit(again, ml_config, "3_success_metric", "Faster")
    again.close()
