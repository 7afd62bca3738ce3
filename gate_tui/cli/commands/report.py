"""``gate-tui report``: the review report of a saved session, the sign-off record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gate_tui.cli.common import cannot_start, exit_code, isatty, say

DESCRIPTION = (
    "Write the review report of a saved session: who changed what and when, every answer in full, "
    "every outstanding or blocking gate. Formats: text (for a terminal; the default there), "
    "markdown (the default otherwise), html (one self-contained file to attach to a ticket)."
)
FORMATS = ("text", "markdown", "html")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", metavar="SESSION", help="session id or path")
    parser.add_argument(
        "-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help=(
            "text, markdown or html (default: text on a terminal, else from -o's suffix, else "
            "markdown)"
        ),
    )
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(
        parser
    )  # a contract session's contract is read again as the editor read it


def report_format(ns: argparse.Namespace) -> str:
    """``--format``, else what the destination suggests: text on a terminal, a file's suffix,
    Markdown."""
    if ns.format:
        return str(ns.format)
    if ns.output:
        from gate_tui.session.report import format_for_path

        return format_for_path(ns.output)
    return "text" if isatty(sys.stdout) else "markdown"


def run(ns: argparse.Namespace) -> int:
    from gate_tui.cli.contract_check import contract_session_report
    from gate_tui.cli.contract_options import load_options

    status = contract_session_report(
        ns.session, ns.output, load_options(ns)
    )  # None: not a contract session
    if status is not None:
        if ns.format not in (None, "markdown"):
            say(
                "gate-tui report: a contract session's report is Markdown only (--format "
                f"{ns.format} was not applied)"
            )
        return status
    try:
        from gate_tui.session.commands import report_command
    except ImportError as exc:
        return cannot_start("the report command", exc)
    return exit_code(
        report_command(ns.session, Path(ns.output) if ns.output else None, fmt=report_format(ns))
    )
