"""``check --input PATH --output PATH -j 2``: the workers read their batches from, and write
their results to, files in a private folder beside the output. The output is the same byte
for byte as ``-j 1``'s in every input/output pairing, the folder is gone after the run,
and SIGTERM still ends the run with its workers and a readable Parquet file."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, write_jsonl, write_parquet  # noqa: E402
from tests.helpers.processes import alive, children, wait_until  # noqa: E402

ROWS = 6_000  # several 1,024-row jobs and two 4,096-row output row groups


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("jobs")
    rows = arrow_rows(items(ROWS))
    return {
        "jsonl": write_jsonl(folder / "in.jsonl", rows),
        "parquet": write_parquet(folder / "in.parquet", rows, row_group_size=1_500),
    }


@pytest.mark.parametrize(
    ("source", "target"), [("parquet", "parquet"), ("parquet", "jsonl"), ("jsonl", "parquet")]
)
def test_two_workers_write_the_same_bytes_as_one(
    inputs: dict[str, Path], tmp_path: Path, source: str, target: str
) -> None:
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"j{jobs}" / f"out.{target}"
        out.parent.mkdir()
        done = gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(inputs[source]),
            "--output",
            str(out),
            "-j",
            jobs,
        )
        assert done.returncode == 2, done.stderr
        assert f"{ROWS:,} replies" in done.stderr
        # The job files' folder is gone (beside the results: only a JSON Lines run's marker).
        assert [
            path.name for path in out.parent.iterdir() if not path.name.endswith(".run.json")
        ] == [out.name]
        outputs.append(
            re.sub(rb'"run_id": "[0-9a-f]{32}"', b"RUN", out.read_bytes())
        )  # each run has its own id
    assert outputs[0] == outputs[1]
    if target == "parquet":
        meta = pq.ParquetFile(tmp_path / "j2" / "out.parquet").metadata
        assert (
            meta.num_rows == ROWS
            and max(meta.row_group(i).num_rows for i in range(meta.num_row_groups)) <= 4096
        )


def test_sigterm_ends_a_parquet_run_with_its_workers_and_a_readable_file(tmp_path: Path) -> None:
    rows = arrow_rows(items(100))
    source = write_parquet(
        tmp_path / "big.parquet", rows * 1_500
    )  # 150,000 rows: many seconds of work
    folder = tmp_path / "out"
    folder.mkdir()
    output = folder / "out.parquet"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--config",
            str(ML),
            "--input",
            str(source),
            "--output",
            str(output),
            "-j",
            "2",
            "-q",
        ],
        stderr=subprocess.PIPE,
    )
    try:
        # Running: both workers forked and the first row group written.
        # (Written under a hidden partial name until the run ends: gate_tui.results.completion.)
        def partial() -> list[Path]:
            return [
                path
                for path in folder.iterdir()
                if path.name.startswith(".out.parquet.") and path.stat().st_size > 0
            ]
        assert wait_until(lambda: len(children(process.pid)) >= 2 and partial()), (
            "the run never started"
        )
        workers = children(process.pid)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 143, err
    assert wait_until(lambda: not any(alive(pid) for pid in workers)), "a worker outlived the run"
    assert b"Traceback" not in err
    table = pq.read_table(output)  # the footer was written: a valid file of whole row groups
    assert 0 < table.num_rows < 150_000
    assert table.column("line").to_pylist() == list(range(1, table.num_rows + 1))
    assert [path.name for path in folder.iterdir()] == ["out.parquet"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_output_folder_that_does_not_exist_is_named_as_the_user_wrote_it(
    inputs: dict[str, Path], tmp_path: Path, jobs: str
) -> None:
    out = tmp_path / "missing" / "out.parquet"
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(inputs["parquet"]),
        "--output",
        str(out),
        "-j",
        jobs,
    )
    assert done.returncode == 3, done.stderr
    assert str(out) in done.stderr and ".gate-tui-jobs" not in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
