"""Prompt rows of ``bench/bench_contract.py`` (issue 21, prompts that fit).

Goals, through the public :func:`gate_tui.contracts.prompting.prompt_report`:

1. on each real public schema in ``tests/data/schemas`` (JSON Schema Store: Prettier, a
   Helm chart, Kustomize, a GitHub Action) the prompt is at most 2x the schema's own
   compact JSON size;
2. a 100 KB schema's prompt takes at most 100 ms. The 100 KB schema is made of real parts:
   copies of those four schemas side by side under ``$defs`` (their ``$ref``s rewritten
   to point into their copy), a root property referring to each copy.

``--schema FILE`` adds rows (no goal) for any local schema file, e.g. SARIF 2.1.0.
"""

from __future__ import annotations

import json
from pathlib import Path

from timing import min_time

from gate_tui.contracts.loading import Contract
from gate_tui.contracts.prompting import prompt_report

REAL = Path(__file__).resolve().parent.parent / "tests" / "data" / "schemas"
GOAL_SIZE = 2.0
GOAL_MS = 100.0
BIG = 100 * 1024


def _compact(schema: object) -> int:
    return len(json.dumps(schema, separators=(",", ":"), ensure_ascii=False))


def _size_row(name: str, schema: dict, repeat: int, goal: bool) -> tuple[str, str, str, str]:
    contract = Contract(schema, name)
    report = prompt_report(contract)
    seconds = min_time(lambda: prompt_report(contract), repeat)
    ratio = report.size / _compact(schema)
    verdict = ("PASS" if ratio <= GOAL_SIZE else "MISS") if goal else ""
    measured = (
        f"{report.size:,} chars = {ratio:.2f}× its {_compact(schema):,} chars "
        f"({seconds * 1e3:.1f} ms)"
    )
    return (
        f"prompt --contract {name}",
        measured,
        f"≤ {GOAL_SIZE:.0f}×" if goal else "(info)",
        verdict,
    )


def big_schema(size: int = BIG) -> dict:
    """A schema of at least ``size`` characters (compact JSON) made of copies of the real ones."""
    parts = [json.loads(path.read_text(encoding="utf-8")) for path in sorted(REAL.glob("*.json"))]
    defs: dict[str, object] = {}
    properties: dict[str, object] = {}
    copy = 0
    while _compact({"$defs": defs}) < size:
        for part in parts:
            name = f"copy{copy}"
            text = (
                json.dumps(part)
                .replace('"#/', f'"#/$defs/{name}/')
                .replace('"#"', f'"#/$defs/{name}"')
            )
            defs[name] = json.loads(text)
            properties[name] = {"$ref": f"#/$defs/{name}"}
            copy += 1
    return {"type": "object", "$defs": defs, "properties": properties}


def prompt_rows(repeat: int, extra: list[str]) -> list[tuple[str, str, str, str]]:
    rows = [
        _size_row(path.name, json.loads(path.read_text(encoding="utf-8")), repeat, True)
        for path in sorted(REAL.glob("*.json"))
    ]
    rows += [
        _size_row(
            Path(name).name, json.loads(Path(name).read_text(encoding="utf-8")), repeat, False
        )
        for name in extra
    ]
    schema = big_schema()
    contract = Contract(schema, "big.json")
    seconds = min_time(lambda: prompt_report(contract), repeat)
    ms = seconds * 1e3
    rows.append(
        (
            f"prompt_report, a {_compact(schema) / 1024:.0f} KB schema",
            f"{ms:.1f} ms ({prompt_report(contract).size:,} chars)",
            f"≤ {GOAL_MS:.0f} ms",
            "PASS" if ms <= GOAL_MS else "MISS",
        )
    )
    return rows
