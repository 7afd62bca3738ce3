"""``check --input``: memory bounded by bytes, not rows (issue 30, item 3). A Parquet file
of a few hundred KB can hold 2,000 rows of 1 MB replies (dictionary encoding: each row an
index into three distinct values); read as 1,024-row batches of text that was 1 GB at a
time. Each run is measured in a process of its own (its peak resident memory, from
``getrusage``), and its results match a run that checks one row at a time."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.conftest import CONFIGS, REPLIES, ROOT  # noqa: E402

ROWS, REPLY_BYTES = 2_000, 1_000_000
LIMIT_MB = 600  # rows x reply size is 2,000 MB; before the fix the JSON Lines run took 1,150

# Runs the CLI in a child and prints that child's peak RSS (ru_maxrss is in KiB on Linux);
# argv[1] is the slice budget in bytes ("" keeps the default).
MEASURE = """
import resource, subprocess, sys
code = ("import sys, runpy, gate_tui.runs.budget as b;"
        "b.SLICE_BYTES = int(sys.argv[1]) if sys.argv[1] else b.SLICE_BYTES;"
        "sys.argv = ['gate-tui', *sys.argv[2:]]; runpy.run_module('gate_tui', run_name='__main__')")
done = subprocess.run([sys.executable, '-c', code, *sys.argv[1:]], capture_output=True, text=True)
sys.stderr.write(done.stderr)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
"""


@pytest.fixture(scope="module")
def heavy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    good = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
    values = [good + "\n" + f"padding {k} " * (REPLY_BYTES // 10) for k in range(3)]
    replies = pa.DictionaryArray.from_arrays(
        pa.array([index % 3 for index in range(ROWS)], pa.int32()), pa.array(values)
    )
    table = pa.table(
        {
            "id": [f"r{index}" for index in range(ROWS)],
            "reply": replies,
            "model": [f"m{index % 2}" for index in range(ROWS)],
        }
    )
    path = tmp_path_factory.mktemp("heavy") / "in.parquet"
    pq.write_table(table, path)
    assert path.stat().st_size < 2_000_000  # small on disk, 2 GB as text
    return path


def _check(source: Path, out: Path, budget: str = "") -> int:
    args = ["check", "--config", str(CONFIGS / "ml_project_intake.yaml")]
    args += ["--input", str(source), "--output", str(out), "-q"]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, budget, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    status, peak = map(int, done.stdout.split())
    assert status == 0, done.stderr
    return peak


def test_jsonl_results_of_large_dictionary_replies_stay_far_below_rows_times_reply(
    heavy: Path, tmp_path: Path
) -> None:
    out, one_by_one = tmp_path / "out.jsonl", tmp_path / "one.jsonl"
    peak = _check(heavy, out)
    assert peak < LIMIT_MB, f"peak {peak} MB"
    records = out.read_text(encoding="utf-8").splitlines()
    assert len(records) == ROWS and json.loads(records[-1])["model"] == "m1"
    _check(heavy, one_by_one, budget="1")  # every row a slice of its own
    assert out.read_bytes() == one_by_one.read_bytes()


def test_parquet_results_of_large_dictionary_replies_stay_bounded(
    heavy: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.parquet"
    peak = _check(heavy, out)
    assert peak < LIMIT_MB, f"peak {peak} MB"
    parquet = pq.ParquetFile(out)
    assert parquet.metadata.num_rows == ROWS
    # Row groups bounded in bytes too: none holds more than a few dozen 1 MB replies.
    assert (
        max(
            parquet.metadata.row_group(group).num_rows
            for group in range(parquet.metadata.num_row_groups)
        )
        <= 64
    )
    first = parquet.read_row_group(0, columns=["reply", "model"]).to_pylist()[0]
    assert len(first["reply"]) > REPLY_BYTES and first["model"] == "m0"
