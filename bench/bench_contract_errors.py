"""What a reply full of errors costs in contract mode: wall time and peak memory of the real
console script (``gate-tui check --contract``) on replies whose errors the validator would
build all at once (a 2 MB reply of 60,000 bad tool calls against a 2-branch function-calling
contract; 200 items against a 3,000-branch ``oneOf``). Before the item-by-item check
(:mod:`gate_tui.contracts.splitting`) they took 25 s / 2 GB and 76 s / 4.5 GB."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = Path(sys.executable).with_name("gate-tui")


TOOLS = json.loads(
    (
        Path(__file__).resolve().parent.parent / "sample_configs" / "contracts" / "tool_calls.json"
    ).read_text(encoding="utf-8")
)


def _branches(count: int) -> dict:
    def branch(n: int) -> dict:
        return {
            "type": "object",
            "properties": {"type": {"const": f"t{n}"}, "v": {"type": "integer"}},
            "required": ["type", "v"],
            "additionalProperties": False,
        }
    return {
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"oneOf": [branch(n) for n in range(count)]}}
        },
    }


def _run(schema: dict, reply: object) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB and the number of error records of one check."""
    with tempfile.TemporaryDirectory() as tmp:
        contract, source = Path(tmp) / "contract.json", Path(tmp) / "reply.json"
        contract.write_text(json.dumps(schema))
        source.write_text(json.dumps(reply))
        start = time.perf_counter()
        args = [str(SCRIPT), "check", "--contract", str(contract), str(source), "--format", "json"]
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out = process.stdout.read() if process.stdout else b""
        _, _, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
    try:
        records = len(json.loads(out)["errors"])
    except (ValueError, KeyError, TypeError):
        records = -1
    return elapsed, usage.ru_maxrss / 1024, records


def error_cost_rows() -> list[tuple[str, str, str, str]]:
    cases = [
        (
            "check --contract, 60,000 bad tool calls (2 MB), 2-branch oneOf",
            TOOLS,
            {"tool_calls": [{"name": "x", "arguments": {"q": 1}}] * 60_000},
            "was 25 s / 2 GB",
        ),
        (
            "check --contract, 200 items, 3,000-branch oneOf",
            _branches(3000),
            {"items": [{"type": "t2999", "v": "x", "extra": 1}] * 200},
            "was 76 s / 4.5 GB",
        ),
    ]
    rows = []
    for name, schema, reply, before in cases:
        seconds, peak, records = _run(schema, reply)
        ok = 0 < records <= 201
        rows.append(
            (
                name,
                f"{seconds:.2f} s, peak RSS {peak:,.0f} MB, {records} records",
                f"≤ 201 records ({before})",
                "PASS" if ok else "MISS",
            )
        )
    return rows


if __name__ == "__main__":
    for row in error_cost_rows():
        print(" | ".join(row))
