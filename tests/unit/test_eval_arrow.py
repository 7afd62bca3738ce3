"""The engine-neutral batch function (``check_arrow``) against ``check --jsonl``: same
records byte for byte, output columns that agree with each result, picklable arguments."""

from __future__ import annotations

import io
import json
import pickle

import pytest

pa = pytest.importorskip("pyarrow")

from gate_tui import load_config  # noqa: E402
from gate_tui.contracts.loading import check_contract_file  # noqa: E402
from gate_tui.runs.arrow_rows import (  # noqa: E402
    OUTPUT_COLUMNS,
    Columns,
    GateCheck,
    RowChecker,
    check_arrow,
    gate_settings,
)
from gate_tui.runs.contract_rows import contract_settings  # noqa: E402
from gate_tui.runs.engine import make_checker, run_batch  # noqa: E402
from tests.conftest import CONFIGS  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, table  # noqa: E402

ROWS = 10_000


def jsonl_records(rows: list[dict], settings=None) -> bytes:
    data = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode("utf-8")
    out = io.BytesIO()
    run_batch(
        io.BytesIO(data), out, load_config(ML), None, "assistant", quiet=True, settings=settings
    )
    return out.getvalue()


def result_of(line: bytes) -> str:
    """The ``"result"`` value of a ``check --jsonl`` record, as written."""
    return line[line.index(b',"result":') + len(b',"result":') : -1].decode("utf-8")


def test_results_equal_check_jsonl_byte_for_byte_on_a_mixed_10000_row_input() -> None:
    rows = arrow_rows(items(ROWS))
    expected = jsonl_records(rows)
    settings = gate_settings(load_config(ML))
    checked = RowChecker(make_checker(settings)).arrow(table(rows), 1, Columns(), want_lines=True)
    assert checked.lines == expected  # the whole records, as check --jsonl writes them
    out = check_arrow(table(rows), settings)
    assert out.column_names == list(OUTPUT_COLUMNS) and out.num_rows == ROWS
    lines = expected.splitlines()
    assert out.column("result").to_pylist() == [result_of(line) for line in lines]
    records = [json.loads(line) for line in lines]
    assert out.column("ok").to_pylist() == [record["ok"] for record in records]
    assert out.column("pass").to_pylist() == [record["pass"] for record in records]
    assert out.column("id").to_pylist() == [row["id"] for row in rows]
    assert out.column("line").to_pylist() == list(range(1, ROWS + 1))
    # the mix really is mixed: every verdict, escapes, bad previous states, null replies
    assert {True, False, None} == set(out.column("pass").to_pylist())
    assert b"\\u202e" in expected and b"\\u0085" in expected
    codes = {
        code
        for record in records
        for code in (error["code"] for error in record["result"]["errors"])
    }
    assert {"invalid_value", "invalid_type"} <= codes


def test_summary_columns_agree_with_each_result() -> None:
    out = check_arrow(table(arrow_rows(items(200))), gate_settings(load_config(ML)))
    for row in out.to_pylist():
        result = json.loads(row["result"])
        decision = result["decision"] or {}
        assert row["reason"] == (decision.get("reason") if result["ok"] else None)
        assert row["next_gate"] == (decision.get("next_gate") if result["ok"] else None)
        assert row["error_codes"] == [error["code"] for error in result["errors"]]
        assert row["repairs"] == len(result["repairs"])
        assert row["guessed"] == any(repair["certainty"] == "guess" for repair in result["repairs"])
        assert row["warnings"] == sum(
            1 for w in result["warnings"] if not w["code"].startswith("repaired")
        )
    assert sum(out.column("repairs").to_pylist()) > 0


def test_record_batches_pickled_settings_and_first_line_give_the_same_rows() -> None:
    rows = arrow_rows(items(120))
    settings = pickle.loads(pickle.dumps(gate_settings(load_config(ML))))
    whole = check_arrow(table(rows), settings)
    parts = [
        check_arrow(batch, settings, first_line=1 + 50 * index)
        for index, batch in enumerate(table(rows).to_batches(max_chunksize=50))
    ]
    assert pa.concat_tables(parts).equals(whole)
    assert check_arrow(table(rows), settings).equals(whole)  # deterministic


def test_gate_check_class_reads_a_config_file_and_leaves_line_null() -> None:
    check = pickle.loads(pickle.dumps(GateCheck(str(ML))))
    out = check(table(arrow_rows(items(30))))
    assert out.column("line").null_count == 30
    assert (
        out.column("result").to_pylist()
        == check_arrow(table(arrow_rows(items(30))), gate_settings(load_config(ML)))
        .column("result")
        .to_pylist()
    )
    with pytest.raises(ValueError):
        GateCheck(str(CONFIGS / "replies" / "ml_good.md"))


def test_actor_column_and_bad_cells_are_row_errors_not_exceptions() -> None:
    batch = pa.table({
        "reply": ['{"summary": "patched by a person"}', "x", "x"],
        "actor": ["user", "robot", None],
        "previous_state": [None, None, "{not json"],
    })
    out = check_arrow(batch, gate_settings(load_config(ML))).to_pylist()
    assert (
        out[0]["ok"] is True
        and json.loads(out[0]["result"])["canonical_state"]["summary"] == "patched by a person"
    )
    assert out[1]["error_codes"] == ["invalid_value"] and "robot" in out[1]["result"]
    assert (
        out[2]["error_codes"] == ["invalid_value"]
        and "previous_state is not valid JSON" in out[2]["result"]
    )
    with pytest.raises(KeyError):
        check_arrow(pa.table({"text": ["x"]}), gate_settings(load_config(ML)))


def test_contract_mode_equals_check_contract_jsonl() -> None:
    contract, _ = check_contract_file(str(CONFIGS / "contracts" / "llm_result_v1.yaml"))
    assert contract is not None
    settings = contract_settings(contract, False)
    replies = [
        (CONFIGS / "contracts" / "replies" / f"llm_result_v1_{kind}.md").read_text()
        for kind in ("good", "broken", "lying", "repairable")
    ]
    rows = [{"id": f"c{index}", "reply": replies[index % 4]} for index in range(40)]
    expected = jsonl_records(rows, settings).splitlines()
    out = check_arrow(
        pa.table({"id": [row["id"] for row in rows], "reply": [row["reply"] for row in rows]}),
        settings,
    )
    assert out.column("result").to_pylist() == [result_of(line) for line in expected]
    assert out.column("pass").null_count == 40 and set(out.column("ok").to_pylist()) == {
        True,
        False,
    }
