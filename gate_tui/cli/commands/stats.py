"""``gate-tui stats RESULTS [B] [--by COLUMN] [--format text|json|md|html] [-o FILE]``:
the statistics of an eval run (:mod:`gate_tui.results.stats`), or two runs compared row by
row on their ids (:mod:`gate_tui.results.stats_compare`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from gate_tui.cli.common import say, usage

DESCRIPTION = (
    "Statistics of a results file of gate-tui check: rows per status, what the model "
    "claimed against what the "
    "system decided (overall and per gate), invalid / repaired / guessed / cut-off rates, "
    "top error and repair "
    "codes, token usage, grounding findings and reviewers' agreement when present. --by "
    "groups by any column "
    "(check --input carries the input's columns into its results). With two files: what "
    "changed, row by row on ids."
)
FORMATS = ("text", "json", "md", "html")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results",
        metavar="RESULTS",
        help="results of gate-tui check (.parquet, a folder of parts, or .jsonl)",
    )
    parser.add_argument(
        "other",
        metavar="B",
        nargs="?",
        help="a second run's results: compare the two row by row on their ids",
    )
    parser.add_argument(
        "--by", metavar="COLUMN", help="group by a column of the results (model, prompt, ...)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), json, md (Markdown) or html (one self-contained page)",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")


def run(ns: argparse.Namespace) -> int:
    from gate_tui.atomic import atomic_write_text

    if ns.other is not None:
        if ns.by is not None or ns.format in ("md", "html"):
            return usage(
                "stats", "comparing two runs prints text or json; --by and md/html apply to one run"
            )
        from gate_tui.results.stats_compare import compare_runs, compare_text

        compared, problem = compare_runs(ns.results, ns.other)
        if compared is None:
            return usage("stats", problem or "cannot compare")
        text = (
            json.dumps(compared, indent=2, ensure_ascii=False) + "\n"
            if ns.format == "json"
            else compare_text(compared)
        )
    else:
        text_or_problem = stats_text(ns.results, ns.by, ns.format)
        if text_or_problem[0] is None:
            return usage("stats", text_or_problem[1] or "cannot read the results")
        text = text_or_problem[0]
    if ns.output in (None, "-"):
        from gate_tui.safe_text import visible

        sys.stdout.write(text if ns.format in ("json", "html") else visible(text))
        sys.stdout.flush()
        return 0
    error = atomic_write_text(Path(ns.output), text)
    if error is not None:
        return usage("stats", error)
    say(f"gate-tui stats: written to {ns.output}")
    return 0


def stats_text(results: str, by: str | None, form: str) -> tuple[str | None, str | None]:
    """The statistics of one run in ``form``, or None and why not."""
    from gate_tui.results.agreement import run_agreement
    from gate_tui.results.stats import run_stats
    from gate_tui.results.stats_render import markdown_report, stats_data, text_report

    stats, problem = run_stats(results, by)
    if stats is None:
        return None, problem
    stats.agreement = run_agreement(Path(results))
    data = stats_data(stats)
    if form == "json":
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n", None
    if form == "md":
        return markdown_report(data), None
    if form == "html":
        from gate_tui.results.stats_html import html_report

        return html_report(data), None
    return text_report(data), None
