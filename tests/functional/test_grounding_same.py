"""The same replies and conversations give the same grounding findings on every path of
``check``: one reply with ``--conversation``, ``--jsonl`` with ``-j 1`` and ``-j 2``,
``--input`` Parquet, and Ray (when ``ray`` imports; local mode, a few rows)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """\
policy: {grounding: warn}
gates:
  1_goal: {question: "What is the goal?"}
  2_data: {question: "What data do you have?"}
  3_owner: {question: "Who owns it?", expected_categories: [team, vendor]}
"""
CONVERSATION = [
    {"role": "system", "content": "You fill the gates."},
    {"role": "user", "content": "Our goal: cut support time in half."},
    {"role": "assistant", "content": "What data?"},
    {"role": "user", "content": "We have two years of labeled tickets, refreshed nightly."},
]
ANSWERS = [
    # exact, near (a fixed typo), invented, and a category for an answer nobody gave
    ("cut support time in half", "two years of labelled tickets", None, "team"),
    ("“Cut support time”", "A data lake in the cloud", "the platform team", None),
    ("cut SUPPORT time.", "two years of labeled tickets", None, None),
]


def reply(goal: str, data: str, owner: str | None, owner_class: str | None) -> str:
    gates = {
        "1_goal": {"raw": goal, "classified": None},
        "2_data": {"raw": data, "classified": None},
        "3_owner": {"raw": owner, "classified": owner_class},
    }
    state = {
        "summary": "",
        "gates": gates,
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }
    return "The state:\n```json\n" + json.dumps(state, indent=2, ensure_ascii=False) + "\n```"


def gate_tui(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=180,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def findings_of(result: dict[str, Any]) -> list[dict[str, Any]]:
    return result["grounding"]["findings"]


@pytest.fixture
def batch(tmp_path: Path) -> tuple[Path, list[list[dict[str, Any]]]]:
    """The input rows, and each reply's findings from ``check`` on that reply alone."""
    (tmp_path / "cfg.yaml").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "conv.json").write_text(json.dumps(CONVERSATION), encoding="utf-8")
    rows, single = [], []
    for n, answers in enumerate(ANSWERS):
        text = reply(*answers)
        (tmp_path / f"r{n}.txt").write_text(text, encoding="utf-8")
        done = gate_tui(
            "check", "--config", "cfg.yaml", "--conversation", "conv.json", f"r{n}.txt",
            "--format", "json", cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stderr
        single.append(findings_of(json.loads(done.stdout)))
        rows.append({"id": n, "reply": text, "messages": CONVERSATION})
    (tmp_path / "in.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return tmp_path, single


def test_the_findings_name_each_kind_once_so_the_comparison_means_something(
    batch: tuple[Path, list[list[dict[str, Any]]]],
) -> None:
    _, single = batch
    kinds = {f["kind"] for findings in single for f in findings}
    assert kinds == {"grounded", "near", "ungrounded", "classified_ungrounded"}
    assert all(f["line"] is not None for findings in single for f in findings)


def test_jsonl_with_one_or_two_workers_and_parquet_give_the_single_reply_findings(
    batch: tuple[Path, list[list[dict[str, Any]]]],
) -> None:
    folder, single = batch
    for jobs in ("1", "2"):
        done = gate_tui(
            "check", "--config", "cfg.yaml", "--jsonl", "in.jsonl", "-q", "-j", jobs, cwd=folder
        )
        records = [json.loads(line) for line in done.stdout.splitlines()]
        assert [findings_of(r["result"]) for r in records] == single, jobs
    pq = pytest.importorskip("pyarrow.parquet")
    done = gate_tui(
        "check", "--config", "cfg.yaml", "--input", "in.jsonl", "-o", "out.parquet", cwd=folder
    )
    assert done.returncode in (0, 1), done.stderr
    table = pq.read_table(folder / "out.parquet").sort_by("id")
    results = [json.loads(cell) for cell in table.column("result").to_pylist()]
    assert [findings_of(r) for r in results] == single
    assert table.column("grounding").to_pylist() == ["ungrounded", "ungrounded", "grounded"]


def test_ray_gives_the_single_reply_findings(
    batch: tuple[Path, list[list[dict[str, Any]]]],
) -> None:
    ray = pytest.importorskip("ray")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from gate_tui.config.loading import load_config
    from gate_tui.runs.arrow_rows import Columns, gate_settings
    from gate_tui.runs.ray_run import run_on_ray

    folder, single = batch
    rows = [json.loads(line) for line in (folder / "in.jsonl").read_text().splitlines()]
    table = pa.table(
        {
            "id": [r["id"] for r in rows],
            "reply": [r["reply"] for r in rows],
            "messages": [json.dumps(r["messages"]) for r in rows],  # a column of JSON text
        }
    )
    pq.write_table(table, folder / "in.parquet")
    # A short folder of its own: Ray's socket paths must stay under the 107-byte limit.
    with tempfile.TemporaryDirectory(prefix="ray", dir="/tmp") as temp:
        ray.init(
            num_cpus=2,
            _temp_dir=temp,
            include_dashboard=False,
            logging_level="ERROR",
            log_to_driver=False,
        )
        try:
            run_on_ray(
                str(folder / "in.parquet"),
                str(folder / "ray_out"),
                gate_settings(load_config(folder / "cfg.yaml")),
                Columns(),
                jobs=1,
                quiet=True,
            )
        finally:
            ray.shutdown()
    out = pq.read_table(folder / "ray_out").sort_by("id")
    results = [json.loads(cell) for cell in out.column("result").to_pylist()]
    assert [findings_of(r) for r in results] == single
