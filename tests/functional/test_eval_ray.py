"""``gate-tui check --engine ray`` in Ray's local mode: the same rows as ``check --input``
(only ``line`` differs: a Ray batch has no known place in the data, so it is null)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
ray = pytest.importorskip("ray")

from gate_tui import GateCheck, load_config  # noqa: E402 - GateCheck: the README recipe's name
from gate_tui.runs.arrow_rows import Columns, gate_settings  # noqa: E402
from tests.conftest import REPLIES  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, write_parquet  # noqa: E402

pytestmark = pytest.mark.slow
ROWS = 600


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # A short folder of its own: Ray's socket paths must stay under the 107-byte limit.
    with tempfile.TemporaryDirectory(prefix="ray", dir="/tmp") as folder:
        # 2 workers and a CPU for Ray Data's reading and writing tasks (as the CLI's local start).
        ray.init(
            num_cpus=3,
            _temp_dir=folder,
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
        )
        try:
            yield
        finally:
            ray.shutdown()


def rows_of(table: pa.Table) -> pa.Table:
    return table.drop_columns(["line"]).sort_by("id")


def test_ray_engine_output_equals_check_input_output(local_ray: None, tmp_path: Path) -> None:
    from gate_tui.runs.ray_run import run_on_ray

    rows = [row for row in arrow_rows(items(ROWS)) if row["id"] is not None]
    source = write_parquet(tmp_path / "in.parquet", rows, row_group_size=150)
    local = tmp_path / "local.parquet"
    assert (
        gate_tui(
            "check", "--config", str(ML), "--input", str(source), "--output", str(local), "-q"
        ).returncode
        == 2
    )
    status = run_on_ray(
        str(source),
        str(tmp_path / "ray_out"),
        gate_settings(load_config(ML)),
        Columns(),
        jobs=2,
        quiet=True,
    )
    assert status == 2
    on_ray = pq.read_table(tmp_path / "ray_out")
    assert on_ray.num_rows == len(rows) and on_ray.column("line").null_count == len(rows)
    expected = rows_of(pq.read_table(local))
    assert rows_of(on_ray).cast(expected.schema).equals(expected)


def test_readme_recipe_map_batches_with_gate_check(local_ray: None, tmp_path: Path) -> None:
    rows = [row for row in arrow_rows(items(60)) if row["id"] is not None]
    source = write_parquet(tmp_path / "in.parquet", rows)
    ds = ray.data.read_parquet(str(source))
    checked = ds.map_batches(
        GateCheck, fn_constructor_args=(str(ML),), batch_format="pyarrow", concurrency=1
    )
    table = pa.concat_tables(checked.iter_batches(batch_format="pyarrow"))
    assert sorted(table.column("id").to_pylist()) == sorted(row["id"] for row in rows)
    assert set(table.column("pass").to_pylist()) == {True, False, None}


def test_ray_engine_keeps_every_row_of_repeated_batches_and_counts_them(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The same 50 rows 200 times: batches with the same content, each written as its own file.
    from gate_tui.runs.ray_run import run_on_ray

    rows = [row for row in arrow_rows(items(50)) if row["id"] is not None] * 200
    folder = tmp_path / "in"
    folder.mkdir()
    write_parquet(folder / "a.parquet", rows[:6_000], row_group_size=1_000)
    write_parquet(folder / "b.parquet", rows[6_000:])
    status = run_on_ray(
        str(folder), str(tmp_path / "out"), gate_settings(load_config(ML)), Columns(), jobs=2
    )
    on_ray = pq.read_table(tmp_path / "out")
    assert on_ray.num_rows == len(rows)
    assert sorted(on_ray.column("id").to_pylist()) == sorted(row["id"] for row in rows)
    assert status == 2 and f"{len(rows):,} replies" in capsys.readouterr().err
    assert not [
        path for path in (tmp_path / "out").iterdir() if path.name.startswith(".")
    ]  # no temp file left


def test_ray_engine_expands_a_wildcard_and_review_opens_its_folder(
    local_ray: None, tmp_path: Path
) -> None:
    # `--input 's3://…/*.parquet'` as the issue writes it: Ray expands no wildcard, gate-tui does.
    from gate_tui.results.index import open_results
    from gate_tui.runs.ray_run import run_on_ray

    rows = [row for row in arrow_rows(items(ROWS)) if row["id"] is not None]
    run = tmp_path / "run"
    run.mkdir()
    write_parquet(run / "part-0.parquet", rows[: ROWS // 2])
    write_parquet(run / "part-1.parquet", rows[ROWS // 2 :])
    (run / "notes.txt").write_text("not a part")
    status = run_on_ray(
        f"file://{run}/*.parquet",
        str(tmp_path / "out"),
        gate_settings(load_config(ML)),
        Columns(),
        jobs=2,
        quiet=True,
    )
    assert status == 2
    index, error = open_results(tmp_path / "out")
    assert error is None and index is not None and index.rows == len(rows)
    assert sorted(index.table.column("id").to_pylist()) == sorted(row["id"] for row in rows)
    assert index.result_text(index.rows - 1) is not None


def test_ray_engine_carries_the_inputs_columns_and_signals(local_ray: None, tmp_path: Path) -> None:
    from gate_tui.runs.ray_run import run_on_ray

    good = (REPLIES / "ml_good.md").read_text(encoding="utf-8")
    table = pa.table({
        "id": ["a", "b"], "reply": [good, good], "model": ["m1", "m2"],
        "finish_reason": ["stop", "length"], "usage": [{"total_tokens": 7}, {"total_tokens": 9}],
    })
    pq.write_table(table, tmp_path / "in.parquet")
    settings = gate_settings(load_config(ML))
    status = run_on_ray(
        str(tmp_path / "in.parquet"), str(tmp_path / "out"), settings, Columns(), jobs=1, quiet=True
    )
    out = pq.read_table(tmp_path / "out").sort_by("id")
    assert status == 2 and out.column("model").to_pylist() == ["m1", "m2"]
    assert out.column("ok").to_pylist() == [True, False]  # b: cut by the provider
    assert out.column("total_tokens").to_pylist() == [7, 9]
