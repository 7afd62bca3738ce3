"""``gate-tui check --input PATH --output PATH``: Parquet and JSON Lines in and out, the same
records as ``check --jsonl``, bounded row groups, ``-j 2``, exit statuses, contract mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.conftest import CONFIGS  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, write_jsonl, write_parquet  # noqa: E402

ROWS = 9_000  # more than two output row groups


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("eval")
    rows = arrow_rows(items(ROWS))
    files = {
        "jsonl": write_jsonl(folder / "in.jsonl", rows),
        "parquet": write_parquet(folder / "in.parquet", rows, row_group_size=2_000),
    }
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--jsonl",
        str(files["jsonl"]),
        "-o",
        str(folder / "ref.jsonl"),
        "-q",
    )
    assert done.returncode == 2
    files["ref"] = folder / "ref.jsonl"
    return files


def test_parquet_to_jsonl_is_check_jsonl_byte_for_byte(
    data: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    done = gate_tui(
        "check", "--config", str(ML), "--input", str(data["parquet"]), "--output", str(out)
    )
    assert done.returncode == 2, done.stderr
    assert out.read_bytes() == data["ref"].read_bytes()
    assert f"{ROWS:,} replies" in done.stderr


def test_parquet_results_hold_the_jsonl_results_in_bounded_row_groups(
    data: dict[str, Path], tmp_path: Path
) -> None:
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    assert (
        gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(data["parquet"]),
            "--output",
            str(one),
            "-q",
        ).returncode
        == 2
    )
    assert (
        gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(data["parquet"]),
            "--output",
            str(two),
            "-q",
            "-j",
            "2",
        ).returncode
        == 2
    )
    table = pq.read_table(one)
    assert table.equals(pq.read_table(two))  # -j 2 keeps the input order
    lines = data["ref"].read_bytes().splitlines()
    assert table.column("result").to_pylist() == [
        line[line.index(b',"result":') + 10 : -1].decode() for line in lines
    ]
    meta = pq.ParquetFile(one).metadata
    assert (
        meta.num_row_groups >= 3
        and max(meta.row_group(i).num_rows for i in range(meta.num_row_groups)) <= 4096
    )


def test_jsonl_to_parquet_keeps_ids_as_text_and_the_same_results(
    data: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out.parquet"
    assert (
        gate_tui(
            "check", "--config", str(ML), "--input", str(data["jsonl"]), "--output", str(out), "-q"
        ).returncode
        == 2
    )
    table = pq.read_table(out)
    records = [json.loads(line) for line in data["ref"].read_text().splitlines()]
    assert table.column("id").to_pylist() == [record["id"] for record in records]
    assert table.column("line").to_pylist() == [record["line"] for record in records]
    assert [json.loads(text) for text in table.column("result").to_pylist()[:50]] == [
        record["result"] for record in records[:50]
    ]
    from_parquet = pq.read_table(data["parquet"])
    assert (
        table.column("reply").to_pylist() == from_parquet.column("reply").to_pylist()
    )  # the replies ride along


def test_other_column_names_exit_statuses_and_usage_errors(tmp_path: Path) -> None:
    good = (CONFIGS / "replies" / "ml_good.md").read_text()
    source = tmp_path / "answers.parquet"
    pq.write_table(pa.table({"key": ["a", "b"], "text": [good, good]}), source)
    out = tmp_path / "out.parquet"
    done = gate_tui(
        "check",
        "--config",
        str(ML),
        "--input",
        str(source),
        "--output",
        str(out),
        "--reply-column",
        "text",
        "--id-column",
        "key",
    )
    assert done.returncode == 0, done.stderr
    assert pq.read_table(out).column("id").to_pylist() == ["a", "b"]
    missing = gate_tui("check", "--config", str(ML), "--input", str(source), "--output", str(out))
    assert (
        missing.returncode == 3
        and "no 'reply' column" in missing.stderr
        and "text" in missing.stderr
    )
    assert (
        gate_tui("check", "--config", str(ML), "--input", str(source)).returncode == 3
    )  # Parquet to stdout
    assert (
        "unknown format"
        in gate_tui(
            "check", "--config", str(ML), "--input", str(tmp_path / "x.csv"), "--output", str(out)
        ).stderr
    )
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not really")
    done = gate_tui("check", "--config", str(ML), "--input", str(broken), "--output", str(out))
    assert done.returncode == 3 and "Traceback" not in done.stderr
    empty = tmp_path / "empty.parquet"
    pq.write_table(pa.table({"reply": pa.array([], pa.string())}), empty)
    assert (
        gate_tui(
            "check", "--config", str(ML), "--input", str(empty), "--output", str(out)
        ).returncode
        == 0
    )
    assert pq.read_table(out).num_rows == 0 and "result" in pq.read_table(out).column_names


def test_contract_mode_parquet_to_jsonl_equals_check_contract_jsonl(tmp_path: Path) -> None:
    contract = str(CONFIGS / "contracts" / "llm_result_v1.yaml")
    replies = [
        (CONFIGS / "contracts" / "replies" / f"llm_result_v1_{kind}.md").read_text()
        for kind in ("good", "broken", "repairable")
    ]
    rows = [{"id": f"c{index}", "reply": replies[index % 3]} for index in range(30)]
    write_jsonl(tmp_path / "in.jsonl", rows)
    pq.write_table(
        pa.table({"id": [r["id"] for r in rows], "reply": [r["reply"] for r in rows]}),
        tmp_path / "in.parquet",
    )
    ref = gate_tui(
        "check",
        "--contract",
        contract,
        "--jsonl",
        str(tmp_path / "in.jsonl"),
        "-q",
        "-o",
        str(tmp_path / "ref.jsonl"),
    )
    done = gate_tui(
        "check",
        "--contract",
        contract,
        "--input",
        str(tmp_path / "in.parquet"),
        "--output",
        str(tmp_path / "out.jsonl"),
    )
    assert ref.returncode == done.returncode == 2
    assert (tmp_path / "out.jsonl").read_bytes() == (tmp_path / "ref.jsonl").read_bytes()
    assert "VALID" in done.stderr
