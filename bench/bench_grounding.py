"""Grounding benchmark: what checking ``raw`` answers against the user's words costs.

Goals (issue 29, grounded answers):
1. grounding adds at most 20% to ``gate-tui check --jsonl`` wall time on replies that
   carry a 2 KB conversation: the same input file run with ``grounding: off`` (baseline)
   and with the default ``warn``, as a ratio in the same run (the rate without any
   ``messages`` is shown too, for scale);
2. linear in the conversation's length: :func:`gate_tui.grounding.apply.ground` on a
   reply of 50 gates (half of them invented, so every near-match alignment runs) against
   a 256 KB, 512 KB and 1 MB conversation; each doubling may cost at most 2.5x.

Every figure is the best of ``--repeat`` runs. Run: ``python bench/bench_grounding.py``
(``--quick`` for fewer lines). Prints a table and exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import min_time  # noqa: E402
from gate_tui.config.loading import load_config  # noqa: E402
from gate_tui.grounding.apply import ground  # noqa: E402
from gate_tui.models import GateConfig  # noqa: E402
from gate_tui.parsing.pipeline import parse  # noqa: E402

CONFIG = ROOT / "sample_configs" / "ml_project_intake.yaml"
GOAL_ADDED = 0.20
GOAL_DOUBLING = 2.5
ANSWERS = {
    "1_data_availability": "Two years of labelled tickets in the warehouse, refreshed nightly",
    "2_use_case": "Rank incoming support tickets so urgent ones reach an agent first",
    "3_success_metric": "Median time-to-first-response down 20% in the pilot queue",
    "4_data_privacy": "Ticket text reviewed by the privacy office in March",
    "5_stakeholder": "Head of customer support",
}


def conversation(size: int) -> list[dict[str, str]]:
    """User turns holding the answers (one says it slightly differently), padded to ``size``
    bytes."""
    turns = [
        f"About {key.split('_', 1)[1].replace('_', ' ')}: {text}." for key, text in ANSWERS.items()
    ]
    turns[2] = turns[2].replace("Median", "The median")
    filler = "We talked it over with the team and the notes are in the wiki. "
    messages = [{"role": "system", "content": "You fill the gates."}]
    for turn in turns:
        messages += [
            {"role": "user", "content": turn},
            {"role": "assistant", "content": "Thanks, noted."},
        ]
    while len(json.dumps(messages)) < size:
        messages.append({"role": "user", "content": filler * 4})
    return messages


def reply() -> str:
    gates = {key: {"raw": text, "classified": None} for key, text in ANSWERS.items()}
    gates["1_data_availability"]["classified"] = "available"
    gates["4_data_privacy"]["classified"] = "approved"
    state = {
        "summary": "Ticket routing",
        "gates": gates,
        "status": {"pass": True, "next_gate": None, "next_query": None},
    }
    return "Here is the state:\n```json\n" + json.dumps(state, indent=2) + "\n```"


def run_check(config: Path, jsonl: Path, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        command = [
            sys.executable,
            "-m",
            "gate_tui",
            "check",
            "--config",
            str(config),
            "--jsonl",
            str(jsonl),
            "-q",
            "-o",
            "/dev/null",
        ]
        done = subprocess.run(
            command,
            check=False,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
        )
        if done.returncode == 3:  # a usage or config error: no figure at all
            raise SystemExit(f"check failed: {done.stderr.strip()}")
        best = min(best, time.perf_counter() - start)
    return best


def throughput(lines: int, repeat: int, folder: Path) -> bool:
    text = CONFIG.read_text(encoding="utf-8")
    off, warn = folder / "off.yaml", folder / "warn.yaml"
    off.write_text(text.replace("policy:\n", 'policy:\n  grounding: "off"\n', 1), encoding="utf-8")
    warn.write_text(text.replace("policy:\n", "policy:\n  grounding: warn\n", 1), encoding="utf-8")
    body, messages = reply(), conversation(2048)
    plain, talk = folder / "plain.jsonl", folder / "talk.jsonl"
    plain.write_text(
        "".join(json.dumps({"id": i, "reply": body}) + "\n" for i in range(lines)), encoding="utf-8"
    )
    talk.write_text(
        "".join(
            json.dumps({"id": i, "reply": body, "messages": messages}) + "\n" for i in range(lines)
        ),
        encoding="utf-8",
    )
    base_plain = run_check(warn, plain, repeat)
    # Interleaved (off, warn, off, warn…), each the best of its rounds: a machine that
    # gets busier during the run slows both alike.
    base = grounded = float("inf")
    for _ in range(repeat):
        base = min(base, run_check(off, talk, 1))
        grounded = min(grounded, run_check(warn, talk, 1))
    added = grounded / base - 1
    print(f"check --jsonl, {lines:,} replies, -j 1 (best of {repeat})")
    print(f"  no conversation                 {lines / base_plain:10,.0f} replies/s")
    print(f"  2 KB conversation, off          {lines / base:10,.0f} replies/s   (baseline)")
    print(
        f"  2 KB conversation, warn         {lines / grounded:10,.0f} replies/s   added "
        f"{added:+.1%} (goal <= {GOAL_ADDED:.0%})"
    )
    per_reply(body, messages, repeat)
    return added <= GOAL_ADDED


def per_reply(body: str, messages: list[dict[str, str]], repeat: int) -> None:
    """In process, for scale: ``parse`` and ``ground`` on one line's reply and conversation."""
    config = load_config(CONFIG)
    config = config.model_copy(
        update={"policy": config.policy.model_copy(update={"grounding": "warn"})}
    )
    result = parse(body, config)
    parsing = min_time(lambda: parse(body, config), repeat * 5, 2000)
    grounding = min_time(lambda: ground(result, config, messages, body), repeat * 5, 2000)
    print(
        f"  in process, per reply: parse() {parsing * 1e6:.1f} µs, ground() "
        f"{grounding * 1e6:.1f} µs"
    )


def linearity(repeat: int) -> bool:
    config = GateConfig.model_validate(
        {
            "gates": {f"g{n:02d}": {"question": f"Question {n}?"} for n in range(50)},
            "policy": {"grounding": "warn"},
        }
    )
    words = "the quick brown fox jumps over a lazy dog while support tickets pile up in the queue "
    gates = {
        f"g{n:02d}": {
            "raw": (words[n : n + 40] if n % 2 else f"invented answer number {n} zqxj vwk"),
            "classified": None,
        }
        for n in range(50)
    }
    text = json.dumps(
        {
            "summary": "",
            "gates": gates,
            "status": {"pass": False, "next_gate": None, "next_query": None},
        }
    )
    result = parse(text, config)
    ok, previous = True, None
    print(f"ground(), 50 gates (25 invented), one user turn; seconds (best of {repeat})")
    for size in (256 * 1024, 512 * 1024, 1024 * 1024):
        messages = [{"role": "user", "content": (words * (size // len(words) + 1))[:size]}]
        seconds = min_time(lambda m=messages: ground(result, config, m, text), repeat)
        growth = (
            ""
            if previous is None
            else f"   x{seconds / previous:.2f} per doubling (goal <= {GOAL_DOUBLING})"
        )
        ok = ok and (previous is None or seconds / previous <= GOAL_DOUBLING)
        print(f"  {size // 1024:5d} KB conversation   {seconds:8.3f} s{growth}")
        previous = seconds
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer lines and rounds")
    parser.add_argument("--lines", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=None)
    ns = parser.parse_args()
    lines = ns.lines or (5_000 if ns.quick else 30_000)
    repeat = ns.repeat or (2 if ns.quick else 3)
    load_config(CONFIG)  # the bench's config must load before its numbers mean anything
    with tempfile.TemporaryDirectory() as folder:
        fast = throughput(lines, repeat, Path(folder))
    linear = linearity(repeat)
    print("goals:", "met" if fast and linear else "MISSED", flush=True)
    return 0 if fast and linear else 1


if __name__ == "__main__":
    raise SystemExit(main())
