"""Crash test: kill -9 a process that is applying transitions, at random moments; on reopen,
every transition it had reported as accepted is there, in order, with the same state.

The worker (``tests/helpers/crash_worker.py``) prints ``accepted <index> <kind> <hash>``
only after ``Session.accept`` / ``undo`` / ``redo`` / ``jump_to`` returned. The same
session is killed and resumed several times, so resuming after a crash is tested too.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

from gate_tui.models import GateConfig
from gate_tui.session.opening import open_session
from tests.conftest import CONFIGS, ROOT
from tests.helpers.session_steps import state_hash

ML = CONFIGS / "ml_project_intake.yaml"
ROUNDS = 6
PER_ROUND = 30

Reported = dict[int, tuple[str, str]]


def _parse(lines: list[str], reported: Reported) -> None:
    for line in lines:
        parts = line.split()
        if len(parts) == 4 and parts[0] == "accepted":
            reported[int(parts[1])] = (parts[2], parts[3])


def _run_and_kill(
    root: Path, directory: Path | None, seed: int, rng: random.Random, reported: Reported
) -> Path:
    """Start a worker, let it report a random number of transitions, then SIGKILL it."""
    where = str(directory) if directory is not None else "new"
    args = [
        sys.executable,
        "-m",
        "tests.helpers.crash_worker",
        str(root),
        str(ML),
        where,
        str(seed),
        str(PER_ROUND),
    ]
    proc = subprocess.Popen(
        args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    try:
        first = proc.stdout.readline().split()
        assert first[:1] == ["session"], (first, proc.stderr.read() if proc.stderr else "")
        kill_after = rng.randrange(PER_ROUND)
        seen: list[str] = []
        while len(seen) < kill_after:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
        time.sleep(rng.uniform(0, 0.004))  # land anywhere: in a parse, a write, an fsync, a rename
    finally:
        proc.kill()
        proc.wait()
    seen += proc.stdout.read().splitlines()  # printed before it died: reported as accepted
    proc.stdout.close()
    if proc.stderr is not None:
        proc.stderr.close()
    _parse(seen, reported)
    return Path(first[1])


def _check(config: GateConfig, directory: Path, reported: Reported, before: int) -> int:
    """Every reported transition is restored; at most one more (the one in flight) than
    the restored history before this round plus what this round reported."""
    restored = open_session(config, ML, directory=directory, read_only=True)
    assert restored.directory == directory
    timeline = restored.timeline
    for index, (kind, digest) in sorted(reported.items()):
        assert index < len(timeline), (
            f"accepted transition #{index} was lost ({len(timeline)} restored)"
        )
        assert (timeline[index].kind, state_hash(timeline[index].state)) == (kind, digest), (
            f"#{index} differs"
        )
    known = max(before, max(reported, default=-1) + 1)
    assert len(timeline) <= known + 1, (
        "at most the one transition in flight may be restored unreported"
    )
    assert not [
        n for n in restored.notices if "different state" in n or "could not be replayed" in n
    ]
    return len(timeline)


def test_kill_9_at_random_points_loses_no_accepted_transition(
    ml_config: GateConfig, tmp_path: Path
) -> None:
    rng = random.Random(20240501)
    reported: Reported = {}
    directory: Path | None = None
    restored = 0
    for round_number in range(ROUNDS):
        directory = _run_and_kill(
            tmp_path, directory, seed=1000 + round_number, rng=rng, reported=reported
        )
        restored = _check(ml_config, directory, reported, restored)
    assert directory is not None and len(reported) > PER_ROUND  # several rounds really ran
    final = open_session(ml_config, ML, directory=directory)
    assert final.persistent
    document = json.loads(final.state_file.read_text(encoding="utf-8"))
    assert document["state"] == final.state.model_dump(mode="json")  # the state file caught up
    final.close()
