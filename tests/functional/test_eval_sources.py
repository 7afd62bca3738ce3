"""Eval-run Parquet where it lives: a folder of parts, a wildcard, a ``file://`` URI
(``results/sources.py``). ``check --input`` reads the parts in sorted order as one input;
``--engine ray`` expands the wildcard Ray does not; ``review`` opens Ray's folder of parts."""

from __future__ import annotations

from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from gate_tui.results.index import open_results  # noqa: E402
from gate_tui.results.sources import parquet_files  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, write_parquet  # noqa: E402

ROWS = 900


@pytest.fixture(scope="module")
def parts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same rows as one file and as three parts in a folder (with a writer's leftovers)."""
    folder = tmp_path_factory.mktemp("parts")
    rows = arrow_rows(items(ROWS))
    whole = write_parquet(folder / "whole.parquet", rows)
    run = folder / "run-7"
    run.mkdir()
    for number, start in enumerate(range(0, ROWS, 300)):
        write_parquet(run / f"part-{number:05d}.parquet", rows[start : start + 300])
    (run / "_SUCCESS").write_text("")
    (run / ".part-00003.parquet.tmp").write_text("half written")
    return whole, run


def test_the_parts_are_found_in_order_and_the_leftovers_skipped(parts: tuple[Path, Path]) -> None:
    _whole, run = parts
    expected = [str(run / f"part-{n:05d}.parquet") for n in range(3)]
    assert parquet_files(str(run)) == expected
    assert parquet_files(str(run / "*.parquet")) == expected
    assert parquet_files(f"file://{run}/*.parquet") == [f"file://{name}" for name in expected]
    with pytest.raises(FileNotFoundError):
        parquet_files(str(run / "*.jsonl"))


@pytest.mark.parametrize("how", ["folder", "wildcard", "uri"])
def test_a_folder_of_parts_checks_as_the_one_file_holding_them(
    parts: tuple[Path, Path], tmp_path: Path, how: str
) -> None:
    whole, run = parts
    source = {"folder": str(run), "wildcard": str(run / "part-*.parquet"), "uri": f"file://{run}/*.parquet"}[how]
    one = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(whole),
        "--output",
        str(tmp_path / "one.jsonl"),
        "-q",
    )
    many = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        source,
        "--output",
        str(tmp_path / "many.jsonl"),
        "-q",
        "-j",
        "2",
    )
    assert one.returncode == many.returncode == 2, many.stderr
    assert (tmp_path / "many.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


def test_nothing_matching_is_one_line_naming_the_pattern(tmp_path: Path) -> None:
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(tmp_path / "*.parquet"),
        "--output",
        str(tmp_path / "o.parquet"),
    )
    assert done.returncode == 3
    assert str(tmp_path / "*.parquet") in done.stderr and "no Parquet file matches" in done.stderr
    assert "Traceback" not in done.stderr


def test_review_opens_a_folder_of_result_parts(parts: tuple[Path, Path], tmp_path: Path) -> None:
    # What `check --engine ray` writes: a folder of Parquet parts, each a results file.
    whole, run = parts
    results = tmp_path / "results"
    results.mkdir()
    for number, part in enumerate(parquet_files(str(run))):
        done = gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            part,
            "--output",
            str(results / f"part-{number}.parquet"),
            "-q",
        )
        assert done.returncode == 2, done.stderr
    single = tmp_path / "single.parquet"
    assert (
        gate_tui(
            "check", "--config", str(ML), "--input", str(whole), "--output", str(single), "-q"
        ).returncode
        == 2
    )
    folder_index, error = open_results(results)
    file_index, _ = open_results(single)
    assert error is None and folder_index is not None and file_index is not None
    assert folder_index.rows == file_index.rows == ROWS
    assert folder_index.counts() == file_index.counts()
    for row in (0, 299, 300, ROWS - 1):  # across the parts' boundaries
        assert folder_index.result_text(row) == file_index.result_text(row)


def test_parts_with_different_columns_open_as_one_run(
    parts: tuple[Path, Path], tmp_path: Path
) -> None:
    # Parts written by different versions or tools: a column one lacks is null there.
    _whole, run = parts
    first = tmp_path / "first.parquet"
    assert (
        gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            parquet_files(str(run))[0],
            "--output",
            str(first),
            "-q",
        ).returncode
        == 2
    )
    results = tmp_path / "results"
    results.mkdir()
    full = pq.read_table(first)
    pq.write_table(full, results / "part-0.parquet")
    pq.write_table(full.drop_columns(["reply", "warnings", "guessed"]), results / "part-1.parquet")
    index, error = open_results(results)
    assert error is None and index is not None and index.rows == 2 * full.num_rows
    assert index.reply_text(0) is not None and index.reply_text(full.num_rows) is None
    assert index.result_text(full.num_rows) == index.result_text(0)
