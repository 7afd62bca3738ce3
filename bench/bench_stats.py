"""Team-review benchmark: ``gate-tui stats`` and ``review`` with three reviewers on a
million rows.

Goals (issue 32), each shown beside a baseline taken in the same run (the machine is shared):
1. ``stats --by model`` over 1,000,000 result rows <= 5 s (beside: reading the same
   columns with pyarrow, the floor any counting sits on); memory flat: the peak resident
   size of a stats process on 5x the rows at most 1.25x that on 1x;
2. ``review`` with three reviewers' verdicts opens (index, the three verdict files placed
   on their replies, agreement, first screen) in <= 2 s.

Run: ``python bench/bench_stats.py`` (``--quick`` for small sizes). Prints a table and exits
non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_check import lines  # noqa: E402
from bench_eval import cli_seconds  # noqa: E402

from gate_tui.results.index import open_results  # noqa: E402
from gate_tui.results.stats import run_stats  # noqa: E402

GOAL_STATS_S = 5.0
GOAL_MEMORY = 1.25
GOAL_REVIEW_S = 2.0
MODELS = ("alpha", "beta", "gamma")
FINISH = ("stop", "stop", "stop", "length")


def results_file(folder: Path, rows: int, name: str = "results.parquet") -> Path:
    """``rows`` result rows as ``check --input`` writes them: the bench mix checked once
    (with a model column, finish reasons and usage), repeated with fresh ids."""
    mix = folder / "mix_results.parquet"
    if not mix.exists():
        items = [json.loads(line) for line in "".join(lines(1000)).splitlines()]
        source = folder / "mix.parquet"
        pq.write_table(
            pa.table(
                {
                    "id": [str(item["id"]) for item in items],
                    "reply": [item["reply"] for item in items],
                    "model": [MODELS[n % 3] for n in range(len(items))],
                    "finish_reason": [FINISH[n % 4] for n in range(len(items))],
                    "usage": [
                        {"prompt_tokens": 500, "completion_tokens": 100 + n % 50}
                        for n in range(len(items))
                    ],
                }
            ),
            source,
        )
        cli_seconds(["--input", str(source), "--output", str(mix)], 1)
    checked = pq.read_table(mix)
    path = folder / name
    with pq.ParquetWriter(path, checked.schema) as writer:
        for start in range(0, rows, 4096):
            count = min(4096, rows - start)
            chunk = checked.take(pa.array([(start + n) % checked.num_rows for n in range(count)]))
            chunk = chunk.set_column(
                0, "id", pa.array([f"r{start + n}" for n in range(count)], pa.string())
            )
            writer.write_table(chunk, row_group_size=count)
    return path


def stats_seconds(path: Path) -> tuple[float, float]:
    """Seconds of ``run_stats(path, by="model")``, and of reading its columns (the floor)."""
    started = time.perf_counter()
    stats, problem = run_stats(path, "model")
    assert stats is not None, problem
    seconds = time.perf_counter() - started
    assert stats.overall.rows == pq.read_metadata(path).num_rows and len(stats.groups) == len(
        MODELS
    ), "stats counted the wrong rows"
    started = time.perf_counter()
    columns = [
        "ok",
        "pass",
        "next_gate",
        "error_codes",
        "repairs",
        "guessed",
        "claimed",
        "cut_off",
        "several_states",
        "repair_codes",
        "model",
    ]
    for batch in pq.ParquetFile(path).iter_batches(batch_size=1 << 16, columns=columns):
        batch.num_rows  # noqa: B018 - the read is the work
    return seconds, time.perf_counter() - started


def peak_rss_mb(path: Path) -> float:
    """The peak resident size of a fresh process running stats over ``path``."""
    code = (
        "import resource, sys; from gate_tui.results.stats import run_stats; "
        f"run_stats({str(path)!r}, 'model'); "
        f"print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return float(done.stdout.strip())


def write_verdicts(
    path: Path, index: object, reviewers: tuple[str, ...], per_reviewer: int
) -> None:
    """Each reviewer's verdict file, as ``review`` writes it: ``per_reviewer`` rows spread
    over the run (every reviewer the same rows, verdicts that mostly agree)."""
    from gate_tui.results.verdicts import verdicts_path

    step = max(index.rows // per_reviewer, 1)  # type: ignore[attr-defined]
    rows = list(range(0, index.rows, step))[:per_reviewer]  # type: ignore[attr-defined]
    ids, prints = index.ids(rows), index.fingerprints(rows)  # type: ignore[attr-defined]
    words = ("accepted", "rejected", "needs-fix")
    for number, name in enumerate(reviewers):
        with open(verdicts_path(path, name), "w", encoding="utf-8") as out:
            out.write(
                json.dumps({"kind": "header", "results": path.name, "format": 2, "reviewer": name})
                + "\n"
            )
            for place, (row, ident, fingerprint) in enumerate(zip(rows, ids, prints, strict=True)):
                verdict = words[(place + (number if place % 7 == 0 else 0)) % 3]
                record = {
                    "kind": "verdict",
                    "row": row,
                    "id": ident,
                    "verdict": verdict,
                    "note": "",
                    "at": "2026-01-01T00:00:00",
                    "reviewer": name,
                    "fingerprint": fingerprint,
                    "run_id": None,
                }
                out.write(json.dumps(record) + "\n")


def review_seconds(path: Path) -> tuple[float, dict[str, object] | None]:
    """Seconds from nothing to the review's first screen with the team's verdicts."""
    from gate_tui.results.team import TeamVerdicts
    from gate_tui.tui.review.app import ReviewApp
    from gate_tui.tui.review.table import ResultsTable

    started = time.perf_counter()
    index, problem = open_results(path)
    assert index is not None, problem
    team = TeamVerdicts(path, index, "dee")
    found = team.agreement()

    async def first_screen() -> None:
        app = ReviewApp(index, team, blink=False)
        async with app.run_test(size=(120, 40)) as pilot:
            while not isinstance(app.focused, ResultsTable):
                await pilot.pause(0.01)

    asyncio.run(first_screen())
    return time.perf_counter() - started, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--verdicts", type=int, default=20_000, help="verdicts per reviewer")
    parser.add_argument("--quick", action="store_true", help="100,000 rows, 2,000 verdicts each")
    ns = parser.parse_args()
    if ns.quick:
        ns.rows, ns.verdicts = 100_000, 2_000
    missed = []

    def judge(what: str, figure: str, ok: bool, goal: str) -> None:
        print(f"{what:<44} {figure:<44} goal {goal:<12} {'ok' if ok else 'MISSED'}")
        if not ok:
            missed.append(what)

    with tempfile.TemporaryDirectory(prefix="bench-stats-") as temp:
        folder = Path(temp)
        path = results_file(folder, ns.rows)
        seconds, floor = stats_seconds(path)
        judge(
            f"stats --by model, {ns.rows:,} rows",
            f"{seconds:.2f} s (reading the columns: {floor:.2f} s)",
            seconds <= GOAL_STATS_S,
            f"<= {GOAL_STATS_S} s",
        )
        small = results_file(folder, ns.rows // 5, "small.parquet")
        low, high = peak_rss_mb(small), peak_rss_mb(path)
        judge(
            f"stats memory, {ns.rows // 5:,} vs {ns.rows:,} rows",
            f"{low:.0f} MB vs {high:.0f} MB ({high / low:.2f}x)",
            high / low <= GOAL_MEMORY,
            f"<= {GOAL_MEMORY}x",
        )
        index, _ = open_results(path)
        write_verdicts(path, index, ("ana", "ben", "cy"), ns.verdicts)
        opened, found = review_seconds(path)
        kappa = "n/a" if not found or found.get("kappa") is None else f"{found['kappa']:.3f}"
        judge(
            f"review, 3 reviewers x {ns.verdicts:,} verdicts",
            f"{opened:.2f} s to the first screen (Fleiss {kappa})",
            opened <= GOAL_REVIEW_S,
            f"<= {GOAL_REVIEW_S} s",
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
