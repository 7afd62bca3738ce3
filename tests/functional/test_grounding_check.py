"""Grounding in ``gate-tui check``: one reply with ``--conversation``, JSON Lines and Parquet
batches with a ``messages`` column (``-j 1`` and ``-j 2`` give the same findings), and a
contract's ``x-grounded`` strings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = """\
policy: {grounding: POLICY}
gates:
  1_goal: {question: "What is the goal?"}
  2_data: {question: "What data do you have?"}
"""
CONVERSATION = [
    {"role": "user", "content": "Our goal: cut support time."},
    {"role": "assistant", "content": "What data?"},
    {"role": "user", "content": "We have two years of labelled tickets."},
]


def reply(goal: str, data: str) -> str:
    gates = {
        "1_goal": {"raw": goal, "classified": None},
        "2_data": {"raw": data, "classified": None},
    }
    return json.dumps(
        {
            "summary": "",
            "gates": gates,
            "status": {"pass": True, "next_gate": None, "next_query": None},
        },
        indent=2,
    )


def gate_tui(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gate_tui", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )


def setup(tmp_path: Path, policy: str) -> None:
    (tmp_path / "cfg.yaml").write_text(CONFIG.replace("POLICY", policy), encoding="utf-8")
    (tmp_path / "conv.json").write_text(json.dumps(CONVERSATION), encoding="utf-8")
    (tmp_path / "invented.json").write_text(
        reply("cut support time", "A data lake in the cloud"), encoding="utf-8"
    )


def test_one_reply_with_a_conversation_names_the_finding_and_its_place(tmp_path: Path) -> None:
    setup(tmp_path, "warn")
    done = gate_tui(
        "check",
        "--config",
        "cfg.yaml",
        "--conversation",
        "conv.json",
        "invented.json",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "grounding: ungrounded (policy warn)" in done.stdout
    text = (tmp_path / "invented.json").read_text(encoding="utf-8")
    at = text.index('"A data lake')
    line, column = text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)
    assert (
        f"line {line}:{column}: gates.2_data.raw: 'A data lake in the cloud' is not the user's "
        f"words" in done.stdout
    )
    setup(tmp_path, "require")
    done = gate_tui(
        "check",
        "--config",
        "cfg.yaml",
        "--conversation",
        "conv.json",
        "invented.json",
        "--format",
        "json",
        cwd=tmp_path,
    )
    result = json.loads(done.stdout)
    assert (
        done.returncode == 1
        and result["decision"]["reason"] == "required_ungrounded"
        and result["decision"]["next_gate"] == "2_data"
    )


def test_a_bad_conversation_file_is_a_usage_error(tmp_path: Path) -> None:
    setup(tmp_path, "warn")
    (tmp_path / "bad.json").write_text('{"not": "messages"}', encoding="utf-8")
    done = gate_tui(
        "check", "--config", "cfg.yaml", "--conversation", "bad.json", "invented.json", cwd=tmp_path
    )
    assert done.returncode == 3 and "list of chat messages" in done.stderr


def test_batches_carry_messages_and_workers_agree(tmp_path: Path) -> None:
    setup(tmp_path, "require")
    rows = [
        {
            "id": n,
            "reply": reply(
                "cut support time", "two years of labelled tickets" if n % 2 else "invented data"
            ),
            "messages": CONVERSATION,
        }
        for n in range(40)
    ]
    rows.append({"id": 99, "reply": reply("invented", "invented")})  # no conversation: not checked
    (tmp_path / "in.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8"
    )
    one = gate_tui("check", "--config", "cfg.yaml", "--jsonl", "in.jsonl", "-q", cwd=tmp_path)
    two = gate_tui(
        "check", "--config", "cfg.yaml", "--jsonl", "in.jsonl", "-q", "-j", "2", cwd=tmp_path
    )
    assert one.stdout == two.stdout and one.stdout
    records = [json.loads(line) for line in one.stdout.splitlines()]
    assert [r["result"]["decision"]["reason"] for r in records[:2]] == [
        "required_ungrounded",
        "all_required_complete",
    ]
    assert "grounding" not in records[-1]["result"] and records[-1]["pass"] is True
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    done = gate_tui(
        "check", "--config", "cfg.yaml", "--input", "in.jsonl", "-o", "out.parquet", cwd=tmp_path
    )
    assert done.returncode in (0, 1), done.stderr
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.column("grounding").to_pylist()[:3] == ["ungrounded", "grounded", "ungrounded"]
    assert table.column("grounding").to_pylist()[-1] is None
    from gate_tui.results.filtering import ResultFilter, matching_rows
    from gate_tui.results.index import open_results

    for results in ("out.parquet", "out.jsonl"):
        if results == "out.jsonl":
            (tmp_path / "out.jsonl").write_text(one.stdout, encoding="utf-8")
        index, problem = open_results(tmp_path / results)
        assert problem is None
        kept = matching_rows(index.table, ResultFilter(grounding="ungrounded")).to_pylist()
        assert kept == list(range(0, 40, 2)), results


def test_a_contract_field_marked_x_grounded_must_quote_the_user(tmp_path: Path) -> None:
    setup(tmp_path, "warn")
    schema = {"type": "object", "properties": {
        "quote": {"type": "string", "x-grounded": True},
        "tags": {"type": "array", "items": {"type": "string", "x-grounded": True}},
        "note": {"type": "string"},
    }, "x-gate-tui": {"grounding": "require"}}
    (tmp_path / "c.json").write_text(json.dumps(schema), encoding="utf-8")
    value = {
        "quote": "two years of labelled tickets",
        "tags": ["cut support time", "a moon base"],
        "note": "free text",
    }
    (tmp_path / "r.json").write_text(json.dumps(value), encoding="utf-8")
    done = gate_tui(
        "check",
        "--contract",
        "c.json",
        "--conversation",
        "conv.json",
        "r.json",
        "--format",
        "json",
        cwd=tmp_path,
    )
    result = json.loads(done.stdout)
    assert done.returncode == 2 and [(e["path"], e["code"]) for e in result["errors"]] == [
        ("/tags/1", "rule_failed")
    ]


def test_the_arrow_batch_function_that_ray_runs_reads_messages_as_a_list_or_as_json_text() -> None:
    pa = pytest.importorskip("pyarrow")
    from gate_tui.models import GateConfig
    from gate_tui.runs.arrow_rows import check_arrow, gate_settings

    config = GateConfig.model_validate(
        {"gates": {"1_goal": {"question": "g"}, "2_data": {"question": "d"}}}
    )
    replies = [
        reply("cut support time", "invented"),
        reply("cut support time", "two years of labelled tickets"),
    ]
    as_list = pa.table(
        {"id": ["a", "b"], "reply": replies, "messages": [CONVERSATION, CONVERSATION]}
    )
    as_text = pa.table(
        {"id": ["a", "b"], "reply": replies, "messages": [json.dumps(CONVERSATION)] * 2}
    )
    outs = [check_arrow(table, gate_settings(config)) for table in (as_list, as_text)]
    assert [out.column("grounding").to_pylist() for out in outs] == [["ungrounded", "grounded"]] * 2
    assert outs[0].column("result").to_pylist() == outs[1].column("result").to_pylist()
