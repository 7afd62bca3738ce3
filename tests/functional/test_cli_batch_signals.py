"""SIGTERM and SIGHUP end ``check --jsonl -j N`` with its workers: no process survives it,
the output ends at a line boundary (every line a whole record), the exit status is
128 + the signal (143, 129)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CONFIGS, REPLIES
from tests.helpers.processes import alive, children, wait_until

ML = str(CONFIGS / "ml_project_intake.yaml")


def default_signal_handlers() -> None:
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


@pytest.fixture(scope="module")
def big_input(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "big.jsonl"
    replies = [
        (REPLIES / name).read_text(encoding="utf-8")
        for name in ("ml_good.md", "ml_lying_pass.md", "ml_repairable.md")
    ]
    with path.open("w", encoding="utf-8") as out:
        for number in range(200_000):
            out.write(json.dumps({"id": number, "reply": replies[number % 3]}) + "\n")
    return path


@pytest.mark.parametrize(("signum", "status"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_an_ending_signal_stops_the_batch_and_its_workers(
    big_input: Path, tmp_path: Path, signum: int, status: int
) -> None:
    output = tmp_path / "out.jsonl"
    with output.open("wb") as sink:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gate_tui",
                "check",
                "--config",
                ML,
                "--jsonl",
                str(big_input),
                "-j",
                "2",
                "-q",
            ],
            stdout=sink,
            stderr=subprocess.PIPE,
            # As from a terminal: a run under nohup (SIGHUP ignored, which the child
            # inherits and keeps ignoring, by design) must still test the signal.
            preexec_fn=default_signal_handlers,
        )
        try:
            assert wait_until(
                lambda: len(children(process.pid)) >= 2 and output.stat().st_size > 0
            ), "the batch never started"
            workers = children(process.pid)
            process.send_signal(signum)
            _, err = process.communicate(timeout=120)
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == status, err
    assert wait_until(lambda: not any(alive(pid) for pid in workers)), "a worker outlived the batch"
    data = output.read_bytes()
    assert data.endswith(b"\n")
    lines = data.splitlines()
    assert 0 < len(lines) < 200_000
    assert [json.loads(line)["line"] for line in lines] == list(range(1, len(lines) + 1))
    assert b"stopped by" in err and b"Traceback" not in err
