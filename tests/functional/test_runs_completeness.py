"""A run that did not finish never looks finished: ``kill -9``, SIGTERM and a failed run of
``gate-tui check --input`` leave no results file that ``review`` (and ``--export``) would
show as whole; a finished run's file carries its run id (:mod:`gate_tui.results.completion`)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from gate_tui.results.completion import read_marker  # noqa: E402
from gate_tui.results.index import open_results  # noqa: E402
from tests.helpers.cli import command, gate_tui  # noqa: E402
from tests.helpers.eval_data import ML  # noqa: E402

REPLY = (ML.parent / "replies" / "ml_good.md").read_text(encoding="utf-8")
BIG = 300_000  # rows: a run that takes seconds, long enough to be stopped part-way


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("complete")
    ids = [str(number) for number in range(BIG)]
    pq.write_table(
        pa.table({"id": ids, "reply": pa.array([REPLY] * BIG).dictionary_encode()}),
        folder / "big.parquet",
    )
    with (folder / "big.jsonl").open("w", encoding="utf-8") as out:
        line = json.dumps({"reply": REPLY})
        for number in range(BIG):
            out.write(f'{{"id": {number}, ' + line[1:] + "\n")
    pq.write_table(pa.table({"id": ["a", "b"], "reply": [REPLY, REPLY]}), folder / "small.parquet")
    return {
        "parquet": folder / "big.parquet",
        "jsonl": folder / "big.jsonl",
        "small": folder / "small.parquet",
    }


def _review_says(path: Path) -> str:
    """What ``gate-tui review --export`` prints for ``path`` (the verdicts CSV beside it)."""
    done = gate_tui("review", str(path), "--export", str(path.parent / "verdicts.csv"))
    return done.stderr


def _size(path: Path) -> int:
    """A file's size, 0 once it is gone (a partial file renamed into place meanwhile)."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _start_and_stop(tmp_path: Path, source: Path, out_name: str, how: int) -> tuple[Path, int]:
    out = tmp_path / out_name
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    process = subprocess.Popen(
        command("check", "--config", str(ML), "--input", str(source), "--output", str(out), "-q"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    # Stopped once it has written results (the partial Parquet file, or JSON Lines records).
    while time.monotonic() < deadline and process.poll() is None:
        # The results so far (not the sidecar, nor its temporary copy: renamed any moment).
        written = [
            path
            for path in tmp_path.iterdir()
            if path.name.startswith((out_name, f".{out_name}")) and ".run.json" not in path.name
        ]
        if any(_size(path) > 200_000 for path in written):
            break
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before it could be stopped"
    process.send_signal(how)
    process.communicate(timeout=60)
    return out, process.returncode


def test_a_finished_run_is_marked_with_its_run_id(inputs: dict[str, Path], tmp_path: Path) -> None:
    for name in ("out.parquet", "out.jsonl"):
        out = tmp_path / name
        assert gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(inputs["small"]),
            "--output",
            str(out),
            "-q",
        ).returncode in (0, 1, 2)
        index, problem = open_results(out)
        assert index is not None, problem
        assert index.incomplete() is None
        assert index.run_id and len(index.run_id) == 32
        marker = read_marker(out)
        assert (
            marker is not None
            and marker.finished
            and marker.rows_written == 2
            and marker.rows_expected == 2
        )
        assert "run incomplete" not in _review_says(out)
    assert not [path for path in tmp_path.iterdir() if path.name.endswith(".partial")]


def test_two_runs_have_two_run_ids(inputs: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out.parquet"
    ids = set()
    for _ in range(2):
        gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(inputs["small"]),
            "--output",
            str(out),
            "-q",
        )
        ids.add(open_results(out)[0].run_id)
    assert len(ids) == 2


@pytest.mark.parametrize("name", ["out.parquet", "out.jsonl"])
@pytest.mark.parametrize("source", ["parquet", "jsonl"])
def test_kill_9_mid_run_leaves_nothing_that_looks_finished(
    inputs: dict[str, Path], tmp_path: Path, source: str, name: str
) -> None:
    out, status = _start_and_stop(tmp_path, inputs[source], name, signal.SIGKILL)
    assert status == -signal.SIGKILL
    index, problem = open_results(out)
    if index is None:  # Parquet: only the hidden partial file is left, no file at the name
        assert problem and "no such results file" in problem
        assert not out.exists()
    else:
        assert index.incomplete() is not None and "run incomplete" in index.incomplete()
        assert 0 < index.rows < BIG
        assert f"run incomplete: {index.rows:,}" in _review_says(out)


@pytest.mark.parametrize("name", ["out.parquet", "out.jsonl"])
def test_sigterm_mid_run_is_marked_incomplete(
    inputs: dict[str, Path], tmp_path: Path, name: str
) -> None:
    out, status = _start_and_stop(tmp_path, inputs["parquet"], name, signal.SIGTERM)
    assert status != 0
    index, problem = open_results(out)
    assert index is not None, problem
    assert 0 < index.rows < BIG
    message = index.incomplete()
    assert (
        message is not None and message.endswith(f"of {BIG:,} rows")
        if name.endswith(".parquet")
        else "run incomplete" in message
    )
    assert "run incomplete" in _review_says(out)


def test_a_kill_9_does_not_leave_the_previous_finished_file(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out.parquet"
    gate_tui(
        "check", "--config", str(ML), "--input", str(inputs["small"]), "--output", str(out), "-q"
    )
    assert open_results(out)[0].incomplete() is None
    _start_and_stop(tmp_path, inputs["parquet"], "out.parquet", signal.SIGKILL)
    index, _ = open_results(out)
    assert index is None or index.incomplete() is not None


@pytest.mark.parametrize("name", ["out.parquet", "out.jsonl"])
def test_a_failed_run_leaves_no_file_that_looks_finished(
    inputs: dict[str, Path], tmp_path: Path, name: str
) -> None:
    parts = tmp_path / "parts"
    parts.mkdir()
    pq.write_table(pa.table({"id": ["1", "2"], "reply": [REPLY, REPLY]}), parts / "part-0.parquet")
    pq.write_table(
        pa.table({"id": ["3"], "text": [REPLY]}), parts / "part-1.parquet"
    )  # no reply column
    out = tmp_path / name
    done = gate_tui("check", "--config", str(ML), "--input", str(parts), "--output", str(out), "-q")
    assert done.returncode != 0 and "reply" in done.stderr
    index, _ = open_results(out)
    assert index is None or index.incomplete() == "run incomplete: 2 of 3 rows"
    if index is not None:
        assert "run incomplete: 2 of 3 rows" in _review_says(out)
