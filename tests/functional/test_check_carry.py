"""``check`` carries the input's other columns (JSON Lines: the record's other keys) into
its results for every output format (issue 32), so ``gate-tui stats RESULTS --by model``
works on JSON Lines results as on Parquet ones; ``--carry-columns`` names the ones kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.mixed_run import ML, MODELS, hand_count, mixed_rows  # noqa: E402


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path / "cache"))
    rows = mixed_rows()
    parquet = tmp_path / "in.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    jsonl = tmp_path / "in.jsonl"
    jsonl.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return {"parquet": parquet, "jsonl": jsonl}


def _groups(results: Path) -> dict[str, int]:
    done = gate_tui("stats", str(results), "--by", "model", "--format", "json")
    assert done.returncode == 0, done.stderr
    return {name: group["rows"] for name, group in json.loads(done.stdout)["groups"].items()}


def _records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    "how",
    [
        ("--input", "parquet"),  # Parquet in, JSON Lines out
        ("--input", "jsonl"),  # JSON Lines in and out through --input
        ("--jsonl", "jsonl"),  # check --jsonl IN
    ],
)
def test_jsonl_results_carry_the_model_and_stats_groups_by_it(
    inputs: dict[str, Path], tmp_path: Path, how: tuple[str, str]
) -> None:
    flag, kind = how
    out = tmp_path / "out.jsonl"
    done = gate_tui("check", "--config", str(ML), flag, str(inputs[kind]), "-o", str(out), "-q")
    assert done.returncode == 2, done.stderr
    records = _records(out)
    assert [record["model"] for record in records] == [row["model"] for row in mixed_rows()]
    assert all(record["kind"] for record in records)
    # What the check reads itself is not carried: the reply, the id (already first), usage.
    assert not any("reply" in record or "usage" in record for record in records)
    expected = hand_count(mixed_rows())
    assert _groups(out) == {model: expected[model]["rows"] for model in MODELS}


def test_the_result_is_unchanged_by_what_is_carried(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out.jsonl"
    gate_tui("check", "--config", str(ML), "--jsonl", str(inputs["jsonl"]), "-o", str(out), "-q")
    bare = tmp_path / "bare.jsonl"
    gate_tui(
        "check",
        "--config",
        str(ML),
        "--jsonl",
        str(inputs["jsonl"]),
        "-o",
        str(bare),
        "-q",
        "--carry-columns",
        "",
    )
    carried, plain = _records(out), _records(bare)
    assert all(set(record) == {"id", "line", "ok", "pass", "result"} for record in plain)
    for one, other in zip(carried, plain, strict=True):
        assert {key: one[key] for key in other} == other


def test_carry_columns_names_the_keys_kept_in_jsonl(
    inputs: dict[str, Path], tmp_path: Path
) -> None:
    for flag in ("--input", "--jsonl"):
        out = tmp_path / f"out{flag}.jsonl"
        done = gate_tui(
            "check",
            "--config",
            str(ML),
            flag,
            str(inputs["parquet" if flag == "--input" else "jsonl"]),
            "-o",
            str(out),
            "-q",
            "--carry-columns",
            "model",
        )
        assert done.returncode == 2, done.stderr
        records = _records(out)
        assert all("model" in record and "kind" not in record for record in records), flag


def test_a_key_the_results_use_is_carried_under_another_name(tmp_path: Path) -> None:
    rows = [{"id": 1, "reply": "no json", "ok": "from the pipeline", "model": 7}]
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(rows[0]) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    gate_tui("check", "--config", str(ML), "--jsonl", str(source), "-o", str(out), "-q")
    (record,) = _records(out)
    assert record["ok"] is False and record["input_ok"] == "from the pipeline"
    assert record["model"] == 7
    assert _groups(out) == {"7": 1}  # a number groups as its text
