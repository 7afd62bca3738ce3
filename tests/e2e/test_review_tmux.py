"""``gate-tui review`` end to end in a real terminal (tmux): the table and counts, a verdict
key, ``kill -9``, and the verdict still there on the next start and in ``--export``."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from gate_tui.tui.review.scenes import write_sample_results  # noqa: E402
from tests.helpers.tmux import Tmux, gate_tui, tmux  # noqa: E402, F401 - the fixture is used by name

pytestmark = pytest.mark.tmux


def test_review_in_a_real_terminal_keeps_a_verdict_through_kill_9(
    tmux: Tmux,  # noqa: F811 - the fixture, imported by name
    tmp_path: Path,
) -> None:
    results = write_sample_results(tmp_path)
    env = {
        "TERM": "xterm-256color",
        "GATE_TUI_NO_BLINK": "1",
        "GATE_TUI_CACHE_DIR": str(tmp_path / "cache"),
    }
    tmux.start(gate_tui("review", results), env)
    tmux.wait_for(
        lambda s: "PASS 16" in s and "eval-0000" in s and "showing 40 of 40" in s,
        "the review table",
    )
    tmux.run("send-keys", "Down", "r")
    tmux.wait_for(
        lambda s: "verdicts: rejected 1" in s and "rejected" in s, "the verdict on screen"
    )
    os.kill(tmux.app_pid(), signal.SIGKILL)
    tmux.wait_for(lambda s: "EXITED=" in s, "the killed review")
    tmux.kill()
    again = Tmux()
    try:
        again.start(gate_tui("review", results), env)
        again.wait_for(lambda s: "verdicts: rejected 1" in s, "the verdict after the restart")
    finally:
        again.kill()
    exported = tmp_path / "verdicts.csv"
    command = gate_tui("review", results, "--export", exported)
    subprocess.run(command, shell=True, check=True, capture_output=True, timeout=60)
    assert exported.read_text().splitlines()[1].startswith("1,2,eval-0001,NO PASS,rejected,")
