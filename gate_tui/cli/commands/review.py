"""``gate-tui review RESULTS``: review an eval run's results (from ``check --input`` or
``check --jsonl``) in a Textual screen, or export the verdicts given so far as CSV."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate_tui.cli.common import cannot_start, load_config, say, usage
from gate_tui.exit_codes import EXIT_USAGE

DESCRIPTION = (
    "Open a results file of gate-tui check (Parquet or JSON Lines) in a table of every reply: "
    "counts per status, filters, Enter for a reply's preview, a/r/n to accept, reject or mark "
    "needs-fix (saved beside the results in RESULTS.verdicts.jsonl). Needs gate-tui[data]."
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", metavar="RESULTS", help="results of gate-tui check (.parquet or .jsonl)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--config", metavar="CFG", help="the gate config the run was checked with: names the gates; an edited reply is checked again")
    which.add_argument("--contract", metavar="C", help="the contract the run was checked with: an edited reply is checked again")
    parser.add_argument("--export", metavar="CSV", help="write the verdicts given so far to CSV and exit")


def run(ns: argparse.Namespace) -> int:
    from gate_tui.results.index import open_results
    from gate_tui.results.verdicts import VerdictStore, export_csv

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
    verdicts = VerdictStore(index.path)
    for notice in verdicts.notices:
        say(f"gate-tui review: {notice}")
    if ns.export is not None:
        error = export_csv(verdicts, Path(ns.export), index.summary)
        if error is not None:
            return usage("review", error)
        say(f"gate-tui review: {len(verdicts.latest):,} verdicts written to {ns.export}")
        return 0
    try:
        from gate_tui.tui.review.app import ReviewApp
    except ImportError as exc:
        return cannot_start("the review screen", exc)
    ReviewApp(index, verdicts, config=config, contract=contract).run()
    return 0
