"""``gate-tui review RESULTS``: review an eval run's results (from ``check --input`` or
``check --jsonl``) in a Textual screen, alone or as one of a team, or export the verdicts
given so far as CSV (the adjudicator's final verdict where there is one)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from gate_tui.cli.common import cannot_start, load_config, say, usage
from gate_tui.exit_codes import EXIT_USAGE

DESCRIPTION = (
    "Open a results file of gate-tui check (Parquet or JSON Lines) in a table of every reply: "
    "counts per status, filters, Enter for a reply's preview, a/r/n to accept, reject or mark "
    "needs-fix. Each reviewer's verdicts are saved beside the results in "
    "RESULTS.verdicts.REVIEWER.jsonl; "
    "the header shows the reviewers' agreement (Cohen's or Fleiss' kappa). Needs gate-tui[data]."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "results", metavar="RESULTS", help="results of gate-tui check (.parquet or .jsonl)"
    )
    which = parser.add_mutually_exclusive_group()
    which.add_argument(
        "--config",
        metavar="CFG",
        help=(
            "the gate config the run was checked with: names the gates; an edited reply is checked "
            "again"
        ),
    )
    which.add_argument(
        "--contract",
        metavar="C",
        help="the contract the run was checked with: an edited reply is checked again",
    )
    parser.add_argument(
        "--export",
        metavar="CSV",
        help=("write the verdicts given so far to CSV and exit (final verdicts: adjudicated, "
            "agreed or disputed)"),
    )
    parser.add_argument(
        "--by",
        metavar="COLUMN",
        help="Parquet results: the summary panel (p) groups by this column",
    )
    team = parser.add_argument_group("team review")
    team.add_argument(
        "--reviewer",
        metavar="NAME",
        help="who is reviewing (default: GATE_TUI_REVIEWER or the user's name)",
    )
    team.add_argument(
        "--blind", action="store_true", help="hide the other reviewers' verdicts and the agreement"
    )
    team.add_argument(
        "--assign", type=int, metavar="N", help="review only your share of the rows: share N ..."
    )
    team.add_argument("--of", type=int, metavar="K", help="... of K (a fixed split of the rows)")
    team.add_argument(
        "--overlap",
        type=float,
        default=0.0,
        metavar="F",
        help="with --assign: a share 0..1 of rows every reviewer gets",
    )
    team.add_argument(
        "--adjudicate",
        action="store_true",
        help="give final verdicts (RESULTS.adjudicated.jsonl) seeing everyone's",
    )


def team_usage(ns: argparse.Namespace) -> str | None:
    if (ns.assign is None) != (ns.of is None):
        return "--assign N and --of K go together"
    if ns.of is not None and not (1 <= ns.assign <= ns.of <= 1000):
        return "--assign N --of K needs 1 <= N <= K <= 1000"
    if not 0.0 <= ns.overlap <= 1.0:
        return "--overlap is a share between 0 and 1"
    if ns.blind and ns.adjudicate:
        return "an adjudicator sees every verdict: --blind and --adjudicate exclude each other"
    return None


def run(ns: argparse.Namespace) -> int:
    from gate_tui.results.index import open_results
    from gate_tui.results.team import TeamVerdicts
    from gate_tui.results.verdicts import default_reviewer, export_csv, reviewer_name

    problem = team_usage(ns)
    if problem is not None:
        return usage("review", problem)
    reviewer = reviewer_name(ns.reviewer) if ns.reviewer is not None else default_reviewer()
    if reviewer is None:
        return usage("review", "--reviewer needs a name (letters, digits, . _ -)")
    config = contract = None
    if ns.config is not None:
        config = load_config(Path(ns.config), "gate-tui review")
        if config is None:
            return EXIT_USAGE
    if ns.contract is not None:
        from gate_tui.cli.contract_check import load_contract_or_report

        contract = load_contract_or_report(ns.contract, "gate-tui review")
        if contract is None:
            return EXIT_USAGE
    index, problem = open_results(ns.results)
    if index is None:
        return usage("review", problem or "cannot open the results")
    incomplete = index.incomplete()
    if incomplete:  # said before the screen and before an export: the file is not the whole run
        say(f"gate-tui review: {ns.results}: {incomplete}")
    verdicts = TeamVerdicts(index.path, index, reviewer, blind=ns.blind, adjudicator=ns.adjudicate)
    for notice in verdicts.notices:
        say(f"gate-tui review: {notice}")
    if ns.export is not None:
        error = export_csv(verdicts, Path(ns.export), index.summary)
        if error is not None:
            return usage("review", error)
        say(f"gate-tui review: {len(verdicts.exported()):,} verdicts written to {ns.export}")
        return 0
    try:
        from gate_tui.tui.review.app import ReviewApp
    except ImportError as exc:
        return cannot_start("the review screen", exc)
    assign = None if ns.assign is None else (ns.assign, ns.of, ns.overlap)
    by = None
    if ns.by is not None:
        by, problem = group_column(index, ns.by)
        if by is None:
            return usage("review", problem or f"--by {ns.by}: cannot read the column")
    ReviewApp(index, verdicts, config=config, contract=contract, assign=assign, by=by).run()
    return 0


def group_column(index: Any, name: str) -> tuple[tuple[str, Any] | None, str | None]:
    """``(name, values)`` of a Parquet results' column, in the index's row order, or why not."""
    if index.kind != "parquet":
        return None, "--by needs Parquet results (JSON Lines results carry no other columns)"
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gate_tui.results.sources import parquet_files

    parts = []
    try:
        for place in parquet_files(str(index.path)) if index.path.is_dir() else [str(index.path)]:
            parquet = pq.ParquetFile(place, pre_buffer=False)
            if name not in parquet.schema_arrow.names:
                names = ", ".join(parquet.schema_arrow.names)[:400]
                return None, f"--by {name}: no such column (columns: {names})"
            parts.append(parquet.read(columns=[name]).column(0))
    except (OSError, pa.ArrowException) as exc:
        return None, f"--by {name}: {exc}"
    values = pa.chunked_array([chunk for part in parts for chunk in part.chunks], parts[0].type)
    return (name, values), None
