"""The Textual-free side of ``gate-tui review``: the results index (Parquet by row groups,
JSON Lines by line offsets with a cached index), columnar filters, the verdict journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from gate_tui.results.filtering import ResultFilter, choices, matching_rows  # noqa: E402
from gate_tui.results.index import index_cache_path, open_results  # noqa: E402
from gate_tui.results.verdicts import VerdictStore, export_csv, verdicts_path  # noqa: E402
from tests.helpers.cli import gate_tui  # noqa: E402
from tests.helpers.eval_data import ML, arrow_rows, items, write_jsonl, write_parquet  # noqa: E402

ROWS = 2_000


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("results")
    rows = arrow_rows(items(ROWS))
    write_jsonl(folder / "in.jsonl", rows)
    write_parquet(folder / "in.parquet", rows)
    for name, source in (("out.jsonl", "in.jsonl"), ("out.parquet", "in.parquet")):
        done = gate_tui(
            "check",
            "--config",
            str(ML),
            "--input",
            str(folder / source),
            "--output",
            str(folder / name),
            "-q",
        )
        assert done.returncode == 2, done.stderr
    return {"jsonl": folder / "out.jsonl", "parquet": folder / "out.parquet"}


def test_jsonl_and_parquet_results_give_the_same_index(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path))
    from_jsonl, problem = open_results(results["jsonl"])
    assert problem is None and from_jsonl is not None
    from_parquet, _ = open_results(results["parquet"])
    assert from_parquet is not None and from_jsonl.rows == from_parquet.rows == ROWS
    assert from_jsonl.table.equals(from_parquet.table)
    records = [json.loads(line) for line in results["jsonl"].read_text().splitlines()]
    for row in (0, 7, 19, 1234, ROWS - 1):
        assert (
            json.loads(from_jsonl.result_text(row))
            == records[row]["result"]
            == json.loads(from_parquet.result_text(row))
        )
        assert from_jsonl.summary(row)["status"] == (
            "invalid" if not records[row]["ok"] else "PASS" if records[row]["pass"] else "NO PASS"
        )
    assert sum(from_jsonl.counts().values()) == ROWS


def test_the_jsonl_index_is_cached_and_a_changed_file_is_indexed_again(
    results: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path))
    copy = tmp_path / "copy.jsonl"
    copy.write_bytes(results["jsonl"].read_bytes())
    first, _ = open_results(copy)
    info = copy.stat()
    cache = index_cache_path(copy, info.st_size, info.st_mtime_ns)
    assert cache.is_file() and first is not None
    again, _ = open_results(copy)
    assert again is not None and again.table.equals(first.table) and again.offsets == first.offsets
    with copy.open("ab") as out:  # a new version: a new key, a fresh index
        out.write(copy.read_bytes().splitlines(keepends=True)[0])
    grown, _ = open_results(copy)
    assert grown is not None and grown.rows == ROWS + 1


def test_a_file_pyarrow_refuses_is_still_indexed_and_junk_is_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GATE_TUI_CACHE_DIR", str(tmp_path))
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        '{"id":"a","line":1,"ok":true,"pass":true,"result":{"ok":true,"decision":{"reason":"'
        'all_required_complete"}}}\nnot json\n'
    )
    index, problem = open_results(odd)
    assert problem is None and index is not None and index.rows == 2
    assert index.summary(1)["status"] == "invalid" and index.summary(0)["status"] == "PASS"
    mixed = tmp_path / "mixed.jsonl"
    head = (
        '"line":{},"ok":false,"pass":null,"result":{{"ok":false,"errors":[{{"code":"'
        'missing_key"}}]}}}}'
    )
    mixed.write_text(
        '{"id":5,'
        + head.format(1)
        + '\n\n{"id":{"k":1},'
        + head.format(3)
        + '\n{"id":null,'
        + head.format(4)
        + "\n"
    )
    index, _ = open_results(mixed)
    assert index is not None and index.table.column("id").to_pylist() == ["5", '{"k":1}', None]
    assert (
        index.table.column("line").to_pylist() == [1, 3, 4]
        and json.loads(index.result_text(1))["errors"][0]["code"] == "missing_key"
    )
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"nothing")
    assert open_results(junk)[0] is None and "junk.parquet" in (open_results(junk)[1] or "")
    assert open_results(tmp_path / "missing.jsonl")[1] is not None


@pytest.mark.parametrize(
    "wanted",
    [
        ResultFilter(status="NO PASS"),
        ResultFilter(code="invalid_value"),
        ResultFilter(gate="2_use_case"),
        ResultFilter(guessed=True),
        ResultFilter(text="R19"),
        ResultFilter(status="invalid", text="json"),
        ResultFilter(),
    ],
)
def test_filters_keep_exactly_the_rows_a_plain_loop_would(
    results: dict[str, Path], wanted: ResultFilter
) -> None:
    index, _ = open_results(results["parquet"])
    assert index is not None
    expected = []
    for row, item in enumerate(index.table.to_pylist()):
        fields = [
            item["id"] or "",
            item["reason"] or "",
            item["next_gate"] or "",
            *item["error_codes"],
        ]
        if (
            (not wanted.status or item["status"] == wanted.status)
            and (not wanted.code or wanted.code in item["error_codes"])
            and (not wanted.gate or item["next_gate"] == wanted.gate)
            and (not wanted.guessed or item["guessed"])
            and (not wanted.text or any(wanted.text.lower() in field.lower() for field in fields))
        ):
            expected.append(row)
    assert matching_rows(index.table, wanted).to_pylist() == expected
    assert expected or wanted.guessed  # the data has rows for every other filter


def test_choices_list_codes_and_gates_most_frequent_first(results: dict[str, Path]) -> None:
    index, _ = open_results(results["parquet"])
    assert index is not None
    assert "invalid_json" in choices(index.table, "error_codes") and "2_use_case" in choices(
        index.table, "next_gate"
    )


def test_verdicts_are_journaled_beside_the_results_and_exported(tmp_path: Path) -> None:
    results = tmp_path / "run.parquet"
    store = VerdictStore(results)
    assert store.give(3, "r3", "accepted", "fine") is None
    assert store.give(5, "=cmd()", "rejected") is None
    assert store.give(3, "r3", "needs-fix", "gate 2 is vague") is None
    assert store.give(9, "r9", "accepted") is None and store.give(9, "r9", "cleared") is None
    assert store.give(1, None, "maybe") is not None
    store.close()
    again = VerdictStore(results)
    assert verdicts_path(results).is_file()
    assert {row: verdict.verdict for row, verdict in again.latest.items()} == {
        3: "needs-fix",
        5: "rejected",
    }
    assert again.get(3).note == "gate 2 is vague" and again.counts()["rejected"] == 1
    target = tmp_path / "verdicts.csv"
    assert export_csv(again, target, lambda row: {"line": row + 1, "status": "PASS"}) is None
    lines = target.read_text().splitlines()
    assert lines[0] == "row,line,id,status,verdict,note,at,reviewer,source,reviewers"
    assert lines[1].startswith("3,4,r3,PASS,needs-fix,gate 2 is vague,") and lines[2].startswith(
        "5,6,'=cmd(),PASS,rejected,,"
    )


def test_a_verdict_given_survives_kill_9_and_a_torn_line_is_dropped(tmp_path: Path) -> None:
    results = tmp_path / "run.jsonl"
    code = (
        "import os, sys\nfrom pathlib import Path\nfrom gate_tui.results.verdicts import "
        "VerdictStore\n"
        f"store = VerdictStore(Path({str(results)!r}))\n"
        "assert store.give(7, 'r7', 'rejected', 'wrong gate') is None\n"
        "os.kill(os.getpid(), 9)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == -9
    with verdicts_path(results).open("ab") as out:
        out.write(b'{"kind":"verdict","row":8,"verd')  # a write cut off by a crash
    store = VerdictStore(results)
    assert store.get(7) is not None and store.get(7).note == "wrong gate" and store.get(8) is None
    assert store.give(8, "r8", "accepted") is None
    store.close()
    assert VerdictStore(results).get(8) is not None and os.path.getsize(verdicts_path(results)) > 0
