"""``gate-tui report``: the Markdown review report of a saved session."""

from __future__ import annotations

import argparse
from pathlib import Path

from gate_tui.cli.common import cannot_start, exit_code

DESCRIPTION = "Write the Markdown review report of a saved session."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", metavar="SESSION", help="session id or path")
    parser.add_argument("-o", "--output", metavar="FILE", help="write the report to FILE instead of stdout")
    from gate_tui.cli.contract_options import add_contract_options

    add_contract_options(parser)  # a contract session's contract is read again as the editor read it


def run(ns: argparse.Namespace) -> int:
    from gate_tui.cli.contract_check import contract_session_report
    from gate_tui.cli.contract_options import load_options

    status = contract_session_report(ns.session, ns.output, load_options(ns))  # None: not a contract session
    if status is not None:
        return status
    try:
        from gate_tui.session.commands import report_command
    except ImportError as exc:
        return cannot_start("the report command", exc)
    return exit_code(report_command(ns.session, Path(ns.output) if ns.output else None))
