"""Contract-mode benchmark: ratios and rates measured in the same run (machines are noisy).

Goals (issue 12, contract mode):
1. a 1.5 KB ``llm_result_v1`` reply with a fence: ``check_contract`` ≤ 10× ``json.loads``
   of the inner JSON (median of many calls, both measured here);
2. ``gate-tui check --contract … --jsonl`` ≥ 10,000 replies/s with ``-j 1``: the real
   console script in a subprocess, wall time including start-up, on a JSONL of such
   replies (a mix of valid, repairable, lying and broken ones), best of ``--repeat`` runs.

3. prompts (issue 21): ≤ 2× the schema's size on real public schemas, ≤ 100 ms for a
   100 KB schema (``bench/contract_prompts.py``; ``--schema FILE`` adds any local schema).
4. the meta-schema check of a ~100 KB schema ≤ 50 ms (``bench_contract_load.py``, whose rows
   this table includes, with the whole load of that schema first and from the cache).
5. a reply full of errors costs what is listed (``bench_contract_errors.py``): time and peak
   RSS of ``check --contract`` on 60,000 bad tool calls and on a 3,000-branch ``oneOf``.

Informational rows (no goal) record why the validator is ``jsonschema-rs``: the same
schema and value validated by ``jsonschema`` (``Draft202012Validator`` + ``FormatChecker``)
and by ``jsonschema-rs``, all errors collected by both.

Run: ``python bench/bench_contract.py`` (``--quick`` for 20,000 lines). Prints a table and
exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from contract_prompts import prompt_rows  # noqa: E402  (bench/ is the script folder)
from timing import median_time  # noqa: E402

from gate_tui.contracts.checking import check_contract  # noqa: E402
from gate_tui.contracts.loading import load_contract  # noqa: E402

CONTRACT_PATH = ROOT / "sample_configs" / "contracts" / "llm_result_v1.yaml"
SCRIPT = Path(sys.executable).with_name("gate-tui")
GOAL_RATIO = 10.0
GOAL_RATE = 10_000


def turn(index: int = 0) -> dict:
    """A realistic LlmResultV1 turn: about 1.5 KB as a fenced reply with indented JSON."""
    ids = [
        str(uuid.UUID(int=(index * 7 + n) * 0x9E3779B97F4A7C15 % (1 << 128), version=4))
        for n in range(3)
    ]
    return {
        "narrative": (
            "The lantern gutters as the tunnel opens onto a flooded hall. Somewhere beyond the "
            "black, still water a bell "
            "rings once, then again, slower. Mira grips your sleeve and points at the far wall, "
            "where a stair climbs "
            "out of the water towards a door banded with old iron. The air smells of rust and old "
            "smoke. Far above, through a crack "
            "in the vaulted ceiling, a thin grey light falls on the water and shows shapes moving "
            "under its surface."
        ),
        "emotion": "fearful",
        "choices": [
            {
                "id": ids[0],
                "label": "Wade across to the stair",
                "description": "The water looks waist-deep and very cold.",
            },
            {"id": ids[1], "label": "Follow the ledge along the wall"},
            {
                "id": ids[2],
                "label": "Go back to the junction",
                "description": "Safer, but the bell will keep ringing.",
            },
        ],
        "npcResponses": [
            {
                "npcId": "mira",
                "response": "I am not going in there without a rope. Are you? Last time the water "
                "took the keeper's dog.",
                "emotion": "fearful",
            }
        ],
        "worldStateChanges": {"hall_flooded": True, "bell_rang": 2, "lantern_oil": 0.4},
        "relationshipDeltas": {"mira": -5, "old_keeper": 2},
        "factionDeltas": {"bellringers": 10},
        "debug": {"promptState": f"turn-{index}", "processingTime": 812.5, "tokenCount": 412},
    }


def fenced(inner: str) -> str:
    return f"Here is the next turn.\n\n```json\n{inner}\n```\n"




def row(name: str, measured: str, goal: str, ok: bool | None) -> tuple[str, str, str, str]:
    return (name, measured, goal, "" if ok is None else ("PASS" if ok else "MISS"))


def bench_single(repeat: int) -> list[tuple[str, str, str, str]]:
    contract = load_contract(CONTRACT_PATH)
    inner = json.dumps(turn(), indent=2)
    text = fenced(inner)
    assert check_contract(text, contract).ok, check_contract(text, contract).errors
    base = median_time(lambda: json.loads(inner), repeat, 2000)
    ours = median_time(lambda: check_contract(text, contract), repeat, 2000)
    ratio = ours / base
    rows = [
        row(
            f"check_contract, {len(text) / 1024:.1f} KB fenced reply",
            f"{ours * 1e6:.1f} µs = {ratio:.1f}× json.loads ({base * 1e6:.1f} µs)",
            f"≤ {GOAL_RATIO:.0f}×",
            ratio <= GOAL_RATIO,
        )
    ]
    lying = turn()
    lying["choices"][0]["id"] = "choice-1"
    lying["relationshipDeltas"]["mira"] = 150
    del lying["emotion"]
    invalid = fenced(json.dumps(lying, indent=2))
    bad = median_time(lambda: check_contract(invalid, contract), repeat, 1000)
    rows.append(
        row(
            "check_contract, same reply with 3 errors",
            f"{bad * 1e6:.1f} µs = {bad / base:.1f}× json.loads",
            "(info)",
            None,
        )
    )
    rows.extend(_validators(contract, json.loads(inner), repeat))
    return rows


def _validators(contract: object, value: dict, repeat: int) -> list[tuple[str, str, str, str]]:
    """Why jsonschema-rs: the same validation by both libraries, every error collected."""
    import jsonschema

    python = jsonschema.Draft202012Validator(
        contract.schema, format_checker=jsonschema.FormatChecker()
    )  # type: ignore[attr-defined]
    rust = contract.validator  # type: ignore[attr-defined]
    py_time = median_time(lambda: list(python.iter_errors(value)), repeat, 200)
    rs_time = median_time(lambda: list(rust.iter_errors(value)), repeat, 2000)
    return [
        row(
            "validate (all errors): jsonschema vs jsonschema-rs",
            f"{py_time * 1e6:.0f} µs vs {rs_time * 1e6:.1f} µs = {py_time / rs_time:.0f}× faster",
            "(info: the pick)",
            None,
        )
    ]


def write_jsonl(path: Path, lines: int) -> None:
    kinds = [
        "valid",
        "valid",
        "valid",
        "valid",
        "repairable",
        "repairable",
        "lying",
        "lying",
        "broken",
        "valid",
    ]
    with path.open("w", encoding="utf-8") as out:
        for index in range(lines):
            kind = kinds[index % len(kinds)]
            value = turn(index)
            inner = json.dumps(value, indent=2)
            if kind == "repairable":
                # trailing commas, the most common defect: after the last choice and the last debug
                # field
                inner = inner.replace("}\n  ],", "},\n  ],", 1).replace(
                    '"tokenCount": 412\n', '"tokenCount": 412,\n'
                )
            elif kind == "lying":
                value["choices"][1]["id"] = "choice-2"
                value["factionDeltas"]["bellringers"] = 250
                inner = json.dumps(value, indent=2)
            elif kind == "broken":
                inner = inner[: len(inner) // 2]
            out.write(json.dumps({"id": index, "reply": fenced(inner)}) + "\n")


def bench_batch(lines: int, repeat: int) -> list[tuple[str, str, str, str]]:
    with tempfile.TemporaryDirectory() as tmp:
        source, sink = Path(tmp) / "in.jsonl", Path(tmp) / "out.jsonl"
        write_jsonl(source, lines)
        size = source.stat().st_size
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            done = subprocess.run(
                [
                    str(SCRIPT),
                    "check",
                    "--contract",
                    str(CONTRACT_PATH),
                    "--jsonl",
                    str(source),
                    "-o",
                    str(sink),
                    "-j",
                    "1",
                    "-q",
                ],
                capture_output=True,
                check=False,
            )
            best = min(best, time.perf_counter() - start)
            if done.returncode not in (0, 2):
                return [
                    row(
                        "check --contract --jsonl -j 1",
                        f"exit {done.returncode}: {done.stderr.decode()[:200]}",
                        f"≥ {GOAL_RATE:,}/s",
                        False,
                    )
                ]
        written = sum(1 for _ in sink.open("rb"))
        rate = lines / best
        ok = written == lines and rate >= GOAL_RATE
        return [
            row(
                f"check --contract --jsonl -j 1, {lines:,} lines ({size / 1e6:.0f} MB)",
                f"{rate:,.0f} replies/s ({best:.2f} s incl. start-up)",
                f"≥ {GOAL_RATE:,}/s",
                ok,
            )
        ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 lines instead of 100,000")
    parser.add_argument("--lines", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--schema",
        action="append",
        default=[],
        metavar="FILE",
        help="also measure the prompt of this local schema (no goal)",
    )
    args = parser.parse_args()
    lines = args.lines or (20_000 if args.quick else 100_000)
    from bench_contract_errors import error_cost_rows  # replies full of errors (time, peak RSS)
    from bench_contract_load import bench_load  # the load of a ~100 KB schema (issue 21, item 8)

    rows = (
        bench_single(args.repeat)
        + bench_load(args.repeat)
        + bench_batch(lines, max(1, min(args.repeat, 3)))
        + prompt_rows(args.repeat, args.schema)
        + error_cost_rows()
    )
    header = ("case", "measured", "goal", "result")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    for index, current in enumerate([header, *rows]):
        print(" | ".join(cell.ljust(width) for cell, width in zip(current, widths, strict=True)))
        if index == 0:
            print("-+-".join("-" * width for width in widths))
    return 1 if any(r[3] == "MISS" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
