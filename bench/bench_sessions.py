"""Session benchmark: long journals open and report in linear time, reports in flat memory.

Goals (issue 14, items 5 and 9), as ratios against baselines measured in the same run:

1. ``gate-tui report`` of a 100,000-line journal (about 100 MB): its wall time is at most
   30x ``json.loads`` of the same lines in one Python loop (the least any reader must do);
2. linear: the 100,000-line report costs at most 12x the 10,000-line one (10x the lines);
3. flat memory: the 100,000-line report's peak RSS is at most 1.5x the 10,000-line one's
   (the report streams the journal; it used to hold every record: 1.24 GB);
4. opening the 100,000-line journal in the editor's session layer (read + replay, a read-only
   ``open_session``) is at most 20x the json.loads baseline and linear (at most 12x the
   10,000-line open). The editor keeps its whole history, so its memory is not flat.

``--memory`` (issue 17, item 10) measures instead the peak RSS of opening a 100 MB journal
(``--gb``: and a 1 GB one) of model replies, each record carrying the reply's whole text:
the editor keeps the states, not the payloads, so memory above an empty session's must stay
within :data:`GOAL_BYTES_PER_TRANSITION` per transition, far below the journal's size. The
journals are written to a temporary folder and deleted afterwards.

The journal is made from a real session (edits through ``parse`` and ``Session.accept``)
whose edit records are repeated with fresh sequence numbers. Every report runs the real
console script in a subprocess (output to a file; peak RSS from ``RUSAGE_CHILDREN`` of a
fresh wrapper). Run: ``python bench/bench_sessions.py`` (``--quick``: 2,000 / 20,000
lines). Prints a table and exits non-zero when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gate_tui.config.loading import load_config  # noqa: E402
from gate_tui.parsing.pipeline import parse  # noqa: E402
from gate_tui.session.opening import open_session  # noqa: E402

CONFIG_PATH = ROOT / "sample_configs" / "ml_project_intake.yaml"
SCRIPT = Path(sys.executable).with_name("gate-tui")
GOAL_REPORT_RATIO = 30.0
GOAL_OPEN_RATIO = 20.0
GOAL_LINEAR = 12.0
GOAL_FLAT_MEMORY = 1.5
GOAL_BYTES_PER_TRANSITION = 6_000
OPEN_PEAK = (
    "import resource, sys, time\nfrom pathlib import Path\n"
    "from gate_tui.config.loading import load_config\nfrom gate_tui.session.opening import "
    "open_session\n"
    "config = load_config(sys.argv[1])\nstart = time.perf_counter()\n"
    "session = open_session(config, Path(sys.argv[1]), directory=Path(sys.argv[2]), "
    "read_only=True)\n"
    "assert not session.persistence_warning, session.persistence_warning\n"
    "print(len(session.timeline), time.perf_counter() - start, "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
)

WRAPPER = (
    "import resource, subprocess, sys, time\n"
    "start = time.perf_counter()\n"
    "with open(sys.argv[1], 'wb') as out:\n"
    "    code = subprocess.run(sys.argv[2:], stdout=out).returncode\n"
    "seconds = time.perf_counter() - start\n"
    "print(code, seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
)


def make_journal(root: Path, lines: int) -> Path:
    """A session folder whose journal has ``lines`` lines (a header and edit records)."""
    config = load_config(CONFIG_PATH)
    session = open_session(config, CONFIG_PATH, root=root, new=True)
    for index, key in enumerate(("2_use_case", "3_success_metric", "5_stakeholder", "2_use_case")):
        patch = {
            "summary": f"Ticket routing, step {index}",
            "gates": {key: {"raw": f"Answer {index}: " + "detail " * 12}},
        }
        session.accept(parse(patch, config, session.state, actor="user"), patch, "user")
    session.close()
    assert session.journal_path is not None and session.directory is not None
    header, *body = session.journal_path.read_bytes().splitlines()
    edits = [json.loads(line) for line in body if json.loads(line).get("kind") == "edit"]
    with session.journal_path.open("wb") as out:
        out.write(header + b"\n")
        for seq in range(1, lines):
            record = dict(edits[seq % len(edits)], seq=seq, index=seq - 1)
            out.write(
                json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                + b"\n"
            )
    return session.directory


def make_reply_journal(root: Path, megabytes: int) -> Path:
    """A session folder whose journal holds about ``megabytes`` MB of accepted model replies,
    each record with the reply's whole text (about 4 KB) as its payload."""
    config = load_config(CONFIG_PATH)
    session = open_session(config, CONFIG_PATH, root=root, new=True)
    text = (ROOT / "sample_configs" / "replies" / "ml_good.md").read_text(encoding="utf-8")
    for index in range(4):
        reply = (
            text.replace("Ticket", f"Ticket {index}")
            + "\n\nNotes: "
            + "the model explains its reasoning at length. " * 60
        )
        session.accept(parse(reply, config, session.state), reply, "assistant")
    session.close()
    assert session.journal_path is not None and session.directory is not None
    header, *body = session.journal_path.read_bytes().splitlines()
    replies = [json.loads(line) for line in body if json.loads(line).get("kind") == "reply"]
    with session.journal_path.open("wb") as out:
        out.write(header + b"\n")
        seq, size = 1, len(header)
        while size < megabytes * 1_000_000:
            record = dict(replies[seq % len(replies)], seq=seq, index=seq - 1)
            line = (
                json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                + b"\n"
            )
            out.write(line)
            size += len(line)
            seq += 1
    return session.directory


def open_peak(folder: Path) -> tuple[int, float, int]:
    """(transitions, seconds, peak RSS in bytes) of a read-only open in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", OPEN_PEAK, str(CONFIG_PATH), str(folder)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    count, seconds, rss = done.stdout.split()
    return int(count), float(seconds), int(rss) * 1024


def memory(sizes: list[int]) -> int:
    """``--memory``: peak RSS of opening journals of ``sizes`` MB against an empty session's."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GATE_TUI_STATE_DIR"] = tmp
        empty = make_reply_journal(Path(tmp) / "empty", 0)
        _, _, base = open_peak(empty)
        for megabytes in sizes:
            folder = make_reply_journal(Path(tmp) / str(megabytes), megabytes)
            size = (folder / "journal.jsonl").stat().st_size
            count, seconds, peak = open_peak(folder)
            shutil.rmtree(folder)  # a 1 GB journal does not wait for the others
            per = (peak - base) / count
            rows.append(
                (
                    f"open {size / 1e6:,.0f} MB journal ({count:,} replies)",
                    f"{seconds:.1f} s, peak RSS {peak / 1e6:,.0f} MB = empty {base / 1e6:.0f} MB "
                    f"+ {per:,.0f} B/transition",
                    per <= GOAL_BYTES_PER_TRANSITION,
                )
            )
    width = max(len(row[0]) for row in rows)
    for name, figure, ok in rows:
        print(
            f"{name:<{width}}  {figure:<70} <= {GOAL_BYTES_PER_TRANSITION:,} B/transition  "
            f"{'ok' if ok else 'MISSED'}"
        )
    return 0 if all(row[2] for row in rows) else 1


def baseline(journal: Path) -> float:
    """Seconds to json.loads every line of ``journal`` (best of 3)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with journal.open("rb") as handle:
            for line in handle:
                json.loads(line)
        best = min(best, time.perf_counter() - start)
    return best


def run_report(folder: Path, out: Path) -> tuple[float, int]:
    """(seconds, peak RSS in KiB) of ``gate-tui report FOLDER`` in a fresh wrapper."""
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "gate_tui"]
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, str(out), *command, "report", str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    code, seconds, rss = done.stdout.split()
    if int(code) != 0:
        raise SystemExit(f"report failed ({code}): {done.stderr}")
    return float(seconds), int(rss)


def time_open(folder: Path) -> float:
    config = load_config(CONFIG_PATH)
    start = time.perf_counter()
    session = open_session(config, CONFIG_PATH, directory=folder, read_only=True)
    seconds = time.perf_counter() - start
    assert session.timeline, "the journal replayed"
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2,000 and 20,000 lines")
    parser.add_argument(
        "--memory", action="store_true", help="peak RSS of opening a 100 MB journal of replies"
    )
    parser.add_argument(
        "--gb",
        action="store_true",
        help="with --memory: a 1 GB journal too (needs some 2 GB of RAM)",
    )
    args = parser.parse_args()
    if args.memory:
        return memory([100, 1000] if args.gb else [100])
    small, large = (2_000, 20_000) if args.quick else (10_000, 100_000)
    rows: list[tuple[str, str, str, bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["GATE_TUI_STATE_DIR"] = tmp
        folders = {n: make_journal(Path(tmp) / str(n), n) for n in (small, large)}
        journal = folders[large] / "journal.jsonl"
        size_mb = journal.stat().st_size / 1e6
        loads = baseline(journal)
        reports = {
            n: run_report(folder, Path(tmp) / f"report-{n}.md") for n, folder in folders.items()
        }
        opens = {n: time_open(folder) for n, folder in folders.items()}
    report_s, report_rss = reports[large]
    rows.append(
        (
            f"report {large:,} lines ({size_mb:.0f} MB)",
            f"{report_s:.2f} s = {report_s / loads:.1f}x json.loads ({loads:.2f} s)",
            f"<= {GOAL_REPORT_RATIO:.0f}x",
            report_s / loads <= GOAL_REPORT_RATIO,
        )
    )
    rows.append(
        (
            "report: 10x the lines",
            f"{report_s / reports[small][0]:.1f}x the time",
            f"<= {GOAL_LINEAR:.0f}x",
            report_s / reports[small][0] <= GOAL_LINEAR,
        )
    )
    rows.append(
        (
            "report peak RSS",
            f"{report_rss / 1024:.0f} MB vs {reports[small][1] / 1024:.0f} MB "
            f"({report_rss / reports[small][1]:.2f}x)",
            f"<= {GOAL_FLAT_MEMORY}x",
            report_rss / reports[small][1] <= GOAL_FLAT_MEMORY,
        )
    )
    rows.append(
        (
            f"open (read + replay) {large:,} lines",
            f"{opens[large]:.2f} s = {opens[large] / loads:.1f}x json.loads",
            f"<= {GOAL_OPEN_RATIO:.0f}x",
            opens[large] / loads <= GOAL_OPEN_RATIO,
        )
    )
    rows.append(
        (
            "open: 10x the lines",
            f"{opens[large] / opens[small]:.1f}x the time",
            f"<= {GOAL_LINEAR:.0f}x",
            opens[large] / opens[small] <= GOAL_LINEAR,
        )
    )
    width = max(len(row[0]) for row in rows)
    for name, figure, goal, ok in rows:
        print(f"{name:<{width}}  {figure:<52} {goal:<8} {'ok' if ok else 'MISSED'}")
    return 0 if all(row[3] for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
